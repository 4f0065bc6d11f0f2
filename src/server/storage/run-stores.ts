/**
 * Both run stores of a process (see run-store.ts): the one `--runs` names takes new uploads;
 * each submission is read from the store its `file` value names.
 */
import type { Db } from '../db/database.js'
import { DatabaseRunStore } from './database-store.js'
import { DirectoryRunStore } from './directory-store.js'
import {
  type OpenedRun,
  type RunStore,
  type RunStoreKind,
  type StoredRun,
  storeKindOf,
} from './run-store.js'

/** Both stores of a process: `write` takes new uploads; reads go to the store of each row. */
export class RunStores {
  readonly directory: DirectoryRunStore
  readonly database: DatabaseRunStore
  readonly write: RunStore

  constructor(db: Db, dataDir: string, kind: RunStoreKind = 'directory') {
    this.directory = new DirectoryRunStore(dataDir)
    this.database = new DatabaseRunStore(db)
    this.write = this.of(kind)
  }

  /** The store of a kind. */
  of(kind: RunStoreKind): RunStore {
    return kind === 'database' ? this.database : this.directory
  }

  /** The store that holds the run of a submission row. */
  holding(run: Pick<StoredRun, 'file'>): RunStore {
    return this.of(storeKindOf(run.file))
  }

  /** Open a submission's run from the store that holds it (see {@link RunStore.open}). */
  open(run: StoredRun, scratchDir: string): Promise<OpenedRun> {
    return this.holding(run).open(run, scratchDir)
  }
}
