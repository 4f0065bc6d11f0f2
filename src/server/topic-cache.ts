/**
 * The topic ids the upload check knows for a track and phase (binary strings, as the qrels
 * reader keys them): the topics of the newest qrels version of a public phase of a qrels
 * track; none (format checks only) for hidden phases and RETECO tracks, whose upload check
 * reads the data folder itself. The team page hands the list to the browser's check and the
 * server's check uses it on every upload, so it is read once per (track, phase, qrels version)
 * and kept; adding a qrels version drops the entries of its track and phase.
 */
import { readQrels } from '../internal.js'
import type { Track } from './config/load.js'
import type { PhaseConfig } from './config/schema.js'
import type { Db } from './db/database.js'
import { currentQrels } from './qrels-versions.js'

export class TopicCache {
  private readonly entries = new Map<string, Promise<ReadonlySet<string>>>()
  /** Qrels files read so far (a test counts them). */
  reads = 0

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
  ) {}

  /** The topics of a track and phase now (see the module comment); undefined: no topic list. */
  async topics(track: Track, phase: PhaseConfig): Promise<ReadonlySet<string> | undefined> {
    if (track.kind === 'reteco' || phase.hidden) return undefined
    const q = await currentQrels(this.db, track, phase, this.dataDir)
    const key = `${track.id}\u0000${phase.id}\u0000${q.version}`
    let entry = this.entries.get(key)
    if (!entry) {
      const file = q.track.qrels?.[phase.id]
      if (file === undefined) return undefined
      this.reads++
      entry = readQrels(`${q.track.dataDir}/${file}`).then((r) => new Set(r.queries.keys()))
      // A failed read is not kept: the next call tries again.
      entry.catch(() => this.entries.delete(key))
      this.entries.set(key, entry)
    }
    return entry
  }

  /** Forget every cached version of a track and phase (a new qrels version was added). */
  invalidate(trackId: string, phaseId: string): void {
    const prefix = `${trackId}\u0000${phaseId}\u0000`
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.entries.delete(k)
  }
}
