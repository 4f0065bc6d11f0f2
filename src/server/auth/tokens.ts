/**
 * Secrets handed to people (API tokens, invite links, session cookies): 32 random bytes,
 * base64url, with a prefix saying what they are. Only their sha256 is stored.
 */
import { createHash, randomBytes } from 'node:crypto'

/** A new secret, e.g. `tsk_…` for an API token. */
export function newSecret(prefix: 'tsk' | 'inv' | 'ses' | 'rat'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`
}

/** A new opaque record id (submissions, teams, users). */
export function newId(): string {
  return randomBytes(12).toString('base64url')
}

/** The stored form of a secret. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}
