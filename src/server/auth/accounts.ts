/**
 * Accounts: organizers (created on the server machine), teams, single-use invite links, team
 * members, API tokens (scoped to one team, stored hashed, shown once, revocable) and browser
 * sessions (a random cookie, stored hashed, with its CSRF token).
 */
import { randomBytes } from 'node:crypto'
import { TrecscoreError } from '../../internal.js'
import type { Viewer } from '../context.js'
import type { Db } from '../db/database.js'
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js'
import { hashSecret, newId, newSecret } from './tokens.js'

/** A refused account action, worded for the person (exit code 2 on the command line). */
export class AccountError extends TrecscoreError {
  constructor(message: string) {
    super(message, 2)
  }
}

const SESSION_HOURS = 12

export function nameProblem(name: string): string | null {
  if (name.trim().length === 0) return 'a name may not be empty'
  if (name.length > 100) return 'a name has at most 100 characters'
  // Postgres text cannot hold U+0000; refused on both backends alike.
  if (name.includes('\u0000')) return 'a name may not contain a NUL character'
  return null
}

/** Create an organizer account (the `trecscore serve admin create-organizer` command). */
export async function createOrganizer(
  db: Db,
  name: string,
  password: string,
  now: Date,
): Promise<string> {
  const problem = nameProblem(name) ?? passwordProblem(password)
  if (problem) throw new AccountError(problem)
  if (await db.selectFrom('users').select('id').where('name', '=', name).executeTakeFirst())
    throw new AccountError(`a user named '${name}' exists already`)
  const id = newId()
  await db
    .insertInto('users')
    .values({
      id,
      name,
      role: 'organizer',
      team_id: null,
      password_hash: await hashPassword(password),
      created_at: now.toISOString(),
    })
    .execute()
  return id
}

/** Create a team; returns its id. */
export async function createTeam(
  db: Db,
  name: string,
  now: Date,
  baseline = false,
): Promise<string> {
  const problem = nameProblem(name)
  if (problem) throw new AccountError(problem)
  if (await db.selectFrom('teams').select('id').where('name', '=', name).executeTakeFirst())
    throw new AccountError(`a team named '${name}' exists already`)
  const id = newId()
  await db
    .insertInto('teams')
    .values({ id, name, is_baseline: baseline ? 1 : 0, created_at: now.toISOString() })
    .execute()
  return id
}

/** A new single-use invite for a team; returns the secret token for the link (shown once). */
export async function createInvite(
  db: Db,
  teamId: string,
  organizerId: string,
  now: Date,
): Promise<string> {
  const token = newSecret('inv')
  await db
    .insertInto('invites')
    .values({
      id: newId(),
      team_id: teamId,
      token_hash: hashSecret(token),
      created_by: organizerId,
      created_at: now.toISOString(),
      used_at: null,
    })
    .execute()
  return token
}

/** The team an unused invite is for, or null. */
export async function inviteTeam(
  db: Db,
  token: string,
): Promise<{ id: string; name: string } | null> {
  const row = await db
    .selectFrom('invites')
    .innerJoin('teams', 'teams.id', 'invites.team_id')
    .select(['teams.id', 'teams.name'])
    .where('invites.token_hash', '=', hashSecret(token))
    .where('invites.used_at', 'is', null)
    .executeTakeFirst()
  return row ?? null
}

/** Use an invite: create the member account and spend the invite; returns the user id. */
export async function acceptInvite(
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
      .selectFrom('invites')
      .select(['id', 'team_id'])
      .where('token_hash', '=', hashSecret(token))
      .where('used_at', 'is', null)
      .executeTakeFirst()
    if (!inv) throw new AccountError('this invite link is not valid or was used already')
    if (await trx.selectFrom('users').select('id').where('name', '=', name).executeTakeFirst())
      throw new AccountError(`a user named '${name}' exists already`)
    const spent = await trx
      .updateTable('invites')
      .set({ used_at: now.toISOString() })
      .where('id', '=', inv.id)
      .where('used_at', 'is', null)
      .executeTakeFirst()
    if (Number(spent.numUpdatedRows) !== 1)
      throw new AccountError('this invite link is not valid or was used already')
    const id = newId()
    await trx
      .insertInto('users')
      .values({
        id,
        name,
        role: 'member',
        team_id: inv.team_id,
        password_hash: hash,
        created_at: now.toISOString(),
      })
      .execute()
    return id
  })
}

/** The user id for a name and password, or null (same answer for an unknown name and a wrong password). */
export async function checkLogin(db: Db, name: string, password: string): Promise<string | null> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'password_hash'])
    .where('name', '=', name)
    .executeTakeFirst()
  const ok = await verifyPassword(
    password,
    user?.password_hash ??
      'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  )
  return user && ok ? user.id : null
}

/** A new session for a user: the cookie value and its CSRF token. */
export async function createSession(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ cookie: string; csrf: string }> {
  const cookie = newSecret('ses')
  const csrf = randomBytes(24).toString('base64url')
  await db
    .insertInto('sessions')
    .values({
      id_hash: hashSecret(cookie),
      user_id: userId,
      csrf,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_HOURS * 3600_000).toISOString(),
    })
    .execute()
  return { cookie, csrf }
}

/** End a session. */
export async function deleteSession(db: Db, cookie: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', hashSecret(cookie)).execute()
}

/** The viewer a session cookie stands for (anonymous when unknown or expired). */
export async function viewerOfSession(db: Db, cookie: string, now: Date): Promise<Viewer> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'users.id',
      'users.name',
      'users.role',
      'users.team_id',
      'sessions.csrf',
      'sessions.expires_at',
    ])
    .where('sessions.id_hash', '=', hashSecret(cookie))
    .executeTakeFirst()
  if (!row || row.expires_at <= now.toISOString()) return { kind: 'anonymous' }
  if (row.role === 'organizer')
    return { kind: 'organizer', userId: row.id, name: row.name, csrf: row.csrf }
  // A rater is a member without a team and with a raters row (raters/accounts.ts).
  if (row.team_id === null) {
    const rater = await db
      .selectFrom('raters')
      .select('user_id')
      .where('user_id', '=', row.id)
      .executeTakeFirst()
    return rater
      ? { kind: 'rater', userId: row.id, name: row.name, csrf: row.csrf }
      : { kind: 'anonymous' }
  }
  return {
    kind: 'member',
    userId: row.id,
    name: row.name,
    teamId: row.team_id!,
    csrf: row.csrf,
    via: 'session',
  }
}

/** A new API token for a member's team; the token is returned once and stored hashed. */
export async function createApiToken(
  db: Db,
  userId: string,
  teamId: string,
  label: string,
  now: Date,
): Promise<{ id: string; token: string }> {
  const problem = nameProblem(label)
  if (problem) throw new AccountError(problem.replace('name', 'token label'))
  const token = newSecret('tsk')
  const id = newId()
  await db
    .insertInto('api_tokens')
    .values({
      id,
      team_id: teamId,
      user_id: userId,
      label,
      token_hash: hashSecret(token),
      created_at: now.toISOString(),
      revoked_at: null,
    })
    .execute()
  return { id, token }
}

/** Revoke a token of this team; false when the team has no such token. */
export async function revokeApiToken(
  db: Db,
  teamId: string,
  tokenId: string,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', tokenId)
    .where('team_id', '=', teamId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** The viewer an API token stands for (anonymous when unknown or revoked). */
export async function viewerOfToken(db: Db, token: string): Promise<Viewer & { tokenId?: string }> {
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(['api_tokens.id as tokenId', 'api_tokens.team_id', 'users.id', 'users.name'])
    .where('api_tokens.token_hash', '=', hashSecret(token))
    .where('api_tokens.revoked_at', 'is', null)
    .executeTakeFirst()
  if (!row) return { kind: 'anonymous' }
  return {
    kind: 'member',
    userId: row.id,
    name: row.name,
    teamId: row.team_id,
    csrf: null,
    via: 'token',
    tokenId: row.tokenId,
  }
}
