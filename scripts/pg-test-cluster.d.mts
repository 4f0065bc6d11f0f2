/** Types of pg-test-cluster.mjs for the TypeScript tests that start their own cluster. */

/** A running throwaway cluster. */
export interface Cluster {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust auth). */
  readonly url: string
  /** The cluster's temp folder (data, socket, log). */
  readonly dir: string
  /** Stop the server (immediate) and remove its folder. */
  stop(): void
  /** Fast shutdown (every session ended), `downMs` down, then a start on the same port. */
  restart(downMs?: number): Promise<void>
}

/** The folder of initdb/pg_ctl, or null when PostgreSQL is not installed. */
export function findPostgres(): string | null

/** Start a cluster (see the script's comment). */
export function startCluster(options?: { bin?: string | null; quiet?: boolean }): Promise<Cluster>
