/**
 * Where submitted runs are kept: one interface, two backends, chosen by `serve --runs` and
 * `worker --runs` (the store new uploads go to; reading follows each submission's own
 * `file` value, so submissions of both stores can live side by side):
 *
 * - `directory` (the default): the `--data` folder, `runs/ID/NAME` (a file, or a directory of
 *   files for per-domain and judged runs). A folder shared by every machine (NFS and the like)
 *   when web processes and workers run on several. `file` is `runs/ID/NAME`.
 * - `database`: the `run_chunks` table (see database-store.ts), so that web processes and
 *   workers on different machines share nothing but the database. `file` is `db:runs/ID/NAME`.
 *
 * A submission's stored folder is `runs/ID/` in both: the run `NAME`, and beside it what a
 * job writes for the organizers (a judged track's `judge-<hash12>/`).
 */

/** The stores `--runs` takes. */
export const RUN_STORES = ['directory', 'database'] as const

export type RunStoreKind = (typeof RUN_STORES)[number]

/** The `file` prefix of a run kept in the database store. */
export const DATABASE_PREFIX = 'db:'

/** What a store needs of a submission row to give its run back. */
export interface StoredRun {
  readonly id: string
  /** `submissions.file`: `runs/ID/NAME` or `db:runs/ID/NAME`. */
  readonly file: string
  /** `submissions.run_sha256`: of the file, or `directoryDigest` (upload.ts) of a directory's files. */
  readonly run_sha256: string
}

/** A stored run made readable for one job. */
export interface OpenedRun {
  /** A local path of the run (a file or a directory), to read only. */
  readonly path: string
  /**
   * Keep what the job wrote beside the run in its submission's folder (`judge-…/`), for the
   * organizers' later reads. The directory store wrote it in place already.
   */
  keepOutputs(): Promise<void>
  /** Done with it: the database store removes its local copy; the directory store nothing. */
  release(): Promise<void>
}

/** One file of a submission's stored folder. */
export interface StoredFile {
  /** Relative to the submission's folder, with `/` (`NAME`, `NAME/a.txt`, `judge-…/report.json`). */
  readonly path: string
}

/**
 * A store of runs. What every backend guarantees:
 *
 * - `put` keeps the file or directory at `localPath` (which it may move: the caller owns what
 *   is left there) as submission `id`'s run `name`, byte for byte, and returns the `file` value
 *   for the submission row. It is not atomic with that row: a caller whose row insert fails
 *   calls `remove`. A `put` that fails leaves nothing stored.
 * - `open` gives a local path with the run's bytes, valid until `release`. The database store
 *   writes it into `scratchDir` (the process's own tmp folder) and checks it against
 *   `run_sha256` first: a damaged or missing run is a {@link StoredRunDamaged}, never a path to
 *   wrong bytes. The directory store returns the stored path itself, unchecked.
 * - `remove` removes everything stored for `id` (missing: nothing to do).
 * - `files` and `read` list and stream one submission's stored files (backups); no call holds a
 *   whole file in memory.
 */
export interface RunStore {
  readonly kind: RunStoreKind
  put(id: string, name: string, localPath: string): Promise<string>
  open(run: StoredRun, scratchDir: string): Promise<OpenedRun>
  remove(id: string): Promise<void>
  files(id: string): Promise<StoredFile[]>
  read(id: string, path: string): AsyncIterable<Uint8Array>
}

/** A stored run that does not match its recorded sha256, or lost some of its chunks. */
export class StoredRunDamaged extends Error {
  override readonly name = 'StoredRunDamaged'
}

/** The store that holds a submission, by its `file` value. */
export function storeKindOf(file: string): RunStoreKind {
  return file.startsWith(DATABASE_PREFIX) ? 'database' : 'directory'
}

/** The run's path in its submission's folder layout (`runs/ID/NAME`), whichever store holds it. */
export function folderPath(file: string): string {
  return file.startsWith(DATABASE_PREFIX) ? file.slice(DATABASE_PREFIX.length) : file
}

/** The run's name (`NAME` of `runs/ID/NAME`). */
export function runName(file: string): string {
  return folderPath(file).split('/').slice(2).join('/')
}
