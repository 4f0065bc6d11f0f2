import { describe, expect, it } from 'vitest'
import { encodeId } from '../../io/bytes.js'
import { type RetecoFileContext, RetecoFileValidator, type RetecoValidation } from './validate.js'
import { renderRetecoValidationJson, renderRetecoValidationText } from './validate-render.js'

const ctx: RetecoFileContext = {
  subtrack: '2a',
  split: 'dev',
  domain: 'biology',
  topics: new Map([[encodeId('é_turn_1'), 'biology']]),
  corpora: new Map([['biology', new Set([encodeId('dé'), 'd2'])]]),
  index: new Map(),
  allTopics: new Map(),
}

function validation(text: string): RetecoValidation {
  const v = new RetecoFileValidator('biology.trec', ctx, { maxListed: 5 })
  v.feed(Buffer.from(text, 'utf8'))
  const f = v.end()
  return {
    run: 'run',
    subtrack: '2a',
    split: 'dev',
    layout: 'per-domain',
    files: [f],
    problems: [{ code: 'missing_domain_file', domain: 'drones', topics: 3 }],
    errors: f.report.errors,
    warnings: f.report.warnings + 1,
    ok: f.report.errors === 0,
    strict: false,
  }
}

describe('RETECO validation renderers', () => {
  it('text: the report, the checker verdict, run-level problems and the summary', () => {
    const out = renderRetecoValidationText(
      validation('é_turn_1 Q0 dé 1 1 t\né#turn1 Q0 dé 1 1 t\n'),
    )
    expect(out).toContain(
      'biology.trec:2:1: warning: topic "é#turn1" is not a 2a topic of biology; it uses the pilot\'s "#turn" spelling: write "é_turn_1"',
    )
    expect(out).toContain(
      'biology.trec: format_checker.py: VALID (0 errors, 1 warning), the same verdict\n',
    )
    expect(out).toContain('run: warning: no run file for domain drones')
    expect(out.endsWith('run: ok: 0 errors, 2 warnings in 1 file (reteco-2a, dev)\n')).toBe(true)
  })
  it('JSON: ids decoded as UTF-8 in the RETECO fields too; the checker stdout; differences', () => {
    const j = JSON.parse(
      renderRetecoValidationJson(validation('é_turn_1 Q0 d2 1 1 t\né_turn_1 Q0 dé 2 1 t\n')),
    ) as {
      schema: string
      files: {
        problems: Record<string, unknown>[]
        formatChecker: { stdout: string; valid: boolean }
        agreesWithFormatChecker: boolean
      }[]
      problems: { code: string; severity: string; message: string }[]
    }
    expect(j.schema).toBe('trecscore.reteco-validate/1')
    const p = j.files[0]!.problems.find((x) => x['code'] === 'rank_order_differs')!
    expect([p['queryId'], p['byRank'], p['byScore']]).toEqual(['é_turn_1', 'd2', 'dé'])
    expect(j.files[0]!.formatChecker).toMatchObject({
      valid: true,
      stdout: 'lines: 2  topics: 1  errors: 0  warnings: 0\nRESULT: VALID\n',
    })
    expect(j.files[0]!.agreesWithFormatChecker).toBe(true)
    expect(j.problems[0]).toMatchObject({ code: 'missing_domain_file', severity: 'warning' })
  })
})
