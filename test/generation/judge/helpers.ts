import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Repository root. */
export const ROOT = join(import.meta.dirname, '..', '..', '..')
export const SHIPPED_CONFIG = join(ROOT, 'data', 'judge', 'reteco-judge-v1.json')

/** The shipped config as JSON, with overrides merged at the top level. */
export function configJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...(JSON.parse(readFileSync(SHIPPED_CONFIG, 'utf8')) as Record<string, unknown>),
    ...overrides,
  }
}

/** Tiny, jitter-free retries for tests (no real waiting: tests inject sleep where it matters). */
export const TEST_RETRY = {
  malformed_reasks: 2,
  transport_retries: 3,
  backoff_base_ms: 1,
  backoff_cap_ms: 4,
  jitter: 'none',
  honour_retry_after: true,
  request_timeout_ms: 10000,
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'trecscore-judge-'))
}

/** Write a test config (shipped prompts, test retries) and return its path. */
export function writeTestConfig(dir: string, overrides: Record<string, unknown> = {}): string {
  const p = join(dir, 'judge-config.json')
  writeFileSync(
    p,
    JSON.stringify(
      configJson({ retry: TEST_RETRY, requests_per_minute: 0, concurrency: 2, ...overrides }),
      null,
      2,
    ),
  )
  return p
}

/** A sleep that records what was asked and returns at once. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = []
  return { waits, sleep: async (ms: number) => void waits.push(ms) }
}

const ENTRY = join(import.meta.dirname, 'cli-entry.ts')

/** How a CLI run ended. */
export interface Done {
  code: number | null
  signal: string | null
  stdout: string
  stderr: string
}

/** Spawn the CLI; `onStart` gets the child (to kill it). */
export function cli(
  args: readonly string[],
  env: Record<string, string> = {},
  onStart?: (kill: () => void) => void,
): Promise<Done> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        OPENAI_API_KEY: '',
        TRECSCORE_JUDGE_API_KEY: '',
        OPENAI_BASE_URL: '',
        TRECSCORE_JUDGE_BASE_URL: '',
        ...env,
      },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    onStart?.(() => child.kill('SIGKILL'))
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}
