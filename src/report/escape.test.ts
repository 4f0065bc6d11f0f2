import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  csvField,
  csvFieldFormulaSafe,
  escapeControlChars,
  escapeHtml,
  escapeLatex,
  escapeMarkdown,
  escapeMarkdownStrict,
  tsvField,
  visibleText,
} from './escape.js'

/** A minimal RFC 4180 reader for one record, to check csvField round-trips. */
function readCsvRecord(line: string, sep: string): string[] {
  const out: string[] = []
  let i = 0
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = ''
      i++
      for (;;) {
        const q = line.indexOf('"', i)
        v += line.slice(i, q)
        i = q + 1
        if (line[i] === '"') {
          v += '"'
          i++
        } else break
      }
      out.push(v)
      i++ // the separator
    } else {
      const e = line.indexOf(sep, i)
      const end = e < 0 ? line.length : e
      out.push(line.slice(i, end))
      i = end + 1
    }
  }
  return out
}

describe('escapeMarkdown', () => {
  it('backslash-escapes the characters that split a cell or start markup, and joins lines', () => {
    expect(escapeMarkdown('a|b')).toBe('a\\|b')
    expect(escapeMarkdown('bm25_k1*[x](y)<b>`c`\\')).toBe(
      'bm25\\_k1\\*\\[x\\](y)\\<b\\>\\`c\\`\\\\',
    )
    expect(escapeMarkdown('one\ntwo\r\nthree\rfour')).toBe('one two three four')
    expect(escapeMarkdown('plain run-1.txt #2')).toBe('plain run-1.txt #2')
  })
})

describe('escapeHtml', () => {
  it('writes & < > " \' ` as entities, nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    )
    expect(escapeHtml('plain ü \\x1b')).toBe('plain ü \\x1b')
  })
})

describe('escapeMarkdownStrict', () => {
  it('escapes every ASCII punctuation character and joins lines', () => {
    expect(escapeMarkdownStrict('<img src=x> [a](j:x) | *b* \\ 50% #h')).toBe(
      '\\<img src\\=x\\> \\[a\\]\\(j\\:x\\) \\| \\*b\\* \\\\ 50\\% \\#h',
    )
    expect(escapeMarkdownStrict('a\r\nb')).toBe('a b')
    expect(escapeMarkdownStrict('plain ü 42')).toBe('plain ü 42')
  })
  it('leaves no unescaped punctuation (fast-check)', () => {
    fc.assert(
      fc.property(fc.string(), (t) => {
        const e = escapeMarkdownStrict(t).replace(/\\[!-/:-@[-`{-~]/g, '')
        expect(e).not.toMatch(/[!-/:-@[-`{-~\r\n]/)
      }),
    )
  })
})

describe('escapeLatex', () => {
  it('turns the specials and < > | into commands, line breaks into a space', () => {
    expect(escapeLatex('a_b & 50% $x$ #1 {y} ~^\\ <t>|')).toBe(
      'a\\_b \\& 50\\% \\$x\\$ \\#1 \\{y\\} \\textasciitilde{}\\textasciicircum{}\\textbackslash{} \\textless{}t\\textgreater{}\\textbar{}',
    )
    expect(escapeLatex('one\ntwo')).toBe('one two')
  })
  it('leaves no bare special character (fast-check)', () => {
    fc.assert(
      fc.property(fc.string(), (t) => {
        const e = escapeLatex(t)
          .replace(
            /\\(textbackslash|textasciitilde|textasciicircum|textless|textgreater|textbar)\{\}/g,
            '',
          )
          .replace(/\\[{}$&#%_]/g, '')
        expect(e).not.toMatch(/[\\{}$&#%_^~<>|\r\n]/)
      }),
    )
  })
})

describe('csvField and csvFieldFormulaSafe', () => {
  it('quotes only when needed (separator, quote, CR, LF)', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('a\rb')).toBe('"a\rb"')
    expect(csvField('a\tb', '\t')).toBe('"a\tb"')
    expect(csvField('a,b', '\t')).toBe('a,b')
  })
  it('round-trips through an RFC 4180 reader, whatever the text (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(',', '\t', ';'),
        (cells, sep) => {
          expect(readCsvRecord(cells.map((c) => csvField(c, sep)).join(sep), sep)).toEqual(cells)
        },
      ),
    )
  })
  it('defuses spreadsheet formulas in text from people', () => {
    expect(csvFieldFormulaSafe('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvFieldFormulaSafe('-1+2')).toBe("'-1+2")
    expect(csvFieldFormulaSafe('@SUM')).toBe("'@SUM")
    expect(csvFieldFormulaSafe('team-1')).toBe('team-1')
  })
})

describe('tsvField, visibleText, escapeControlChars', () => {
  it('write tabs, line breaks and control characters visibly', () => {
    expect(tsvField('a\tb\nc\\d')).toBe('a\\tb\\nc\\\\d')
    expect(visibleText('a\tb\x1b[2J')).toBe('a\\tb\\x1b[2J')
    expect(escapeControlChars('a\tb\u202ec')).toBe('a\\x09b\\u{202e}c')
  })
})
