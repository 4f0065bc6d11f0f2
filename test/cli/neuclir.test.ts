/**
 * `trecscore score|validate --preset neuclir23-…` and `presets show neuclir23-…` on the copied
 * fixtures (test/fixtures/presets/neuclir23): official stdout, and every error and warning path.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const D = 'test/fixtures/presets/neuclir23'
const TMP = mkdtempSync(join(tmpdir(), 'trecscore-neuclir-cli-'))
const expected = (name: string): { cli_stdout: string; aggregate: Record<string, number> } =>
  JSON.parse(readFileSync(`${D}/expected/${name}.json`, 'utf8'))
const tmp = (name: string, text: string): string => {
  const p = join(TMP, name)
  writeFileSync(p, text)
  return p
}
const ZHO = `${D}/qrels.final.gains.zho`
/** The zho qrels as raw 4-point judgments: gain 1 was grade 2 (somewhat valuable). */
const RAW4 = tmp('raw4.zho', readFileSync(ZHO, 'utf8').replace(/ 1$/gm, ' 2'))

describe('trecscore score --preset neuclir23-…', () => {
  it('prints exactly what ir_measures prints (CLIR and MLIR); the ignored and zero-filled topics are notes on stderr', () => {
    const r = cli(['score', '--preset', 'neuclir23-zho', '--qrels', ZHO, `${D}/runs/zho-ties.txt`])
    expect([r.code, r.stderr, r.stdout]).toEqual([0, '', expected('zho-ties').cli_stdout])
    const good = cli([
      'score',
      '--preset',
      'neuclir23-fas',
      '--qrels',
      `${D}/qrels.final.gains.fas`,
      `${D}/runs/fas-good.txt`,
    ])
    expect([good.code, good.stdout]).toEqual([0, expected('fas-good').cli_stdout])
    expect(good.stderr).toBe(
      `trecscore: note: ${D}/runs/fas-good.txt: 3 run topic(s) not in the qrels, ignored: 200, 231, 238\n`,
    )
    const m = cli([
      'score',
      '--preset',
      'neuclir23-mlir',
      '--qrels',
      `${D}/qrels.final.gains`,
      `${D}/runs/mlir-missing.txt`,
    ])
    expect([m.code, m.stdout]).toEqual([0, expected('mlir-missing').cli_stdout])
    expect(m.stderr).toBe(
      `trecscore: note: ${D}/runs/mlir-missing.txt: 4 qrels topic(s) absent from the run, scored 0: 226, 245, 273, 274\n`,
    )
  })
  it('--format json: full precision, both tie rules, topic lists', () => {
    const r = cli([
      'score',
      '--preset',
      'neuclir23-rus',
      '--qrels',
      `${D}/qrels.final.gains.rus`,
      `${D}/runs/rus-missing.txt`,
      '-f',
      'json',
    ])
    expect(r.code).toBe(0)
    const j = JSON.parse(r.stdout)
    expect(j.results.runs[0].aggregates['RBP(rel=1)'].value).toBeCloseTo(
      expected('rus-missing').aggregate['RBP(rel=1)']!,
      12,
    )
    expect(
      j.measure_conventions.map((g: { measures: string[]; tie_rule: string }) => [
        g.measures,
        g.tie_rule,
      ]),
    ).toEqual([
      [['nDCG@20', 'AP', 'R@100', 'R@1000'], 'pytrec_eval'],
      [['RBP(rel=1)'], 'cwl_eval'],
    ])
    expect(j.topics).toEqual([
      {
        run: `${D}/runs/rus-missing.txt`,
        averaged: 15,
        qrels_topics_missing_from_run: ['203', '226', '269'],
        run_topics_not_in_qrels: [],
      },
    ])
  })
  it('--format markdown ends with the conventions of each tie rule', () => {
    const r = cli([
      'score',
      '--preset',
      'neuclir23-zho',
      '--qrels',
      ZHO,
      `${D}/runs/zho-weak.txt`,
      '-f',
      'markdown',
    ])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/\| run \| nDCG@20 \| AP \| RBP\(rel=1\) \| R@100 \| R@1000 \|/)
    expect(r.stdout).toContain(
      'RBP(rel=1): tie rule cwl\\_eval; ordering score-file-order; scores float64',
    )
  })
  it('a qrels line of another language: exit 2, every line with file:line and text', () => {
    const q = tmp('mixed.zho', '204 zho a 1\n204 fas b 3\n205 zho c 0\n205 rus d 1\n')
    const r = cli(['score', '--preset', 'neuclir23-zho', '--qrels', q, `${D}/runs/zho-weak.txt`])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(
      `trecscore: ${q}:2: language "fas" in column 2, but preset 'neuclir23-zho' expects 'zho': "204 fas b 3"\n`,
    )
    expect(r.stderr).toContain(
      `${q}:4: language "rus" in column 2, but preset 'neuclir23-zho' expects 'zho': "205 rus d 1"\n`,
    )
    expect(r.stderr).not.toMatch(/\n\s+at /)
    // The merged qrels hold all three languages: fine for MLIR, an error for a CLIR preset.
    expect(
      cli([
        'score',
        '--preset',
        'neuclir23-rus',
        '--qrels',
        `${D}/qrels.final.gains`,
        `${D}/runs/rus-weak.txt`,
      ]).code,
    ).toBe(2)
  })
  it('grade 2 (unconverted 4-point qrels): exit 2 pointing to the remap; --force warns; --rel-map neuclir-4to3 converts (before the check)', () => {
    const r = cli(['score', '--preset', 'neuclir23-zho', '--qrels', RAW4, `${D}/runs/zho-weak.txt`])
    expect([r.code, r.stdout]).toEqual([2, ''])
    expect(r.stderr).toMatch(
      /judgment\(s\) of grade 2 \(first: line \d+: ".* 2"\): .*--rel-map neuclir-4to3 \(3:3,2:1,1:0,0:0\), or score as they are with --force\n$/,
    )
    const f = cli([
      'score',
      '--preset',
      'neuclir23-zho',
      '--qrels',
      RAW4,
      `${D}/runs/zho-weak.txt`,
      '--force',
    ])
    expect(f.code).toBe(0)
    expect(f.stderr).toMatch(/^trecscore: warning: .*grade 2.*\[--force: scored as they are\]\n$/)
    expect(f.stdout).not.toBe(expected('zho-weak').cli_stdout)
    // 3:3,2:1,1:0,0:0 turns the raw file back into the gains file (grade 1 stayed 1 only where it was 2).
    const byName = cli([
      'score',
      '--preset',
      'neuclir23-zho',
      '--qrels',
      RAW4,
      `${D}/runs/zho-weak.txt`,
      '--rel-map',
      'neuclir-4to3',
      '--write-qrels',
      join(TMP, 'back.zho'),
    ])
    expect([byName.code, byName.stderr, byName.stdout]).toEqual([
      0,
      '',
      expected('zho-weak').cli_stdout,
    ])
    expect(readFileSync(join(TMP, 'back.zho'), 'utf8')).toBe(readFileSync(ZHO, 'utf8'))
    const listed = cli([
      'score',
      '--preset',
      'neuclir23-zho',
      '--qrels',
      RAW4,
      `${D}/runs/zho-weak.txt`,
      '--rel-map',
      '3:3,2:1,1:0,0:0',
    ])
    expect(listed.stdout).toBe(expected('zho-weak').cli_stdout)
    const json = JSON.parse(
      cli([
        'score',
        '--preset',
        'neuclir23-zho',
        '--qrels',
        RAW4,
        `${D}/runs/zho-weak.txt`,
        '--rel-map',
        'neuclir-4to3',
        '-f',
        'json',
      ]).stdout,
    )
    // Every grade-2 line became 1 and every grade-1 line 0 (the fixture has no raw grade 1: 195 gains of 1 were grade 2).
    expect(json.rel_map).toEqual({
      map: { '0': 0, '1': 0, '2': 1, '3': 3 },
      judgments_changed: 195,
    })
    const bad = cli([
      'score',
      '--preset',
      'neuclir23-zho',
      '--qrels',
      ZHO,
      `${D}/runs/zho-weak.txt`,
      '--rel-map',
      '3:3;2:1',
    ])
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'trecscore: --rel-map: expected grade:value pairs separated by commas (e.g. 3:3,2:1,1:0,0:0) or a named map (neuclir-4to3), found "3:3;2:1"\n',
    ])
  })
  it("--candidates: documents outside a topic's list and wrong counts are warnings (scores still printed)", () => {
    const zhoWeak = readFileSync(`${D}/runs/zho-weak.txt`, 'utf8').split('\n')
    // Candidates: the run itself, minus topic 204's last line and with a stranger for topic 205.
    const cand = tmp(
      'cand.txt',
      zhoWeak.filter((l) => l !== '' && l !== zhoWeak[299]).join('\n') + '\n',
    )
    const ok = cli([
      'score',
      '--preset',
      'neuclir23-zho',
      '--qrels',
      ZHO,
      `${D}/runs/zho-weak.txt`,
      '--candidates',
      `${D}/runs/zho-weak.txt`,
    ])
    expect([ok.code, ok.stderr]).toEqual([0, ''])
    const r = cli([
      'score',
      '--preset',
      'neuclir23-zho',
      '--qrels',
      ZHO,
      `${D}/runs/zho-weak.txt`,
      '--candidates',
      cand,
    ])
    expect([r.code, r.stdout]).toEqual([0, expected('zho-weak').cli_stdout])
    const doc = zhoWeak[299]!.split(' ')[2]
    expect(r.stderr).toBe(
      `trecscore: warning: ${D}/runs/zho-weak.txt: topic 204: 1 document(s) outside its candidate list in ${cand}: ${doc} (line 300)\n` +
        `trecscore: warning: ${D}/runs/zho-weak.txt: topic 204: 300 document(s), but its candidate list in ${cand} has 299 (more)\n`,
    )
    expect(
      cli([
        'score',
        '--preset',
        'dl21-doc',
        '--qrels',
        ZHO,
        `${D}/runs/zho-weak.txt`,
        '--candidates',
        cand,
      ]).code,
    ).toBe(2)
  })
  it('MLIR: per-language lists concatenated are flagged (rank restarts, depth > 1,000, one language)', () => {
    const lines = ['fas', 'rus', 'zho'].flatMap((l) =>
      readFileSync(`${D}/runs/${l}-good.txt`, 'utf8')
        .split('\n')
        .filter((x) => x.startsWith('205 ')),
    )
    const concat = tmp('concat.txt', lines.join('\n') + '\n')
    const r = cli([
      'score',
      '--preset',
      'neuclir23-mlir',
      '--qrels',
      `${D}/qrels.final.gains`,
      concat,
    ])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain(
      `trecscore: warning: ${concat}: topic 205: rank 1 again at lines 1001, 2001 (the rank restarts, as in per-language lists concatenated)`,
    )
    expect(r.stderr).toContain(
      `trecscore: warning: ${concat}: topic 205: 3000 documents, more than 1000`,
    )
    const zhoOnly = cli([
      'score',
      '--preset',
      'neuclir23-mlir',
      '--qrels',
      `${D}/qrels.final.gains`,
      `${D}/runs/zho-weak.txt`,
    ])
    expect(zhoOnly.stderr).toContain(
      "topic 205: all 21 document(s) of known language are 'zho', but fas, rus, zho are judged for this topic",
    )
    const mapped = cli([
      'score',
      '--preset',
      'neuclir23-mlir',
      '--qrels',
      `${D}/qrels.final.gains`,
      `${D}/runs/mlir-good.txt`,
      '--doc-lang',
      tmp('langs.txt', 'x zho\ny fas\n'),
    ])
    expect([mapped.code, mapped.stderr, mapped.stdout]).toEqual([
      0,
      '',
      expected('mlir-good').cli_stdout,
    ])
    expect(
      cli([
        'score',
        '--preset',
        'neuclir23-zho',
        '--qrels',
        ZHO,
        `${D}/runs/zho-weak.txt`,
        '--doc-lang',
        `${D}/qrels.final.gains`,
      ]).code,
    ).toBe(2)
  })
  it('NeuCLIR flags are refused for SkillRet and RETECO presets', () => {
    const r = cli([
      'score',
      '--preset',
      'skillret',
      '--data',
      D,
      `${D}/runs/zho-weak.txt`,
      '--rel-map',
      'neuclir-4to3',
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      "--rel-map applies to presets scored from --qrels (TREC 2023 NeuCLIR, TREC 2021 DL), not to 'skillret'",
    )
  })
})

describe('trecscore validate --preset neuclir23-…', () => {
  it('a good run: exit 0', () => {
    const r = cli([
      'validate',
      '--preset',
      'neuclir23-mlir',
      '--qrels',
      `${D}/qrels.final.gains`,
      `${D}/runs/mlir-good.txt`,
    ])
    expect([r.code, r.stdout.split('\n').at(-2)]).toEqual([
      0,
      `${D}/runs/mlir-good.txt: preset neuclir23-mlir: ok: 0 errors`,
    ])
  })
  it('candidate problems and MLIR concatenation are errors (exit 2)', () => {
    const c = cli([
      'validate',
      '--preset',
      'neuclir23-zho',
      `${D}/runs/zho-weak.txt`,
      '--candidates',
      `${D}/runs/zho-missing.txt`,
    ])
    expect(c.code).toBe(2)
    expect(c.stdout).toContain(
      `error: ${D}/runs/zho-weak.txt: topic 205: 300 document(s), but its candidate list in ${D}/runs/zho-missing.txt has 100 (more)\n`,
    )
    expect(c.stdout).toContain(
      `error: ${D}/runs/zho-weak.txt: 3 topic(s) have no candidate list in ${D}/runs/zho-missing.txt: 204, 237, 269\n`,
    )
    const m = cli([
      'validate',
      '--preset',
      'neuclir23-mlir',
      `${D}/runs/zho-weak.txt`,
      '--qrels',
      `${D}/qrels.final.gains`,
      '--format',
      'json',
    ])
    expect(m.code).toBe(2)
    const j = JSON.parse(m.stdout)
    expect([j.schema, j.ok, j.format.ok]).toEqual(['trecscore.validate-preset/1', false, true])
    // Every zho topic is also judged in fas or rus (fixture README), so all 15 topics are flagged.
    expect(j.problems.length).toBe(15)
    expect(
      j.problems.every((p: string) =>
        /topic \d+: all \d+ document\(s\) of known language are 'zho', but (fas|rus|, )+zho are judged/.test(
          p,
        ),
      ),
    ).toBe(true)
  })
  it('--candidates without a NeuCLIR preset is a usage error', () => {
    const r = cli(['validate', `${D}/runs/zho-weak.txt`, '--candidates', `${D}/runs/zho-weak.txt`])
    expect([r.code, r.stderr]).toEqual([
      2,
      'trecscore validate: --candidates and --doc-lang need --preset neuclir23-zho|neuclir23-fas|neuclir23-rus|neuclir23-mlir\n',
    ])
  })
})

describe('trecscore presets show neuclir23-…', () => {
  it('prints the official command with version, both tie rules and which measure uses which', () => {
    const r = cli(['presets', 'show', 'neuclir23-zho'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(
      "command: ir_measures QRELS RUN 'nDCG@20 MAP RBP(rel=1) R@100 R@1000'",
    )
    expect(r.stdout).toContain('ir_measures 0.4.3')
    expect(r.stdout).toContain(
      'tie rules (which measure uses which):\n  pytrec_eval: nDCG@20, AP, R@100, R@1000\n',
    )
    expect(r.stdout).toContain('  cwl_eval: RBP(rel=1)\n')
    expect(r.stdout).toContain('conventions for RBP(rel=1) (tie rule cwl_eval;')
    expect(r.stdout).toContain('  ordering: score-file-order\n  score precision: float64\n')
    expect(cli(['presets', 'show', 'neuclir23-mlir']).stdout).toContain(
      'validate: trecscore validate --preset neuclir23-mlir RUN [--qrels QRELS] [--candidates FILE] [--doc-lang FILE]',
    )
  })
})
