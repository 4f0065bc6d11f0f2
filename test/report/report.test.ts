/**
 * The report's data and page without a browser: escaping (hand-checked strings), the model built
 * from a hand-computed evaluation, and the page's self-containment.
 */
import { describe, expect, it } from 'vitest'
import {
  escapeHtml,
  jsonForScript,
  renderHtmlReport,
  reportFromEvaluations,
} from '../../src/entries/report.js'
import { evaluate } from '../../src/evaluate/evaluate.js'
import { parseRun } from '../../src/io/read.js'
import { parseQrels } from '../../src/io/trec-qrels.js'

describe('escaping', () => {
  it('JSON for a script element: < > & U+2028 U+2029 as \\u escapes, and it parses back to the same value', () => {
    const value = { id: '</script><!-- -->&\u2028\u2029é' }
    const text = jsonForScript(value)
    expect(text).toBe('{"id":"\\u003c/script\\u003e\\u003c!-- --\\u003e\\u0026\\u2028\\u2029é"}')
    expect(JSON.parse(text)).toEqual(value)
  })
  it('HTML text: & < > " \' as entities', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    )
  })
})

describe('report data from evaluations', () => {
  // q1: relevant d1. Run A ranks d2, d1 → RR 1/2; run B ranks d1 → RR 1. q2: relevant d3; A ranks d3 first (RR 1), B lacks q2.
  const qrels = parseQrels(Buffer.from('q1 0 d1 1\nq2 0 d3 1\n')).value
  const a = parseRun(Buffer.from('q1 Q0 d2 1 2 tagA\nq1 Q0 d1 2 1 tagA\nq2 Q0 d3 1 1 tagA\n')).value
  const b = parseRun(Buffer.from('q1 Q0 d1 1 5 <tag>\nq1 Q0 d1 2 4 <tag>\n')).value
  const ea = evaluate(qrels, a, ['RR'], {}, { runName: 'a.run' })
  const eb = evaluate(qrels, b, ['RR'], { duplicates: 'keep-first' }, { runName: 'b.run' })
  const data = reportFromEvaluations([ea, eb], 'qrels q.txt')

  it('leaderboard means, letters, default baseline (first run), decoded tags', () => {
    expect(data.measures).toEqual(['RR'])
    expect(data.leaderboard.map((r) => r.values)).toEqual([[0.75], [1]]) // A: (1/2 + 1)/2; B: q1 only (missing queries skipped)
    expect(data.runs).toEqual([
      { name: 'a.run', tag: 'tagA', letter: 'a' },
      { name: 'b.run', tag: '<tag>', letter: 'b' },
    ])
    expect(data.baseline).toBe('a.run')
    expect(data.significance).toBeNull()
    expect(data.leaderboard[0]!.beats).toEqual([[]])
  })
  it('counts: skipped missing query and the removed duplicate', () => {
    const items = new Map(data.counts[1]!.items)
    expect(items.get('missing queries skipped')).toBe(1)
    expect(items.get('duplicate docs removed')).toBe(1)
    expect(items.get('queries evaluated')).toBe(1)
  })
  it('a query that cannot be evaluated (duplicate doc under the error policy) is named in the notes', () => {
    const ec = evaluate(qrels, b, ['RR'], {}, { runName: 'c.run' })
    expect(reportFromEvaluations([ec], 'qrels q.txt').notes).toEqual([
      'c.run: 1 query could not be evaluated (q1: duplicate_doc) and is left out of its means',
    ])
    expect(data.notes).toEqual([])
  })
  it('per-query rows for every run and query', () => {
    expect(data.perQuery.map((q) => [q.run, q.query, q.values['RR']])).toEqual([
      ['a.run', 'q1', 0.5],
      ['a.run', 'q2', 1],
      ['b.run', 'q1', 1],
    ])
  })
  it('the page is self-contained: four inline scripts, no src/href, a CSP without network sources', () => {
    const html = renderHtmlReport(data, {
      plot: 'var Plot = {}; // </script> inside a comment',
      format: 'var TrecscoreFormat = {};',
    })
    expect(html.match(/<script\b/g)).toHaveLength(4)
    expect(html).not.toMatch(/\s(src|href)=/)
    expect(html).not.toContain('<link')
    expect(html).toContain(
      `content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"`,
    )
    expect(html).toContain('// <\\/script> inside a comment')
    expect(html).not.toContain('<tag>')
  })
})
