import { describe, expect, it } from 'vitest'
import { trecEvalV10 } from '../conventions/profiles.js'
import { parseMeasures } from '../measures/name.js'
import { describePreset, listPresets } from './describe.js'
import { definePreset, type PresetDefinition } from './preset.js'
import { PRESET_POINTERS, PRESETS, presetIds } from './registry.js'
import { RETECO_PRESETS } from './reteco/score-runs.js'

const CONVENTION_KEYS = Object.keys(trecEvalV10).sort()

describe('preset registry', () => {
  it('every preset loads: measure names parse, conventions are complete, the id is its key', () => {
    expect(PRESETS.size).toBeGreaterThan(0)
    for (const [id, p] of PRESETS) {
      expect(p.id).toBe(id)
      expect(parseMeasures(p.measures).map((m) => m.name)).toEqual(
        p.parsedMeasures.map((m) => m.name),
      )
      expect(Object.keys(p.conventions).sort(), id).toEqual(CONVENTION_KEYS)
      for (const k of CONVENTION_KEYS)
        expect((p.conventions as unknown as Record<string, unknown>)[k], `${id}.${k}`).toBeDefined()
      expect(p.official.tool && p.official.version && p.official.command, id).toBeTruthy()
      expect(p.rounding.digits).toBeGreaterThanOrEqual(0)
      if (p.report.layout === 'trec_eval')
        expect(p.report.names.map(([m]) => m).sort()).toEqual(
          p.parsedMeasures.map((m) => m.name).sort(),
        )
    }
  })
  it('ids are unique across generic and RETECO pointer presets; RETECO ones point to score --preset', () => {
    const ids = presetIds()
    expect(new Set(ids).size).toBe(ids.length)
    expect(PRESET_POINTERS.map((p) => p.id)).toEqual([...RETECO_PRESETS])
    for (const p of PRESET_POINTERS) expect(p.pointer).toContain(`score --preset ${p.id}`)
  })
  it('the DL 2021 presets declare what issue 4 asks', () => {
    const pass = PRESETS.get('dl21-passage')!
    const doc = PRESETS.get('dl21-doc')!
    const pash = PRESETS.get('dl21-passage-pash')!
    expect(pass.parsedMeasures.map((m) => m.name)).toEqual([
      'nDCG@10',
      'AP',
      'RR',
      'R@100',
      'R@1000',
      'P@10',
    ])
    expect([pass.conventions.relevanceLevel, doc.conventions.relevanceLevel]).toEqual([2, 1])
    for (const p of [pass, doc, pash]) {
      expect(p.conventions).toMatchObject({
        missingQueries: 'zero',
        scorePrecision: 'float32',
        ordering: 'score-docid-desc',
        gains: { kind: 'grade' },
      })
      expect(p.checks.some((c) => c.kind === 'max-depth' && c.depth === 100)).toBe(true)
    }
    expect(pass.checks.some((c) => c.kind === 'doc-id-prefix' && c.prefix === 'msmarco_doc_')).toBe(
      true,
    )
    expect(
      doc.checks.some((c) => c.kind === 'doc-id-prefix' && c.prefix === 'msmarco_passage_'),
    ).toBe(true)
    expect(pass.checks.some((c) => c.kind === 'qrels-missing-grade' && c.grade === 1)).toBe(true)
    expect(pash.parsedMeasures.map((m) => m.name)).toEqual([
      'nDCG(gains={0:0,1:1,2:3,3:7})@5',
      'nDCG(gains={0:0,1:1,2:3,3:7})@10',
    ])
    expect(pass.official.version).toMatch(/9\.0\.8/)
  })
  it('definePreset rejects a misspelt measure and a trec_eval report name without a measure', () => {
    const base = PRESETS.get('dl21-passage')!
    const def: PresetDefinition = { ...base, id: 'typo', measures: ['nDGC@10'] }
    expect(() => definePreset(def)).toThrow(
      /preset 'typo': unknown measure "nDGC".*did you mean "nDCG"/,
    )
    expect(() => definePreset({ ...base, id: 'short', measures: ['AP'] })).toThrow(
      /report names measure 'RR', which the preset does not compute/,
    )
  })
  it('definePreset rejects per-measure conventions that name no computed measure or contradict their tie rule', async () => {
    const { PYTREC_EVAL_TIES, CWL_EVAL_TIES, withTieRule } = await import(
      '../conventions/tie-rules.js'
    )
    const base = PRESETS.get('neuclir23-zho')!
    const rbp = base.measureConventions![0]!
    expect(() =>
      definePreset({ ...base, id: 'x', measureConventions: [{ ...rbp, measures: ['P@10'] }] }),
    ).toThrow(/override names 'P@10', which the preset does not compute/)
    expect(() =>
      definePreset({
        ...base,
        id: 'x',
        measureConventions: [{ ...rbp, tieRule: PYTREC_EVAL_TIES }],
      }),
    ).toThrow(/do not follow the tie rule 'pytrec_eval'/)
    expect(() => definePreset({ ...base, id: 'x', tieRule: CWL_EVAL_TIES })).toThrow(
      /do not follow the tie rule 'cwl_eval'/,
    )
    expect(() => definePreset({ ...base, id: 'x', measureConventions: [rbp, rbp] })).toThrow(
      /two convention overrides/,
    )
    expect(() =>
      definePreset({
        ...base,
        id: 'x',
        measureConventions: [
          {
            ...rbp,
            conventions: withTieRule({ ...rbp.conventions, missingQueries: 'skip' }, CWL_EVAL_TIES),
          },
        ],
      }),
    ).toThrow(/must share the preset's query set/)
  })
  it('the NeuCLIR presets name both tie rules and which measure uses which', () => {
    for (const id of ['neuclir23-zho', 'neuclir23-fas', 'neuclir23-rus', 'neuclir23-mlir']) {
      const p = PRESETS.get(id)!
      expect(p.parsedMeasures.map((m) => m.name)).toEqual([
        'nDCG@20',
        'AP',
        'RBP(rel=1)',
        'R@100',
        'R@1000',
      ])
      expect(p.official.command).toBe("ir_measures QRELS RUN 'nDCG@20 MAP RBP(rel=1) R@100 R@1000'")
      expect(p.conventions).toMatchObject({
        ordering: 'score-docid-desc',
        scorePrecision: 'float32',
        missingQueries: 'zero',
        relevanceLevel: 1,
        depth: null,
      })
      expect(
        p.measureConventions!.map((o) => [
          o.measures,
          o.tieRule.name,
          o.conventions.ordering,
          o.conventions.scorePrecision,
          o.conventions.depth,
        ]),
      ).toEqual([[['RBP(rel=1)'], 'cwl_eval', 'score-file-order', 'float64', 1000]])
      const show = describePreset(p)
      expect(show).toContain(
        'tie rules (which measure uses which):\n  pytrec_eval: nDCG@20, AP, R@100, R@1000\n',
      )
      expect(show).toContain('  cwl_eval: RBP(rel=1)\n')
      expect(show).toContain('--rel-map neuclir-4to3 = 3:3,2:1,1:0,0:0')
    }
  })
  it('list and show document every preset', () => {
    const list = listPresets()
    for (const id of presetIds()) expect(list).toContain(id)
    expect(list).not.toMatch(/Not implemented yet/)
    const show = describePreset(PRESETS.get('dl21-doc')!)
    expect(show).toContain(
      'trec_eval -c -m ndcg_cut.10 -m map -m recip_rank -m recall.100,1000 -m P.10 -l 1 QRELS RUN',
    )
    expect(show).toMatch(/version: v9\.0\.8/)
    for (const line of [
      'ordering: score-docid-desc',
      'score precision: float32',
      'missing queries: zero',
      'relevance level: grade >= 1',
      'rounding of printed values: 4 decimals',
    ])
      expect(show).toContain(line)
  })
})
