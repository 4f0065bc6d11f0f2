/**
 * The durable judgment cache: SQLite (better-sqlite3, WAL, `synchronous=FULL`), one row per
 * finished judgment keyed by sha256 (hex) of the exact request body sent. Each judgment is
 * committed as soon as it is finished, so a run killed with SIGKILL loses none of them and a
 * rerun sends only the requests that never finished. Finished means `ok` or `invalid` (the
 * judge answered); `missing` (transport failure, non-retryable HTTP error) is not cached and is
 * asked again next time.
 *
 * The cache belongs to one judge config: its `meta` table holds the config hash, and opening it
 * with another config is refused (no mixing of judgments made under different configs). Several
 * processes may create and open one cache at the same moment: the schema and the hash are set in
 * one IMMEDIATE transaction.
 *
 * **Claims** let several processes share a cache without asking anything twice. Before asking a
 * request, a run {@link JudgeCache.claim}s its key in the `claims` table (owner id, host, pid,
 * expiry), in one IMMEDIATE transaction that also checks that no judgment is cached for it.
 * Another process then sees the key `taken` and waits for the judgment instead of asking. The
 * claim ends with the judgment (same transaction as the write) or when the request ends
 * `missing` ({@link JudgeCache.release}). A claim is stale, and is taken over, when it expired
 * (the owner renews its claims while it runs, {@link JudgeCache.renewClaims}) or when its owner
 * ran on this host and its pid no longer exists (a killed run).
 */
import { createHash, randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type Database from 'better-sqlite3'
import { requireOptional } from '../../io/optional-package.js'
import { pidAlive } from '../../io/process.js'
import { JudgeInputError } from './errors.js'

/** sha256 hex of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** One cached judgment. */
export interface CachedJudgment {
  readonly key: string
  readonly dimension: string
  readonly turnId: string
  readonly status: 'ok' | 'invalid'
  readonly score: number | null
  readonly rationale: string | null
  readonly reason: string | null
  readonly attempts: number
  readonly promptTokens: number
  readonly completionTokens: number
  readonly content: string | null
  readonly systemFingerprint: string | null
  readonly model: string | null
  readonly request: string
  readonly createdAt: string
}

/** A judgment as the cache tables store it (the SQLite file's `judgments`, Postgres's `judge_judgments`). */
export interface JudgmentRow {
  key: string
  dimension: string
  turn_id: string
  status: 'ok' | 'invalid'
  score: number | null
  rationale: string | null
  reason: string | null
  attempts: number
  prompt_tokens: number
  completion_tokens: number
  content: string | null
  system_fingerprint: string | null
  model: string | null
  request: string
  created_at: string
}

/** The stored row of a judgment (token counts may come back as bigint-parsed numbers). */
export function rowOfJudgment(j: CachedJudgment): JudgmentRow {
  return {
    key: j.key,
    dimension: j.dimension,
    turn_id: j.turnId,
    status: j.status,
    score: j.score,
    rationale: j.rationale,
    reason: j.reason,
    attempts: j.attempts,
    prompt_tokens: j.promptTokens,
    completion_tokens: j.completionTokens,
    content: j.content,
    system_fingerprint: j.systemFingerprint,
    model: j.model,
    request: j.request,
    created_at: j.createdAt,
  }
}

/** The judgment of a stored row. */
export function judgmentOfRow(r: JudgmentRow): CachedJudgment {
  return {
    key: r.key,
    dimension: r.dimension,
    turnId: r.turn_id,
    status: r.status,
    score: r.score,
    rationale: r.rationale,
    reason: r.reason,
    attempts: r.attempts,
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
    content: r.content,
    systemFingerprint: r.system_fingerprint,
    model: r.model,
    request: r.request,
    createdAt: r.created_at,
  }
}

/** What {@link JudgeCache.claim} found: the judgment is cached, the key is now ours, or another live process holds it. */
export type ClaimResult = 'done' | 'mine' | 'taken'

interface ClaimRow {
  owner: string
  host: string
  pid: number
  expires_at: number
}

/** An open judgment cache. */
export class JudgeCache {
  private readonly db: Database.Database
  private readonly getStmt: Database.Statement
  private readonly putStmt: Database.Statement
  readonly file: string
  readonly configHash: string
  /** This open cache's claim owner id: host, pid and a random part. */
  readonly owner: string
  private readonly host = hostname()

  private constructor(file: string, db: Database.Database, configHash: string) {
    this.file = file
    this.db = db
    this.configHash = configHash
    this.owner = `${this.host}:${process.pid}:${randomUUID()}`
    this.getStmt = db.prepare('SELECT * FROM judgments WHERE key = ?')
    this.putStmt = db.prepare(
      'INSERT OR REPLACE INTO judgments (key, dimension, turn_id, status, score, rationale, reason, attempts, prompt_tokens, completion_tokens, content, system_fingerprint, model, request, created_at) VALUES (@key, @dimension, @turn_id, @status, @score, @rationale, @reason, @attempts, @prompt_tokens, @completion_tokens, @content, @system_fingerprint, @model, @request, @created_at)',
    )
  }

  /** Open (or create) the cache at `file` for the config with hash `configHash`. */
  static open(file: string, configHash: string): JudgeCache {
    // better-sqlite3 is an optional package, loaded on first use: the native module costs ~70 ms
    // of start-up, which every other command should not pay; missing, it says what to install.
    const Sqlite = requireOptional<typeof Database>('better-sqlite3')
    // SQLite answers "database is locked" at once, without waiting out the busy timeout, where
    // waiting could deadlock: switching a fresh file to WAL while another process does the same.
    // Such an open is retried, after a short pause, for up to 10 s.
    const deadline = Date.now() + 10_000
    const pause = new Int32Array(new SharedArrayBuffer(4))
    let db: Database.Database
    let stored: string
    for (let attempt = 0; ; attempt++) {
      let d: Database.Database | null = null
      try {
        d = new Sqlite(file)
        stored = JudgeCache.init(d, configHash)
        db = d
        break
      } catch (e) {
        d?.close()
        const code = (e as { code?: unknown }).code
        if ((code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') && Date.now() < deadline) {
          Atomics.wait(pause, 0, 0, 5 + Math.min(attempt, 10) * 5)
          continue
        }
        throw new JudgeInputError([
          { code: 'cache_unopenable', file, reason: (e as Error).message },
        ])
      }
    }
    if (stored !== configHash) {
      db.close()
      throw new JudgeInputError([
        { code: 'cache_other_config', file, found: stored, expected: configHash },
      ])
    }
    return new JudgeCache(file, db, configHash)
  }

  /** Settings, schema and config hash of a freshly opened connection; returns the stored hash. */
  private static init(d: Database.Database, configHash: string): string {
    // The busy timeout first: processes creating one cache at once wait for each other's locks.
    d.pragma('busy_timeout = 10000')
    d.pragma('journal_mode = WAL')
    d.pragma('synchronous = FULL')
    // Schema and config hash in one IMMEDIATE transaction: of several processes creating the
    // cache at once, the first writes the hash and the others read it (no UNIQUE race).
    return d
      .transaction(() => {
        d.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
          CREATE TABLE IF NOT EXISTS judgments (key TEXT PRIMARY KEY, dimension TEXT NOT NULL, turn_id TEXT NOT NULL,
            status TEXT NOT NULL, score INTEGER, rationale TEXT, reason TEXT, attempts INTEGER NOT NULL,
            prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, content TEXT,
            system_fingerprint TEXT, model TEXT, request TEXT NOT NULL, created_at TEXT NOT NULL);
          CREATE TABLE IF NOT EXISTS batch_requests (key TEXT PRIMARY KEY, batch_id TEXT NOT NULL, dimension TEXT NOT NULL,
            turn_id TEXT NOT NULL, request TEXT NOT NULL);
          CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, host TEXT NOT NULL,
            pid INTEGER NOT NULL, expires_at INTEGER NOT NULL);`)
        d.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('config_hash', ?)").run(
          configHash,
        )
        return (
          d.prepare("SELECT value FROM meta WHERE key = 'config_hash'").get() as { value: string }
        ).value
      })
      .immediate()
  }

  /**
   * Claim the request `key` for `leaseMs` (one IMMEDIATE transaction): `done` when its judgment
   * is cached; `mine` when it was free, already ours, or held by a stale claim (expired, or of a
   * dead process on this host), now taken over; `taken` when another live owner holds it.
   */
  claim(key: string, leaseMs: number, now: number = Date.now()): ClaimResult {
    return this.db
      .transaction((): ClaimResult => {
        if (this.getStmt.get(key)) return 'done'
        const row = this.db
          .prepare('SELECT owner, host, pid, expires_at FROM claims WHERE key = ?')
          .get(key) as ClaimRow | undefined
        if (row && row.owner !== this.owner) {
          const stale =
            row.expires_at < now ||
            (row.host === this.host && row.pid !== process.pid && !pidAlive(row.pid))
          if (!stale) return 'taken'
        }
        this.db
          .prepare(
            'INSERT OR REPLACE INTO claims (key, owner, host, pid, expires_at) VALUES (?, ?, ?, ?, ?)',
          )
          .run(key, this.owner, this.host, process.pid, now + leaseMs)
        return 'mine'
      })
      .immediate()
  }

  /** Give up our claim on `key` (the request ended without a judgment to cache). */
  release(key: string): void {
    this.db.prepare('DELETE FROM claims WHERE key = ? AND owner = ?').run(key, this.owner)
  }

  /** Extend every claim of ours to `now + leaseMs` (called periodically while a run works). */
  renewClaims(leaseMs: number, now: number = Date.now()): void {
    this.db
      .prepare('UPDATE claims SET expires_at = ? WHERE owner = ?')
      .run(now + leaseMs, this.owner)
  }

  /** Give up every claim of ours. */
  releaseClaims(): void {
    this.db.prepare('DELETE FROM claims WHERE owner = ?').run(this.owner)
  }

  /** The finished judgment for a request key, if any. */
  get(key: string): CachedJudgment | null {
    const r = this.getStmt.get(key) as JudgmentRow | undefined
    return r ? judgmentOfRow(r) : null
  }

  /** Commit one finished judgment now (its own transaction), ending our claim on its key. */
  put(j: CachedJudgment): void {
    this.db.transaction(() => this.putRow(j))()
  }

  private putRow(j: CachedJudgment): void {
    this.db.prepare('DELETE FROM claims WHERE key = ? AND owner = ?').run(j.key, this.owner)
    this.putStmt.run(rowOfJudgment(j))
  }

  /** A remembered fact about the server (e.g. that it rejected structured output). */
  getMeta(key: string): string | null {
    const r = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
      | { value: string }
      | undefined
    return r?.value ?? null
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value)
  }

  /** Meta keys starting with `prefix`, with their values. */
  metaWithPrefix(prefix: string): [string, string][] {
    return (
      this.db
        .prepare('SELECT key, value FROM meta WHERE key >= ? AND key < ? ORDER BY key')
        .all(prefix, `${prefix}\uffff`) as { key: string; value: string }[]
    ).map((r) => [r.key, r.value])
  }

  /** Remember a request sent in a Batch API job (to cache its answer when collected). */
  putBatchRequest(
    batchId: string,
    key: string,
    dimension: string,
    turnId: string,
    request: string,
  ): void {
    this.db
      .prepare(
        'INSERT OR REPLACE INTO batch_requests (key, batch_id, dimension, turn_id, request) VALUES (?, ?, ?, ?, ?)',
      )
      .run(key, batchId, dimension, turnId, request)
  }

  /** A request of a Batch API job, by key. */
  getBatchRequest(
    key: string,
  ): { batchId: string; dimension: string; turnId: string; request: string } | null {
    const r = this.db
      .prepare('SELECT batch_id, dimension, turn_id, request FROM batch_requests WHERE key = ?')
      .get(key) as
      | { batch_id: string; dimension: string; turn_id: string; request: string }
      | undefined
    return r
      ? { batchId: r.batch_id, dimension: r.dimension, turnId: r.turn_id, request: r.request }
      : null
  }

  /** Several writes in one transaction. */
  transaction(f: () => void): void {
    this.db.transaction(f)()
  }

  /** Number of cached judgments. */
  size(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM judgments').get() as { n: number }).n
  }

  /** Close the cache, giving up every claim of ours first. */
  close(): void {
    if (this.db.open) this.releaseClaims()
    this.db.close()
  }
}
