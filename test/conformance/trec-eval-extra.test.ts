/**
 * Extra trec_eval expectations (test/fixtures/trec_eval-extra, recorded by
 * scripts/make-extra-fixtures.mjs with trec_eval 10.0 and 9.0.8 built from source): flag
 * combinations the shared fixtures do not cover, including NaN results and parameterised
 * measures on queries missing from the run.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runDropIn } from './run-cases.js'

const EXTRA = join(import.meta.dirname, '..', 'fixtures', 'trec_eval-extra')
const INPUTS = join(import.meta.dirname, '..', 'fixtures', 'trec_eval')
const manifest = JSON.parse(readFileSync(join(EXTRA, 'manifest.json'), 'utf8')) as {
  commands: Record<string, string[]>
  cases: Record<string, Record<string, number>>
}

describe('extra trec_eval expectations', () => {
  for (const [c, results] of Object.entries(manifest.cases)) {
    for (const [key, exit] of Object.entries(results)) {
      const [label, id] = key.split('/') as [string, string]
      it(`${c} ${label} ${id}`, async () => {
        const args = [
          ...manifest.commands[id]!,
          ...(label === 'v9.0.8' ? ['--compat', '9.0.8'] : []),
          'qrels.txt',
          'run.txt',
        ]
        const out = await runDropIn(args, join(INPUTS, c), 2)
        expect(out.code).toBe(exit)
        expect(out.stdout).toBe(readFileSync(join(EXTRA, c, label, `${id}.stdout`), 'latin1'))
      })
    }
  }
})
