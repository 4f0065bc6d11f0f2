/**
 * Writing output files (`--out`, `--report-json`, ...) with failures as one-line user errors:
 * a directory, a missing folder, a full disk or a read-only file system is an {@link OutputError}
 * (exit 2), never a stack trace.
 */
import { writeFile } from 'node:fs/promises'
import { TrecscoreError } from '../errors/trecscore-error.js'

/** An output that cannot be created or written. CLI exit code 2. */
export class OutputError extends TrecscoreError {
  readonly file: string
  readonly reason: string
  constructor(file: string, reason: string, cause?: unknown) {
    super(`${file}: cannot write: ${reason}`, 2, { cause })
    this.file = file
    this.reason = reason
  }
}

/** File-system error codes that are the user's to fix (wrong path, full disk): exit 2. */
const USER_CODES: Readonly<Record<string, string>> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is not a directory',
  EISDIR: 'is a directory, expected a file',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EFBIG: 'file too large',
  ENAMETOOLONG: 'file name too long',
  EEXIST: 'already exists',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  ENXIO: 'no such device or address',
}

/** Words a Node.js system error's code (`ENOSPC` -> "no space left on device"). */
export function describeWriteError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  if (code !== undefined && USER_CODES[code] !== undefined) return USER_CODES[code]
  return err instanceof Error ? err.message : String(err)
}

/** Write `data` to `file`, or throw an {@link OutputError} naming the file and the reason. */
export async function writeOutputFile(
  file: string,
  data: string | Uint8Array,
  encoding: 'utf8' | 'latin1' = 'utf8',
): Promise<void> {
  try {
    await writeFile(file, data, typeof data === 'string' ? encoding : undefined)
  } catch (e) {
    throw new OutputError(file, describeWriteError(e), e)
  }
}

/**
 * A Node.js system error (it has a string `code` and a `syscall`) as one line and an exit code:
 * 2 for file-system problems the user can fix, 1 for others (network, resources). `null` for
 * anything else (a bug, which should keep its stack trace).
 */
export function describeSystemError(err: unknown): { message: string; exitCode: number } | null {
  const e = err as NodeJS.ErrnoException | undefined
  if (!(err instanceof Error) || typeof e?.code !== 'string' || typeof e.syscall !== 'string')
    return null
  const where = typeof e.path === 'string' ? `${e.path}: ` : ''
  const known = e.code === 'ENOENT' ? 'no such file or directory' : USER_CODES[e.code]
  return known !== undefined
    ? { message: `${where}${e.syscall} failed: ${known}`, exitCode: 2 }
    : { message: `${where}${e.syscall} failed: ${e.message}`, exitCode: 1 }
}
