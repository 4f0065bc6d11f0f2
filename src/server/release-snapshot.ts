/**
 * Signed release snapshots. When a hidden phase is released (by an organizer, or at its
 * scheduled instant), the server writes what was published into `--data/releases/PHASE/N/`:
 *
 * - `snapshot.json`: competition, phase, instant, trecscore version, per track its qrels
 *   version, whether per-query files are included, the signing key's fingerprint;
 * - `boards/TRACK.json`: the board exactly as the API serves it (tiers, aliases and all);
 * - `entries/TRACK/NNN.json`: per board row (NNN = its position, so no file name carries a
 *   team name), the published team and run, the score's provenance (conventions, input
 *   hashes, the reproducing command), its warnings and counts, and, once any
 *   `perQueryEmbargo` has passed, its per-query values;
 * - `release-ed25519.pub.pem`: the server's public signing key;
 * - `MANIFEST.sha256`: `sha256  path` for every file above (the `sha256sum -c` format);
 * - `MANIFEST.sha256.sig`: an Ed25519 signature of the manifest's bytes (base64).
 *
 * The private key is made on first use in `--data/keys/` (mode 0600) and never leaves it. A
 * new snapshot (N + 1) is written when the embargo passes, and when a newer qrels version has
 * been fully re-scored; earlier snapshots stay. Each is written to a temporary folder and
 * renamed into place, so a snapshot folder is always complete. Nothing here is served over
 * HTTP; qrels are never copied (only their sha256, as in the provenance).
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join, relative, sep } from 'node:path'
import { isPublic, loadBoard, publish, qrelsState, rankedEntries } from './board.js'
import type { PhaseConfig } from './config/schema.js'
import type { ServerContext } from './context.js'
import { TRECSCORE_VERSION } from './scoring.js'

/** What `snapshot.json` says. */
export interface SnapshotMeta {
  readonly schema: 'trecscore.release-snapshot/1'
  readonly competition: string
  readonly phase: string
  /** 1, 2, …: snapshots of one phase, oldest first. */
  readonly number: number
  readonly writtenAt: string
  readonly trecscoreVersion: string
  readonly perQueryIncluded: boolean
  readonly perQueryEmbargo: string | null
  /** Per track: the newest qrels version its board was scored against. */
  readonly qrelsVersions: Readonly<Record<string, number>>
  /** sha256 (hex) of the public key's DER (SPKI) encoding. */
  readonly keyFingerprint: string
}

const MANIFEST = 'MANIFEST.sha256'
const SIGNATURE = 'MANIFEST.sha256.sig'
const PUBLIC_KEY = 'release-ed25519.pub.pem'

function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** The server's signing key pair, made on first use under `--data/keys/`. */
export function signingKey(dataDir: string): {
  privateKey: KeyObject
  publicPem: string
  fingerprint: string
} {
  const dir = join(dataDir, 'keys')
  const file = join(dir, 'release-ed25519.pem')
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const { privateKey } = generateKeyPairSync('ed25519')
    const tmp = `${file}.${process.pid}.tmp`
    writeFileSync(tmp, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 })
    // Two processes racing: the first rename wins, both then read the same key.
    if (!existsSync(file)) renameSync(tmp, file)
    else rmSync(tmp, { force: true })
  }
  const privateKey = createPrivateKey(readFileSync(file))
  const pub = createPublicKey(privateKey)
  return {
    privateKey,
    publicPem: pub.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: sha256(pub.export({ type: 'spki', format: 'der' })),
  }
}

function phaseDir(dataDir: string, phase: string): string {
  return join(dataDir, 'releases', phase)
}

/** The snapshots of a phase, oldest first (their `snapshot.json`). */
export function listSnapshots(
  dataDir: string,
  phase: string,
): (SnapshotMeta & { readonly dir: string; readonly manifestSha256: string })[] {
  const dir = phaseDir(dataDir, phase)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((n) => /^[1-9][0-9]*$/.test(n))
    .map(Number)
    .sort((a, b) => a - b)
    .map((n) => {
      const d = join(dir, String(n))
      return {
        ...(JSON.parse(readFileSync(join(d, 'snapshot.json'), 'utf8')) as SnapshotMeta),
        dir: d,
        manifestSha256: sha256(readFileSync(join(d, MANIFEST))),
      }
    })
}

async function qrelsVersions(
  ctx: ServerContext,
  phase: string,
): Promise<{ versions: Record<string, number>; rescoring: number }> {
  const versions: Record<string, number> = {}
  let rescoring = 0
  for (const t of ctx.competition.tracks) {
    const q = await qrelsState(ctx.db, t.id, phase)
    versions[t.id] = q.qrelsVersion
    rescoring += q.rescoring
  }
  return { versions, rescoring }
}

/** Why a new snapshot of a public hidden phase is due, or null. */
async function due(
  ctx: ServerContext,
  phase: PhaseConfig,
): Promise<{ perQuery: boolean; versions: Record<string, number> } | null> {
  if (!phase.hidden || !(await isPublic(ctx.db, phase, ctx.now()))) return null
  const perQuery =
    phase.perQueryEmbargo === undefined || ctx.now().toISOString() >= phase.perQueryEmbargo
  const { versions, rescoring } = await qrelsVersions(ctx, phase.id)
  const last = listSnapshots(ctx.dataDir, phase.id).at(-1)
  if (!last) return { perQuery, versions }
  if (perQuery && !last.perQueryIncluded) return { perQuery, versions }
  const newer = Object.entries(versions).some(([t, v]) => v > (last.qrelsVersions[t] ?? 1))
  return newer && rescoring === 0 ? { perQuery, versions } : null
}

/** Write the next snapshot of a phase (see the module comment); returns its folder. */
export async function writeSnapshot(
  ctx: ServerContext,
  phase: PhaseConfig,
  perQuery: boolean,
  versions: Readonly<Record<string, number>>,
): Promise<string> {
  const key = signingKey(ctx.dataDir)
  const number = (listSnapshots(ctx.dataDir, phase.id).at(-1)?.number ?? 0) + 1
  const root = phaseDir(ctx.dataDir, phase.id)
  mkdirSync(root, { recursive: true })
  const tmp = join(root, `.tmp-${number}-${process.pid}-${Date.now()}`)
  rmSync(tmp, { recursive: true, force: true })
  const files = new Map<string, string>()
  const put = (path: string, text: string): void => {
    files.set(path, text)
  }
  const now = ctx.now()
  for (const track of ctx.competition.tracks) {
    const board = await loadBoard(ctx.db, ctx.competition, track.id, phase.id, now)
    if (!board) continue
    put(`boards/${track.id}.json`, `${JSON.stringify(board, null, 2)}\n`)
    const entries = await rankedEntries(ctx.db, ctx.competition, track, phase.id)
    const ids = entries.map((e) => e.scoreId).filter((i): i is number => i !== undefined)
    const rows = ids.length
      ? await ctx.db
          .selectFrom('scores')
          .select(['id', 'provenance', 'notes', 'per_query', 'qrels_version'])
          .where('id', 'in', ids)
          .execute()
      : []
    const byId = new Map(rows.map((r) => [r.id, r]))
    entries.forEach((e, i) => {
      const row = e.scoreId === undefined ? undefined : byId.get(e.scoreId)
      const pub = publish(e)
      const body = {
        position: i + 1,
        rank: pub.rank,
        team: pub.team,
        anonymous: pub.anonymous,
        baseline: pub.baseline,
        run: pub.run,
        submissionId: pub.submissionId,
        primary: pub.primary,
        columns: pub.columns,
        qrelsVersion: row?.qrels_version ?? null,
        provenance: row ? (JSON.parse(row.provenance) as unknown) : null,
        notes: row ? (JSON.parse(row.notes) as unknown) : null,
        perQuery: perQuery && row ? (JSON.parse(row.per_query) as unknown) : null,
      }
      put(
        `entries/${track.id}/${String(i + 1).padStart(3, '0')}.json`,
        `${JSON.stringify(body, null, 2)}\n`,
      )
    })
  }
  const meta: SnapshotMeta = {
    schema: 'trecscore.release-snapshot/1',
    competition: ctx.competition.name,
    phase: phase.id,
    number,
    writtenAt: now.toISOString(),
    trecscoreVersion: TRECSCORE_VERSION,
    perQueryIncluded: perQuery,
    perQueryEmbargo: phase.perQueryEmbargo ?? null,
    qrelsVersions: versions,
    keyFingerprint: key.fingerprint,
  }
  put('snapshot.json', `${JSON.stringify(meta, null, 2)}\n`)
  put(PUBLIC_KEY, key.publicPem)
  const paths = [...files.keys()].sort()
  const manifest = paths.map((p) => `${sha256(files.get(p)!)}  ${p}\n`).join('')
  for (const p of paths) {
    mkdirSync(join(tmp, p, '..'), { recursive: true })
    writeFileSync(join(tmp, p), files.get(p)!)
  }
  writeFileSync(join(tmp, MANIFEST), manifest)
  writeFileSync(
    join(tmp, SIGNATURE),
    `${sign(null, Buffer.from(manifest), key.privateKey).toString('base64')}\n`,
  )
  const final = join(root, String(number))
  renameSync(tmp, final)
  return final
}

/** One snapshot writer at a time per server (the timer and a release action may overlap). */
const writing = new WeakMap<ServerContext, Promise<unknown>>()

/** Write every snapshot that is due (released hidden phases; embargo passed; newer qrels fully re-scored). Returns the folders written. */
export function writeDueSnapshots(ctx: ServerContext): Promise<string[]> {
  const run = async (): Promise<string[]> => {
    const out: string[] = []
    for (const phase of ctx.competition.phases) {
      const d = await due(ctx, phase)
      if (d) out.push(await writeSnapshot(ctx, phase, d.perQuery, d.versions))
    }
    return out
  }
  const next = (writing.get(ctx) ?? Promise.resolve()).then(run, run)
  writing.set(
    ctx,
    next.catch(() => undefined),
  )
  return next
}

/** Every file under `root`, as `/`-separated paths relative to it. */
function walk(root: string, dir = root): string[] {
  const out: string[] = []
  for (const n of readdirSync(dir)) {
    const p = join(dir, n)
    if (statSync(p).isDirectory()) out.push(...walk(root, p))
    else out.push(relative(root, p).split(sep).join('/'))
  }
  return out
}

/**
 * Check a snapshot folder: the signature of the manifest (with the given public key, or the
 * one in the folder), every file's sha256, and that no file is missing or added. Returns the
 * problems (empty: valid).
 */
export function verifySnapshot(dir: string, publicKeyPem?: string): string[] {
  const problems: string[] = []
  const read = (p: string): Buffer | null => {
    try {
      return readFileSync(join(dir, p))
    } catch {
      return null
    }
  }
  const manifest = read(MANIFEST)
  const sig = read(SIGNATURE)
  const pem = publicKeyPem ?? read(PUBLIC_KEY)?.toString()
  if (!manifest) return [`${MANIFEST}: missing`]
  if (!sig) return [`${SIGNATURE}: missing`]
  if (!pem) return [`${PUBLIC_KEY}: missing (or give the public key)`]
  let ok = false
  try {
    ok = verify(null, manifest, createPublicKey(pem), Buffer.from(sig.toString().trim(), 'base64'))
  } catch (e) {
    problems.push(`public key: ${(e as Error).message}`)
  }
  if (!ok) problems.push(`${SIGNATURE}: the signature does not match ${MANIFEST} under this key`)
  const listed = new Set<string>()
  for (const [i, line] of manifest.toString().split('\n').entries()) {
    if (line === '') continue
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line)
    if (!m) {
      problems.push(
        `${MANIFEST}:${i + 1}: not "sha256  path": ${JSON.stringify(line.slice(0, 80))}`,
      )
      continue
    }
    listed.add(m[2]!)
    const bytes = read(m[2]!)
    if (!bytes) problems.push(`${m[2]}: listed in ${MANIFEST} but missing`)
    else if (sha256(bytes) !== m[1]) problems.push(`${m[2]}: sha256 differs from ${MANIFEST}`)
  }
  for (const f of walk(dir))
    if (f !== MANIFEST && f !== SIGNATURE && !listed.has(f))
      problems.push(`${f}: not listed in ${MANIFEST}`)
  return problems
}
