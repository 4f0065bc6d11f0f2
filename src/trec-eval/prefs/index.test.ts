import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { trecEval } from '../trec-eval.js'

const dir = mkdtempSync(join(tmpdir(), 'trecscore-prefs-'))
function file(name: string, text: string): string {
  const p = join(dir, name)
  writeFileSync(p, text, 'latin1')
  return p
}

async function dropIn(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await trecEval(args, { out: (s) => (out += s), err: (s) => (err += s) })
  return { code, out, err: err.split(dir + '/').join('') }
}

const run = file('run', 'q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\n')

describe('trec-eval -R prefs | qrels_prefs | qrels_jg', () => {
  it('prints preference measures per query and summed or averaged', async () => {
    const r = await dropIn(
      '-q',
      '-R',
      'prefs',
      '-m',
      'prefs',
      file('p', 'q1 u s a 2\nq1 u s c 1\nq1 u s b 0\n'),
      run,
    )
    expect(r.code).toBe(0)
    expect(r.out).toBe(
      [
        'prefs_num_prefs_poss  \tq1\t3',
        'prefs_num_prefs_ful   \tq1\t2',
        'prefs_num_prefs_ful_ret\tq1\t2',
        'prefs_simp            \tq1\t0.6667',
        'prefs_pair            \tq1\t0.6667',
        'prefs_avgjg           \tq1\t0.6667',
        'runid                 \tall\tt',
        'num_q                 \tall\t1',
        'prefs_num_prefs_poss  \tall\t3',
        'prefs_num_prefs_ful   \tall\t2',
        'prefs_num_prefs_ful_ret\tall\t2',
        'prefs_simp            \tall\t0.6667',
        'prefs_pair            \tall\t0.6667',
        'prefs_avgjg           \tall\t0.6667',
        '',
      ].join('\n'),
    )
  })

  it('reports a malformed line with trec_eval message and exit 2', async () => {
    const r = await dropIn(
      '-R',
      'prefs',
      '-m',
      'all_prefs',
      file('bad', 'q1 u s a 2\n# c\nq1 u s b\n'),
      run,
    )
    expect(r.code).toBe(2)
    expect(r.err.split('\n')[0]).toBe('trec_eval.get_prefs: Malformed line 2')
    expect(r.err).toContain("trec_eval: Quit in file 'bad'\n")
    const q = await dropIn('-R', 'qrels_prefs', '-m', 'all_prefs', file('badq', 'q1 0 a\n'), run)
    expect([q.code, q.err.split('\n')[0]]).toEqual([
      2,
      'trec_eval.get_qrels_prefs: Malformed line 1',
    ])
    const j = await dropIn(
      '-R',
      'qrels_jg',
      '-m',
      'qrels_jg',
      file('badj', 'q1 g a 1\nq1 g a 0\n'),
      run,
    )
    expect([j.code, j.err.split('\n')[0]]).toEqual([2, 'trec_eval.get_qrels: duplicate docs a'])
  })

  it("fails a measure of another format with trec_eval's message and exit 4", async () => {
    const p = file('p2', 'q1 u s a 2\nq1 u s b 0\n')
    const r = await dropIn('-R', 'prefs', '-m', 'all_prefs', '-m', 'P', p, run)
    expect(r.code).toBe(4)
    expect(r.err).toBe(
      "trec_eval.form_res_qrels: rel_info format not qrels or results format not trec_results\ntrec_eval: Can't calculate measure 'P'\n",
    )
    const q = await dropIn('-m', 'qrels_jg', file('qrels', 'q1 0 a 1\n'), run)
    expect([q.code, q.err.split('\n')[1]]).toEqual([
      4,
      "trec_eval: Can't calculate measure 'map_avgjg'",
    ])
  })

  it('reports conflicting preferences instead of aborting', async () => {
    const r = await dropIn(
      '-R',
      'prefs',
      '-m',
      'all_prefs',
      file('cyc', 'q1 u s1 a 2\nq1 u s1 b 1\nq1 u s2 b 2\nq1 u s2 a 1\n'),
      run,
    )
    expect(r.code).toBe(4)
    expect(r.err).toContain('Pref inconsistency found')
    expect(r.err).toContain("trec_eval: Can't calculate measure 'prefs_num_prefs_poss'\n")
  })

  it('averages qrels measures over judgment groups', async () => {
    const r = await dropIn(
      '-R',
      'qrels_jg',
      '-m',
      'map_avgjg',
      file('jg', 'q1 g1 a 1\nq1 g2 c 1\n'),
      run,
    )
    expect(r.out).toBe('map_avgjg             \tall\t0.6667\n')
  })

  it('prints z-scores with a Z prefix, and refuses an unreadable z-score file', async () => {
    const q = file('qz', 'q1 0 a 1\nq1 0 c 1\n')
    const z = file('z', 'q1 map 0.5 0.5\nq1 num_ret 3 0\n')
    const r = await dropIn('-q', '-m', 'map', '-m', 'num_ret', '-Z', z, q, run)
    expect(r.out).toBe(
      [
        'Znum_ret               \tq1\t0.0000',
        'Zmap                   \tq1\t0.6667',
        'Znum_ret               \tall\t0.0000',
        'Zmap                   \tall\t0.6667',
        '',
      ].join('\n'),
    )
    const bad = await dropIn('-Z', join(dir, 'absent'), q, run)
    expect([bad.code, bad.err.split('\n')[0]]).toEqual([
      2,
      "trec_eval.get_zscores: Cannot read zscores file 'absent'",
    ])
  })
})
