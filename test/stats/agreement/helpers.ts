import { main } from '../../../src/cli/main.js'

/** Runs the CLI in this process (from source, no build needed) and captures its output. */
export async function runCli(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = []
  const err: string[] = []
  const write = (sink: string[]) =>
    ((chunk: string | Uint8Array): boolean => (
      sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')), true
    )) as typeof process.stdout.write
  const ow = process.stdout.write
  const ew = process.stderr.write
  process.stdout.write = write(out)
  process.stderr.write = write(err)
  const saved = process.exitCode
  process.exitCode = undefined
  try {
    const code = await main(args)
    return { code, stdout: out.join(''), stderr: err.join('') }
  } finally {
    process.stdout.write = ow
    process.stderr.write = ew
    process.exitCode = saved
  }
}
