/**
 * Passwords hashed with scrypt (node:crypto): `scrypt$N$r$p$salt$hash`, salt and hash base64url.
 * Verification is constant-time; the parameters travel with the hash so they can be raised later.
 */
import { randomBytes, type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto'

const N = 16384
const R = 8
const P = 1
const KEY_BYTES = 32

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(
      password.normalize('NFC'),
      salt,
      KEY_BYTES,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (e, key) => (e ? reject(e) : resolve(key)),
    ),
  )
}

/** Hash a password for storage. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scrypt(password, salt, { N, r: R, p: P })
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`
}

/** Whether `password` matches a stored hash (false for a malformed hash). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
  const salt = Buffer.from(parts[4]!, 'base64url')
  const expected = Buffer.from(parts[5]!, 'base64url')
  if (
    !Number.isInteger(n) ||
    !Number.isInteger(r) ||
    !Number.isInteger(p) ||
    expected.length !== KEY_BYTES
  )
    return false
  const key = await scrypt(password, salt, { N: n, r, p })
  return timingSafeEqual(key, expected)
}

/** The rule every new password must meet; a message when it does not. */
export function passwordProblem(password: string): string | null {
  if (password.length < 10) return 'a password needs at least 10 characters'
  if (password.length > 200) return 'a password has at most 200 characters'
  return null
}
