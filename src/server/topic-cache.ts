/**
 * The topic ids the upload check knows for a track and phase (binary strings, as the qrels
 * reader keys them): the topics of the newest qrels version of a public phase of a qrels
 * track; none (format checks only) for hidden phases and RETECO tracks, whose upload check
 * reads the data folder itself. The team page hands the list to the browser's check and the
 * server's check uses it on every upload, so it is read once per (track, phase, qrels version)
 * and kept; adding a qrels version drops the entries of its track and phase.
 *
 * Two sources: a process that holds the qrels reads the qrels file (`files`); a web process
 * that holds none (Postgres, no scoring in it) reads the `topic_lists` table (`database`), which
 * every process that holds the qrels fills with {@link publishTopicLists} (a worker at start and
 * at each maintenance tick). A list not published yet is a {@link TopicListMissing}: the upload
 * is refused (503), never checked without its topics.
 */
import { readQrels } from '../internal.js'
import type { Competition, Track } from './config/load.js'
import type { PhaseConfig } from './config/schema.js'
import type { Db } from './db/database.js'
import { currentQrels } from './qrels-versions.js'

/** The topic list of a track and phase is not in the database yet (no worker published it). */
export class TopicListMissing extends Error {
  override readonly name = 'TopicListMissing'
  constructor(track: string, phase: string, version: number) {
    super(
      `the topic list of track ${track}, phase ${phase} (qrels version ${version}) is not published yet: a \`trecscore worker\` publishes it when it starts; try again in a minute`,
    )
  }
}

/** Ids as stored: their bytes joined by newlines, base64 (ids hold no newline; Postgres text no NUL). */
export function encodeTopics(ids: Iterable<string>): string {
  return Buffer.from([...ids].join('\n'), 'latin1').toString('base64')
}

/** The inverse of {@link encodeTopics}. */
export function decodeTopics(text: string): Set<string> {
  const joined = Buffer.from(text, 'base64').toString('latin1')
  return new Set(joined === '' ? [] : joined.split('\n'))
}

/** The topics of the qrels file a track (as {@link currentQrels} returns it) has for a phase. */
async function readTopics(track: Track, phase: PhaseConfig): Promise<ReadonlySet<string>> {
  const r = await readQrels(`${track.dataDir}/${track.qrels![phase.id]!}`)
  return new Set(r.queries.keys())
}

/** Whether a track and phase has an upload topic list at all (see the module comment). */
function hasTopicList(track: Track, phase: PhaseConfig): boolean {
  return track.kind !== 'reteco' && !phase.hidden && track.qrels?.[phase.id] !== undefined
}

export class TopicCache {
  private readonly entries = new Map<string, Promise<ReadonlySet<string>>>()
  /** Qrels files read so far (a test counts them). */
  reads = 0

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
    /** `files`: read the qrels; `database`: read what a worker published (no qrels here). */
    readonly source: 'files' | 'database' = 'files',
  ) {}

  /** The topics of a track and phase now (see the module comment); undefined: no topic list. */
  async topics(track: Track, phase: PhaseConfig): Promise<ReadonlySet<string> | undefined> {
    if (!hasTopicList(track, phase)) return undefined
    const q = await currentQrels(this.db, track, phase, this.dataDir)
    const key = `${track.id}\u0000${phase.id}\u0000${q.version}`
    let entry = this.entries.get(key)
    if (!entry) {
      entry =
        this.source === 'database' ? this.published(track, phase, q.version) : this.read(q, phase)
      // A failed read is not kept: the next call tries again.
      entry.catch(() => this.entries.delete(key))
      this.entries.set(key, entry)
    }
    return entry
  }

  private read(q: Awaited<ReturnType<typeof currentQrels>>, phase: PhaseConfig) {
    this.reads++
    return readTopics(q.track, phase)
  }

  private async published(
    track: Track,
    phase: PhaseConfig,
    version: number,
  ): Promise<ReadonlySet<string>> {
    const row = await this.db
      .selectFrom('topic_lists')
      .select('topics')
      .where('track', '=', track.id)
      .where('phase', '=', phase.id)
      .where('qrels_version', '=', version)
      .executeTakeFirst()
    if (!row) throw new TopicListMissing(track.id, phase.id, version)
    return decodeTopics(row.topics)
  }

  /** Forget every cached version of a track and phase (a new qrels version was added). */
  invalidate(trackId: string, phaseId: string): void {
    const prefix = `${trackId}\u0000${phaseId}\u0000`
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.entries.delete(k)
  }
}

/**
 * Write the topic list of a track and phase at its newest qrels version, unless the database
 * holds it already or the phase has none (run where the qrels are). Returns whether it wrote
 * one. Two processes publishing at once write the same row; the second insert is a no-op.
 */
export async function publishTopicList(
  db: Db,
  track: Track,
  phase: PhaseConfig,
  dataDir: string,
  now: Date = new Date(),
): Promise<boolean> {
  if (!hasTopicList(track, phase)) return false
  const q = await currentQrels(db, track, phase, dataDir)
  const have = await db
    .selectFrom('topic_lists')
    .select('count')
    .where('track', '=', track.id)
    .where('phase', '=', phase.id)
    .where('qrels_version', '=', q.version)
    .executeTakeFirst()
  if (have) return false
  const ids = [...(await readTopics(q.track, phase))]
  await db
    .insertInto('topic_lists')
    .values({
      track: track.id,
      phase: phase.id,
      qrels_version: q.version,
      topics: encodeTopics(ids),
      count: ids.length,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['track', 'phase', 'qrels_version']).doNothing())
    .execute()
  return true
}

/** {@link publishTopicList} for every track and phase of a competition; returns how many it wrote. */
export async function publishTopicLists(
  db: Db,
  competition: Competition,
  dataDir: string,
  now: Date = new Date(),
): Promise<number> {
  let written = 0
  for (const track of competition.tracks)
    for (const phase of competition.phases)
      if (await publishTopicList(db, track, phase, dataDir, now)) written++
  return written
}
