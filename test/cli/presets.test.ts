import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

describe('trecscore presets', () => {
  it('lists every preset, RETECO included, and says what is not implemented', () => {
    const r = cli(['presets'])
    expect(r.code).toBe(0)
    for (const id of ['dl21-passage', 'dl21-doc', 'dl21-passage-pash', 'reteco-1a', 'reteco-2c']) expect(r.stdout).toContain(id)
    expect(r.stdout).toMatch(/Not implemented yet: SkillRet, TREC 2023 NeuCLIR/)
  })
  it('show NAME prints the official evaluator with version and every convention', () => {
    const r = cli(['presets', 'show', 'dl21-passage'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('tool: trec_eval')
    expect(r.stdout).toContain('version: v9.0.8')
    expect(r.stdout).toContain('-l 2 QRELS RUN')
    for (const k of ['ordering', 'score precision', 'duplicate docs', 'missing queries', 'relevance level', 'gains', 'rounding of printed values']) expect(r.stdout).toContain(`${k}: `)
    expect(cli(['presets', 'show', 'reteco-1b']).stdout).toContain('trecscore score --preset reteco-1b --data DIR')
  })
  it('an unknown preset: one clear line, exit 2, no stack trace', () => {
    const r = cli(['presets', 'show', 'dl22-passage'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe("trecscore: unknown preset 'dl22-passage'; known presets: dl21-passage, dl21-doc, dl21-passage-pash, reteco-1a, reteco-1b, reteco-2a, reteco-2c\n")
  })
})
