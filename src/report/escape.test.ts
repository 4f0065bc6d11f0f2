import { describe, expect, it } from 'vitest'
import { escapeHtml, escapeMarkdown } from './escape.js'

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
