/** Which backend a Kysely instance runs on (for the few places where SQL differs; see migrations.ts). */
import { type Kysely, PostgresAdapter } from 'kysely'

/** The backend a database (or a transaction or migration on it) runs on. */
export function dialectOf<T>(db: Kysely<T>): 'sqlite' | 'postgres' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}
