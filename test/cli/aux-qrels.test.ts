/**
 * `evaluate --aux-qrels`: auxiliary judgments (understandability values) for uRBP, alpha_uRBP and
 * uBpref, read by the qrels reader, the same on the sequential and the multi-threaded path; a
 * measure that needs them without the flag is a usage error (exit 2, one line).
 *
 * Hand computation (as src/measures/trectools.test.ts): qrels A 2, B 0, C 1, D 0; values A 80,
 * B 40, C 50; run A 3, B 2, C 2, X 1, D 0.5. uRBP(p=0.5,factor=0.01) = .5·.8 + .1875·.5 = .49375
 * (B and C tie: weight (.25 + .125)/2); uBpref(factor=0.01) = .8/2 + .5/2 = .65.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-aux-'))
const file = (name: string, content: string): string => {
  const p = join(tmp, name)
  writeFileSync(p, content)
  return p
}
const QRELS = file('qrels', '1 0 A 2\n1 0 B 0\n1 0 C 1\n1 0 D 0\n')
const AUX = file('aux', '1 0 A 80\n1 0 B 40\n1 0 C 50\n')
const RUN = file('run', '1 Q0 A 1 3 t\n1 Q0 B 2 2 t\n1 Q0 C 3 2 t\n1 Q0 X 4 1 t\n1 Q0 D 5 0.5 t\n')
const MEASURES = ['-m', 'uRBP(factor=0.01,p=0.5)', '-m', 'uBpref(factor=0.01)']

function evaluate(args: readonly string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'trecscore.js'), 'evaluate', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('evaluate --aux-qrels', () => {
  it('hand-computed uRBP and uBpref, sequential and multi-threaded alike', () => {
    const args = [QRELS, RUN, ...MEASURES, '--ordering', 'score-docid-asc', '--aux-qrels', AUX]
    const seq = evaluate([...args, '-f', 'json'])
    expect([seq.code, seq.stderr]).toEqual([0, ''])
    const aggregates = JSON.parse(seq.stdout).runs[0].aggregates
    expect(aggregates['uRBP(factor=0.01,p=0.5)'].value).toBeCloseTo(0.49375, 15)
    expect(aggregates['uBpref(factor=0.01)'].value).toBeCloseTo(0.65, 15)
    const par = evaluate([...args, '-f', 'json'], {
      TRECSCORE_PARALLEL_MIN_BYTES: '1',
      TRECSCORE_THREADS: '2',
    })
    expect(par.stdout).toBe(seq.stdout)
    expect(evaluate([...args, '--explain']).stdout).toContain(
      `auxiliary judgments (--aux-qrels): ${AUX}`,
    )
  })
  it('without the flag: exit 2, one line', () => {
    const r = evaluate([QRELS, RUN, ...MEASURES])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'trecscore: uRBP(factor=0.01,p=0.5), uBpref(factor=0.01) need auxiliary judgments (--aux-qrels FILE: topic 0 docno value, e.g. understandability)\n',
    )
  })
})
