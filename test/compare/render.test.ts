import { describe, expect, it } from 'vitest'
import {
  COMPARE_FORMATS,
  compareTable,
  formatP,
  type PerQueryTable,
  renderCompare,
  renderCompareHtmlFragment,
} from '../../src/internal.js'
import { hostile, T } from './hand-table.js'

const R = compareTable(T, { by: ['domain'], tests: ['t', 'permutation'], permutations: 1000 })

describe('compare renderers', () => {
  it('every format renders', () => {
    for (const f of COMPARE_FORMATS)
      expect(renderCompare(R, { format: f }).length).toBeGreaterThan(100)
  })

  it('plain text: letters, best marked *, superscripts as ^, legend with tests, correction, seed and zero-filled counts', () => {
    const s = renderCompare(R, { format: 'table' })
    expect(s).toMatch(/^a {2}base\.run\s+0\.1500\s+0\.0750$/m)
    expect(s).toMatch(/^b {2}x<script>.*\s+0\.8750\*\^a\s+0\.5750\*\^a$/m)
    expect(s).toContain(
      "correction: Holm (step-down) over each measure's 1 pairwise comparison(s), per test and separately inside each group of a breakdown",
    )
    expect(s).toContain(
      'exact (all 2^n sign vectors) when 2^n <= 1000, else 1000 sampled sign vectors with p = (count+1)/(B+1)',
    )
    expect(s).toContain('seed 42 for every resampling, permutations 1000, bootstrap 10000')
    expect(s).toContain(`zero-filled (query missing from the run, scored 0): ${hostile} 1`)
    expect(s).toContain('domain = tiny (2 queries): 2 queries < 6: means only, not tested')
  })

  it('markdown: bold best, <sup> letters, specials escaped', () => {
    const s = renderCompare(R, { format: 'markdown' })
    expect(s).toContain(
      '| b | x\\<script\\>alert(1)\\</script\\>\\_&%$#{}~^\\\\ | **0.8750**<sup>a</sup> | **0.5750**<sup>a</sup> |',
    )
  })

  it('latex: booktabs, \\textbf best, $^{a}$ letters, LaTeX specials in run names escaped', () => {
    const s = renderCompare(R, { format: 'latex' })
    expect(s).toContain('% requires \\usepackage{booktabs}')
    expect(s).toContain('\\toprule')
    expect(s).toContain(' & Run & nDCG@10 & P\\_5 \\\\')
    expect(s).toContain('a & base.run & 0.1500 & 0.0750 \\\\')
    expect(s).toContain(
      'b & x\\textless{}script\\textgreater{}alert(1)\\textless{}/script\\textgreater{}\\_\\&\\%\\$\\#\\{\\}\\textasciitilde{}\\textasciicircum{}\\textbackslash{} & \\textbf{0.8750}$^{a}$ & \\textbf{0.5750}$^{a}$ \\\\',
    )
    expect(s).toContain('tiny (2)$^\\dagger$')
    // Every brace is balanced (escaping did not leave a bare special)
    const opens = (s.match(/(?<!\\)\{/g) ?? []).length
    const closes = (s.match(/(?<!\\)\}/g) ?? []).length
    expect(opens).toBe(closes)
  })

  it('html: every string escaped (a <script> run name renders as text), bold and sup', () => {
    const s = renderCompare(R, { format: 'html' })
    expect(s).not.toContain('<script>')
    expect(s).toContain('x&lt;script&gt;alert(1)&lt;/script&gt;_&amp;%$#{}~^\\')
    expect(s).toContain('<td class="num"><strong>0.8750</strong><sup>a</sup></td>')
    expect(renderCompareHtmlFragment(R)).toMatch(
      /^<div class="trecscore-scroll">\n<table class="trecscore-compare">/,
    )
  })

  it('csv: one row per pair and scope, quoted where needed, tests as columns', () => {
    const lines = renderCompare(R, { format: 'csv' }).trim().split('\n')
    expect(lines[0]).toBe(
      'scope,group,measure,run_a,letter_a,run_b,letter_b,n,tested,mean_a,mean_b,mean_difference,ci95_low,ci95_high,cohens_dz,wins,ties,losses,t_statistic,t_p,t_p_adjusted,t_significant,permutation_statistic,permutation_p,permutation_p_adjusted,permutation_significant',
    )
    // 2 measures × (all + 2 groups) × 1 pair
    expect(lines).toHaveLength(1 + 6)
    expect(lines[1]).toMatch(
      /^all,,nDCG@10,base\.run,a,x<script>alert\(1\)<\/script>_&%\$#\{\}~\^\\,b,8,true,/,
    )
    const quoted = compareTable({ ...T, runs: [T.runs[0]!, { ...T.runs[1]!, name: 'a,"b"' }] })
    expect(renderCompare(quoted, { format: 'csv' }).split('\n')[1]).toMatch(
      /^all,,nDCG@10,base\.run,a,"a,""b""",b,8,true,/,
    )
    expect(
      lines.filter((l) => l.startsWith('domain,tiny,')).every((l) => l.includes(',false,')),
    ).toBe(true)
  })

  it('json: schema trecscore.compare/1, settings echoed, parses back', () => {
    const j = JSON.parse(renderCompare(R, { format: 'json' }))
    expect(j.schema).toBe('trecscore.compare/1')
    expect(j.settings).toEqual({
      tests: ['t', 'permutation'],
      correction: 'holm',
      alpha: 0.05,
      permutations: 1000,
      bootstrap: 10000,
      seed: 42,
      baseline: null,
      minGroupSize: 6,
    })
    expect(j.runs[1].name).toBe(hostile)
    expect(j.breakdowns[0].groups.map((g: { group: string }) => g.group)).toEqual(['big', 'tiny'])
  })

  it('p-values for reading: 4 decimals, exponent below 0.001, "-" when not run', () => {
    expect([formatP(0.04321), formatP(0.000123), formatP(null), formatP(1)]).toEqual([
      '0.0432',
      '1.2e-4',
      '-',
      '1.0000',
    ])
  })

  it('html: the pairs table the legend describes (every p, effect sizes, W/T/L), in scrolling boxes', () => {
    const s = renderCompare(R, { format: 'html' })
    const marked = s.slice(
      s.indexOf('<table class="trecscore-compare-pairs">'),
      s.indexOf('</table>', s.indexOf('<table class="trecscore-compare-pairs">')),
    )
    // Every column after A, B and the measure is right-aligned: class "num", as in every table.
    expect(marked).toContain('<th>measure</th><th class="num">n</th>')
    const pairs = marked.replaceAll(' class="num"', '')
    expect(pairs).toContain(
      '<th>A</th><th>B</th><th>measure</th><th>n</th><th>mean A</th><th>mean B</th><th>A-B</th><th>95% CI</th><th>d_z</th><th>W/T/L</th><th>t p</th><th>t p holm</th><th>permutation p</th><th>permutation p holm</th>',
    )
    const p = R.overall[0]!.pairs[0]!
    // a vs b on nDCG@10: means 0.1500 and 0.8750, 0 wins, 8 losses; the first test's adjusted p marked significant.
    expect(pairs).toContain(
      `<tr><td>a</td><td>b</td><td>nDCG@10</td><td>8</td><td>0.1500</td><td>0.8750</td><td>-0.7250</td><td>[${p.effect.ci95![0].toFixed(4)}, ${p.effect.ci95![1].toFixed(4)}]</td>`,
    )
    expect(pairs).toContain('<td>0/0/8</td>')
    expect(pairs.match(/<tr><td>a<\/td><td>b<\/td>/g)).toHaveLength(2) // one row per measure
    expect(s.match(/<div class="trecscore-scroll">/g)!.length).toBe(2 + 2) // main, pairs, 2 groups
  })
})

describe('run labels in every compare format: verbatim, escaped for the format', () => {
  const long = `run-${'x'.repeat(190)}-end` // 198 characters
  const evil = `<script>alert("x")</script> 'q' \u001b[2J\u202eevil\r\nline`
  const table: PerQueryTable = {
    ...T,
    runs: [
      { ...T.runs[0]!, name: long },
      { ...T.runs[1]!, name: evil },
    ],
  }
  const r = compareTable(table, { by: ['domain'] })
  const shown = `<script>alert("x")</script> 'q' \\x1b[2J\\u{202e}evil\\x0d\\x0aline`

  it('table: the long name whole, control characters as \\xNN, nothing else changed', () => {
    const s = renderCompare(r, { format: 'table' })
    expect(s).toContain(`a  ${long}  `)
    expect(s).toContain(`b  ${shown}`)
    expect(s).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/)
    expect(s).not.toContain('\r')
    // Every main-table row has the same width (alignment survives the long name).
    const rows = s.split('\n').slice(1, 5)
    expect(new Set(rows.map((l) => l.replace(/\s+$/, '').length)).size).toBeLessThanOrEqual(2)
  })

  it('markdown and latex: escaped for the format, the whole name kept', () => {
    const md = renderCompare(r, { format: 'markdown' })
    expect(md).toContain(`| a | ${long} |`)
    expect(md).toContain(
      `| b | \\<script\\>alert("x")\\</script\\> 'q' \\\\x1b\\[2J\\\\u{202e}evil\\\\x0d\\\\x0aline |`,
    )
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]/)
    const tex = renderCompare(r, { format: 'latex' })
    expect(tex).toContain(`a & ${long} & `)
    expect(tex).toContain(
      `b & \\textless{}script\\textgreater{}alert("x")\\textless{}/script\\textgreater{} 'q' \\textbackslash{}x1b[2J\\textbackslash{}u\\{202e\\}evil\\textbackslash{}x0d\\textbackslash{}x0aline & `,
    )
  })

  it('html: entity-escaped, no markup from the name, long names wrap', () => {
    const s = renderCompare(r, { format: 'html' })
    expect(s).not.toContain('<script>')
    expect(s).toContain(
      `<td class="name">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &#39;q&#39; \\x1b[2J\\u{202e}evil\\x0d\\x0aline</td>`,
    )
    expect(s).toContain(`<td class="name">${long}</td>`)
    expect(s).toContain('overflow-wrap: anywhere')
  })

  it('csv and json: exact', () => {
    const csv = renderCompare(r, { format: 'csv' })
    expect(csv).toContain(`,${long},a,"${evil.replace(/"/g, '""')}",b,`)
    const j = JSON.parse(renderCompare(r, { format: 'json' }))
    expect(j.runs.map((x: { name: string }) => x.name)).toEqual([long, evil])
  })
})
