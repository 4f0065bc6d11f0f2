/**
 * What the scoring fault tests share: submit a run for a team (created on first use) straight
 * through `submitRun`, and wait for a condition with a deadline.
 */
import { createReadStream } from 'node:fs'
import { expect } from 'vitest'
import type { RunningServer } from '../../src/server/app.js'
import { createTeam } from '../../src/server/auth/accounts.js'
import { submitRun } from '../../src/server/submissions.js'

/** Submit `file` to track dl, phase dev, as `team`; returns the submission id. */
export async function submitAs(server: RunningServer, team: string, file: string): Promise<string> {
  const teamId =
    (
      await server.ctx.db
        .selectFrom('teams')
        .select('id')
        .where('name', '=', team)
        .executeTakeFirst()
    )?.id ?? (await createTeam(server.ctx.db, team, new Date()))
  const out = await submitRun(server.ctx, {
    teamId,
    userId: null,
    track: 'dl',
    phase: 'dev',
    name: 'bm25.run',
    metadata: { kind: 'automatic' },
    body: createReadStream(file),
  })
  expect(out.kind).toBe('accepted')
  return (out as { id: string }).id
}

/** Poll `probe` until it returns a value; throws naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await probe()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
