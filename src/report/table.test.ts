import { describe, expect, it } from 'vitest'
import { csvField, tsvField, visibleText } from './escape.js'
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
