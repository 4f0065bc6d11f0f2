import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

/** Repository root. */
export const ROOT = join(import.meta.dirname, '..', '..')

/** Run the built CLI (`npm run build` first; `npm test` does) and capture everything. */
export function cli(
  args: readonly string[],
  opts: { input?: string | Buffer; cwd?: string } = {},
): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'trecscore.js'), ...args], {
    cwd: opts.cwd ?? ROOT,
    input: opts.input ?? '',
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr }
}
