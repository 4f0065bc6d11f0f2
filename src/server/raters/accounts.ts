/**
 * Rater accounts: the organizer makes a single-use rater invite link (as for teams); the rater
 * picks a name and a password. A rater is a user with role `member`, no team and a `raters`
 * row; `viewerOfSession` makes it a `rater` viewer, which sees only the rating pages.
 */
import { AccountError, nameProblem } from '../auth/accounts.js'
import { hashPassword, passwordProblem } from '../auth/passwords.js'
import { hashSecret, newId, newSecret } from '../auth/tokens.js'
import type { Db } from '../db/database.js'

/** A new rater invite; returns the secret token for the link (shown once). */
export async function createRaterInvite(db: Db, organizerId: string, now: Date): Promise<string> {
  const token = newSecret('rat')
  await db
    .insertInto('rater_invites')
    .values({
      id: newId(),
      token_hash: hashSecret(token),
      created_by: organizerId,
      created_at: now.toISOString(),
      used_at: null,
    })
    .execute()
  return token
}

/** Whether a rater invite is unused. */
export async function raterInviteValid(db: Db, token: string): Promise<boolean> {
  return (
    (await db
      .selectFrom('rater_invites')
      .select('id')
      .where('token_hash', '=', hashSecret(token))
      .where('used_at', 'is', null)
      .executeTakeFirst()) !== undefined
  )
}

/** Use a rater invite: create the rater and spend the invite; returns the user id. */
export async function acceptRaterInvite(
  db: Db,
  token: string,
  name: string,
  password: string,
  now: Date,
): Promise<string> {
  const problem = nameProblem(name) ?? passwordProblem(password)
  if (problem) throw new AccountError(problem)
  const hash = await hashPassword(password)
  return db.transaction().execute(async (trx) => {
    const inv = await trx
      .selectFrom('rater_invites')
      .select(['id', 'created_by'])
      .where('token_hash', '=', hashSecret(token))
      .where('used_at', 'is', null)
      .executeTakeFirst()
    if (!inv) throw new AccountError('this invite link is not valid or was used already')
    if (await trx.selectFrom('users').select('id').where('name', '=', name).executeTakeFirst())
      throw new AccountError(`a user named '${name}' exists already`)
    await trx
      .updateTable('rater_invites')
      .set({ used_at: now.toISOString() })
      .where('id', '=', inv.id)
      .execute()
    const id = newId()
    await trx
      .insertInto('users')
      .values({
        id,
        name,
        role: 'member',
        team_id: null,
        password_hash: hash,
        created_at: now.toISOString(),
      })
      .execute()
    await trx
      .insertInto('raters')
      .values({ user_id: id, created_by: inv.created_by, created_at: now.toISOString() })
      .execute()
    return id
  })
}

/** Every rater, in the order they joined (the order that breaks assignment ties). */
export async function listRaters(db: Db): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('raters')
    .innerJoin('users', 'users.id', 'raters.user_id')
    .select(['users.id', 'users.name'])
    .orderBy('raters.created_at')
    .orderBy('users.name')
    .execute()
}
