import { describe, expect, it } from 'vitest'
import { csvField, latexSuperscript, tsvField, visibleText } from './escape.js'
import { markdownCell, renderTable, type Table } from './table.js'

const T: Table = {
  columns: [
    { key: 'run', header: 'run' },
    { key: 'ap', header: 'AP' },
    { key: 'n', header: 'n', digits: 0 },
  ],
  rows: [
    ['a|b', 0.03125, 3],
    ['x,"y"', null, 12],
  ],
  notes: ['conventions: x'],
}

describe('renderTable', () => {
  it('text: aligned, numbers as printf %.4f (ties to even), undefined as -', () => {
    expect(renderTable(T, 'table')).toBe(
      'run        AP   n\n-----  ------  --\na|b    0.0312   3\nx,"y"       -  12\nconventions: x\n',
    )
  })
  it('markdown: pipes escaped, numeric columns right-aligned', () => {
    expect(renderTable(T, 'markdown')).toBe(
      '| run | AP | n |\n| --- | ---: | ---: |\n| a\\|b | 0.0312 | 3 |\n| x,"y" | - | 12 |\n\nconventions: x\n',
    )
  })
  it('csv and tsv: full precision, quoting, empty undefined, no notes', () => {
    expect(renderTable(T, 'csv')).toBe('run,AP,n\na|b,0.03125,3\n"x,""y""",,12\n')
    expect(renderTable(T, 'tsv')).toBe('run\tAP\tn\na|b\t0.03125\t3\nx,"y"\t\t12\n')
  })
  it('json: one object per row keyed by column key', () => {
    expect(JSON.parse(renderTable(T, 'json'))).toEqual([
      { run: 'a|b', ap: 0.03125, n: 3 },
      { run: 'x,"y"', ap: null, n: 12 },
    ])
  })
  it('latex: booktabs, notes as % comments, specials escaped, bold cells', () => {
    expect(renderTable({ ...T, bold: [[false, true, false]] }, 'latex')).toBe(
      '% requires \\usepackage{booktabs}\n% conventions: x\n\\begin{tabular}{lrr}\n\\toprule\nrun & AP & n \\\\\n\\midrule\n' +
        'a\\textbar{}b & \\textbf{0.0312} & 3 \\\\\nx,"y" & - & 12 \\\\\n\\bottomrule\n\\end{tabular}\n',
    )
  })
  it('html: a table with escaped cells, numeric columns classed, bold as strong', () => {
    expect(
      renderTable({ ...T, rows: [['<b>&', 0.5, 1]], bold: [[false, true, false]] }, 'html'),
    ).toBe(
      '<table>\n<thead><tr><th>run</th><th class="num">AP</th><th class="num">n</th></tr></thead>\n<tbody>\n' +
        '<tr><td>&lt;b&gt;&amp;</td><td class="num"><strong>0.5000</strong></td><td class="num">1</td></tr>\n</tbody>\n</table>\n',
    )
  })
  it('escapes control characters in human formats', () => {
    expect(visibleText('a\x1b[2Jb\tc')).toBe('a\\x1b[2Jb\\tc')
    expect(markdownCell('a\nb|c\\')).toBe('a b\\|c\\\\')
    expect(csvField('a\nb')).toBe('"a\nb"')
    expect(tsvField('a\tb\\')).toBe('a\\tb\\\\')
  })
})

describe('renderTable: emphasis as data (bold, superscript marks, rules between groups)', () => {
  const G: Table = {
    columns: [
      { key: 'g', header: 'group', align: 'left' },
      { key: 'run', header: 'run', align: 'left' },
      { key: 'v', header: 'v', align: 'right' },
    ],
    rows: [
      ['A', 'x', 0.5],
      ['', 'y', 0.25],
      ['B', 'x', null],
    ],
    bold: [[false, false, true]],
    marks: [
      ['', '', 'b'],
      ['', '', ''],
      ['†', '', ''],
    ],
    rules: [2],
  }
  it('text: bold as a trailing *, marks as ^, a dashed rule above a group', () => {
    expect(renderTable(G, 'table')).toBe(
      'group  run          v\n-----  ---  ---------\nA      x    0.5000*^b\n' +
        '       y       0.2500\n-----  ---  ---------\nB^†    x            -\n',
    )
  })
  it('markdown: **bold**, <sup> marks (escaped), no rules', () => {
    expect(renderTable(G, 'markdown')).toBe(
      '| group | run | v |\n| --- | --- | ---: |\n| A | x | **0.5000**<sup>b</sup> |\n|  | y | 0.2500 |\n| B<sup>†</sup> | x | - |\n',
    )
    expect(renderTable({ ...G, marks: [['', '', '*_']] }, 'markdown')).toContain(
      '<sup>\\*\\_</sup>',
    )
  })
  it('latex: \\textbf, $^{…}$ and $^\\dagger$ marks, \\midrule above a group; no preamble on request', () => {
    const body =
      '\\begin{tabular}{llr}\n\\toprule\ngroup & run & v \\\\\n\\midrule\n' +
      'A & x & \\textbf{0.5000}$^{b}$ \\\\\n & y & 0.2500 \\\\\n\\midrule\nB$^\\dagger$ & x & - \\\\\n' +
      '\\bottomrule\n\\end{tabular}\n'
    expect(renderTable(G, 'latex')).toBe(`% requires \\usepackage{booktabs}\n${body}`)
    expect(renderTable({ ...G, notes: ['n'] }, 'latex', { preamble: false })).toBe(body)
    expect(latexSuperscript('‡')).toBe('$^\\ddagger$')
    expect(latexSuperscript('a_b')).toBe('$^{a\\_b}$')
  })
  it('html: <strong>, <sup> marks, a new <tbody> above a group', () => {
    expect(renderTable(G, 'html')).toBe(
      '<table>\n<thead><tr><th>group</th><th>run</th><th class="num">v</th></tr></thead>\n<tbody>\n' +
        '<tr><td>A</td><td>x</td><td class="num"><strong>0.5000</strong><sup>b</sup></td></tr>\n' +
        '<tr><td></td><td>y</td><td class="num">0.2500</td></tr>\n</tbody>\n<tbody>\n' +
        '<tr><td>B<sup>†</sup></td><td>x</td><td class="num">-</td></tr>\n</tbody>\n</table>\n',
    )
  })
  it('csv, tsv and json carry the values only', () => {
    expect(renderTable(G, 'csv')).toBe('group,run,v\nA,x,0.5\n,y,0.25\nB,x,\n')
    expect(renderTable(G, 'tsv')).toBe('group\trun\tv\nA\tx\t0.5\n\ty\t0.25\nB\tx\t\n')
    expect(JSON.parse(renderTable(G, 'json'))[2]).toEqual({ g: 'B', run: 'x', v: null })
  })
})

describe('renderTable: text layout options and fixed widths', () => {
  const W: Table = {
    columns: [
      { key: 'k', header: 'statistic', align: 'left' },
      { key: 'v', header: 'value', align: 'right', width: 7 },
      { key: 'ci', header: 'CI', align: 'left', width: 6 },
      { key: 'n', header: 'n', align: 'left' },
    ],
    rows: [
      ['a', '0.5', '[0, 1]', '0/9'],
      ['b', 'undefined', 'none at all', '9/9'],
      ['c', '1', '', ''],
    ],
  }
  it('a fixed width pads like printf and lets a longer cell overflow; no header rule; indent', () => {
    expect(renderTable(W, 'table', { headerRule: false, indent: '  ' })).toBe(
      '  statistic    value  CI      n\n' +
        '  a              0.5  [0, 1]  0/9\n' +
        '  b          undefined  none at all  9/9\n' +
        '  c                1\n',
    )
  })
  it('indent applies to rules and notes too', () => {
    expect(
      renderTable({ columns: [{ key: 'a', header: 'a' }], rows: [[1]], notes: ['n'] }, 'table', {
        indent: '> ',
        digits: 0,
      }),
    ).toBe('> a\n> -\n> 1\n> n\n')
  })
})
