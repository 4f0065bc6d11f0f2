/**
 * Shared helpers for the trec_eval conformance tests: read a case folder, run the drop-in in
 * process with the case folder as working directory (so messages name `qrels.txt`/`run.txt`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { trecEval } from '../../src/trec-eval/trec-eval.js'

export interface CaseCommand {
  id: string
  args: string[]
}

export interface ConformanceCase {
  name: string
  dir: string
  commands: CaseCommand[]
  results: Record<
    string,
    {
      outputs_dir: string
      commands: Record<string, { exit_code: number; stdout: string; stderr: string | null }>
    }
  >
}

export function listCases(root: string): ConformanceCase[] {
  if (!existsSync(root)) return []
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'case.json')))
    .map((d) => ({
      ...JSON.parse(readFileSync(join(root, d.name, 'case.json'), 'utf8')),
      dir: join(root, d.name),
    }))
}

export interface RunOutput {
  code: number
  stdout: string
  stderr: string
}

/** Run the drop-in in-process; file operands are resolved against `cwd`. */
export async function runDropIn(
  args: readonly string[],
  cwd: string,
  fileOperands: number,
): Promise<RunOutput> {
  let stdout = ''
  let stderr = ''
  const resolved = args.map((a, i) =>
    i >= args.length - fileOperands && a !== '-' ? join(cwd, a) : a,
  )
  const code = await trecEval(resolved, { out: (s) => (stdout += s), err: (s) => (stderr += s) })
  // Messages should name files as given.
  const unresolve = (s: string): string => s.split(cwd + '/').join('')
  return { code, stdout: unresolve(stdout), stderr: unresolve(stderr) }
}
