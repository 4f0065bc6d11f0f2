/**
 * The multi-threaded reader must give exactly what the sequential one gives. The size threshold
 * is lowered through TRECSCORE_PARALLEL_MIN_BYTES so small fixtures take the parallel path, with
 * 2 and 5 threads (so boundaries fall inside queries).
 */

import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './helpers.js'

const FIX = join(ROOT, 'test', 'fixtures', 'trec_eval')
const CASES = [
  'msmarco_like',
  'trec_dl_like',
  'medium_random',
  'qid_ordering',
  'ties_rounded',
  'unicode_ids',
].filter((c) => existsSync(join(FIX, c)))

function evaluateJson(dir: string, env: Record<string, string>): string {
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'trecscore.js'),
      'evaluate',
      join(dir, 'qrels.txt'),
      join(dir, 'run.txt'),
      '-m',
      'nDCG@10',
      '-m',
      'AP',
      '-m',
      'RR',
      '-m',
      'NumRet',
      '-q',
      '-f',
      'json',
      '--duplicates',
      'keep-first',
      '--missing-queries',
      'zero',
    ],
    { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } },
  )
  expect(r.stderr).toBe('')
  return r.stdout
}

describe('parallel reading equals sequential reading', () => {
  for (const c of CASES) {
    it(c, () => {
      const dir = join(FIX, c)
      const seq = evaluateJson(dir, { TRECSCORE_THREADS: '1' })
      for (const threads of ['2', '5']) {
        expect(
          evaluateJson(dir, { TRECSCORE_THREADS: threads, TRECSCORE_PARALLEL_MIN_BYTES: '0' }),
        ).toBe(seq)
      }
    })
  }
})

describe('trec-eval: parallel reading equals sequential reading', () => {
  for (const c of CASES) {
    it(c, () => {
      const dir = join(FIX, c)
      const run = (env: Record<string, string>) =>
        spawnSync(
          process.execPath,
          [
            join(ROOT, 'bin', 'trecscore.js'),
            'trec-eval',
            '-c',
            '-q',
            '-m',
            'all_trec',
            '-m',
            'relstring', // per-query texts travel between threads too
            join(dir, 'qrels.txt'),
            join(dir, 'run.txt'),
          ],
          {
            encoding: 'latin1',
            maxBuffer: 1 << 28,
            env: { ...process.env, ...env },
          },
        )
      const seq = run({ TRECSCORE_THREADS: '1' })
      for (const threads of ['2', '5']) {
        const par = run({ TRECSCORE_THREADS: threads, TRECSCORE_PARALLEL_MIN_BYTES: '0' })
        expect([par.status, par.stderr, par.stdout]).toEqual([seq.status, seq.stderr, seq.stdout])
      }
    })
  }
})
