import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  canonicalJson,
  JUDGE_DIMENSIONS,
  judgeConfigHash,
  loadJudgeConfig,
  parseJudgeConfig,
} from '../../../src/entries/judge.js'
import { wordIssue } from '../../../src/errors/format-issue.js'
import { configJson, SHIPPED_CONFIG } from './helpers.js'

describe('judge config', () => {
  it('the shipped config is valid, has the five dimensions with five anchors each, and a stable hash', () => {
    const l = loadJudgeConfig(SHIPPED_CONFIG)
    expect(l.config.dimensions.map((d) => d.name)).toEqual([...JUDGE_DIMENSIONS])
    for (const d of l.config.dimensions) expect(d.rubric).toHaveLength(5)
    expect(l.config.model).toBe('gpt-4o-2024-08-06')
    expect(l.config.decoding.temperature).toBe(0)
    expect(l.config.invalidPolicy).toBe('exclude')
    expect(l.hash).toMatch(/^[0-9a-f]{64}$/)
    // Formatting and key order do not change the hash; a value does.
    const raw = JSON.parse(readFileSync(SHIPPED_CONFIG, 'utf8')) as Record<string, unknown>
    const reordered = Object.fromEntries(Object.entries(raw).reverse())
    expect(judgeConfigHash(reordered)).toBe(l.hash)
    expect(judgeConfigHash({ ...raw, model: 'gpt-4o-2024-11-20' })).not.toBe(l.hash)
  })

  it('canonical JSON sorts keys at every level and drops whitespace (hand-written expectation)', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, 2.5], é: true })).toBe(
      '{"a":[{"c":null,"d":"x"},2.5],"b":1,"é":true}',
    )
  })

  it('canonical JSON is invariant under key order (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (o) => {
        const rev = Object.fromEntries(Object.entries(o).reverse())
        expect(canonicalJson(rev)).toBe(canonicalJson(o))
        expect(JSON.parse(canonicalJson(o))).toEqual(JSON.parse(JSON.stringify(o)))
      }),
    )
  })

  it('reports every problem at once, with JSON paths', () => {
    const raw = configJson()
    const dims = (raw['dimensions'] as Record<string, unknown>[])
      .slice(0, 4)
      .map((d, i) =>
        i === 1 ? { ...d, rubric: ['a', 'b'] } : i === 2 ? { ...d, prompt: 'Judge {{answr}}' } : d,
      )
    const r = parseJudgeConfig({
      ...raw,
      dimensions: dims,
      invalid_policy: 'zero',
      decoding: { temperature: 3, max_tokens: 0 },
      retry: { ...(raw['retry'] as object), backoff_cap_ms: 1, backoff_base_ms: 10 },
      extra: 1,
    })
    expect(r.ok).toBe(false)
    const text = r.ok ? [] : r.problems.map((p) => wordIssue('config', p))
    expect(text).toEqual(
      expect.arrayContaining([
        '$.extra: unknown field (expected one of name, description, model, system_prompt, decoding, structured_output, output_schema, dimensions, retry, invalid_policy, concurrency, requests_per_minute, prices, limits)',
        '$.decoding.temperature: expected a number in [0, 2], found 3',
        '$.decoding.max_tokens: expected an integer ≥ 1, found 0',
        '$.dimensions[1].rubric: expected 5 non-empty anchor strings for the scores 1..5, found ["a","b"]',
        expect.stringContaining('$.dimensions[2].prompt: unknown placeholder {{answr}}'),
        '$.dimensions[2].prompt: the template never shows the answer: expected a {{answer}} placeholder',
        '$.dimensions: dimension "faithfulness" is missing (all five are required)',
        '$.retry.backoff_cap_ms: expected at least backoff_base_ms (10), found 1',
        '$.invalid_policy: expected one of "exclude", "minimum", found "zero"',
      ]),
    )
  })
})
