/**
 * The one place where text is escaped for the formats trecscore writes: Markdown (tables and
 * inline text), HTML (element content and quoted attribute values), LaTeX, CSV and TSV fields,
 * and control characters in text shown to people. Every renderer (CLI tables, compare, the
 * leaderboard, the HTML report, the server's pages and exports) calls these; none has its own.
 * Control characters are a separate step ({@link escapeControlChars}, {@link visibleText}),
 * applied first where a renderer shows ids to people.
 */

// eslint-disable-next-line no-control-regex
const CONTROL =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu

/**
 * Ids and run labels shown to people: control characters (C0, DEL, C1) and the Unicode
 * bidirectional overrides are written as `\xNN` / `\u{NNNN}`, so an id cannot move the cursor,
 * clear the screen or reorder a table on a terminal. Machine formats keep ids exact.
 */
export function escapeControlChars(s: string): string {
  return s.replace(CONTROL, (c) => {
    const code = c.codePointAt(0)!
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`
  })
}

/**
 * Table cells shown to people: C0, DEL and C1 control characters as escapes, with the usual
 * short forms for tab and line breaks (`\t`, `\n`, `\r`, else `\xNN`).
 */
export function visibleText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (c === '\t') return '\\t'
    if (c === '\n') return '\\n'
    if (c === '\r') return '\\r'
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
  })
}

const MARKDOWN_SPECIAL = /[|\\`*_<>[\]]/g
const HTML_SPECIAL = /[&<>"'`]/g
const HTML_ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
}

/**
 * Text safe in a Markdown table cell or inline text: `| \ ` * _ < > [ ]` are backslash-escaped
 * (so a `|` cannot split a cell, nor a name start emphasis, code, a link or HTML), and a line
 * break becomes a space (a table row is one line).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(MARKDOWN_SPECIAL, (c) => `\\${c}`).replace(/\r?\n|\r/g, ' ')
}

/**
 * Text from untrusted people in Markdown: every ASCII punctuation character backslash-escaped
 * (CommonMark lets any of them be), line breaks as a space. Stricter than {@link escapeMarkdown}:
 * no emphasis, link, entity, heading or table syntax can survive, at the cost of more backslashes.
 */
export function escapeMarkdownStrict(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`)
}

/**
 * Text safe in HTML element content and in double-, single- or backtick-quoted attribute values:
 * `& < > " ' `` ` as entities.
 */
export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIAL, (c) => HTML_ENTITY[c]!)
}

const LATEX: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '%': '\\%',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
}

/**
 * Text as LaTeX source that typesets it literally: the ten specials `\ { } $ & # % _ ^ ~`, plus
 * `< > |` (which OT1 fonts would print as other glyphs), as commands or escapes; line breaks as a
 * space (a table row is one line).
 */
export function escapeLatex(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\{}$&#%_^~<>|]/g, (c) => LATEX[c]!)
}

const LATEX_SYMBOL: Readonly<Record<string, string>> = { '†': '\\dagger', '‡': '\\ddagger' }

/**
 * A superscript after a cell in LaTeX, in math mode: one footnote symbol (`†`, `‡`) as
 * `$^\dagger$`, `$^\ddagger$`; any other text ({@link escapeLatex}d) in braces, `$^{ab}$`.
 */
export function latexSuperscript(text: string): string {
  const symbol = LATEX_SYMBOL[text]
  return symbol ? `$^${symbol}$` : `$^{${escapeLatex(text)}}$`
}

/**
 * An RFC 4180 CSV field: quoted when it holds the separator, a quote, CR or LF (`sep` defaults to
 * a comma; a TSV-like file with quoting passes a tab).
 */
export function csvField(text: string, sep = ','): string {
  return text.includes(sep) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * A CSV field for text from untrusted people that a spreadsheet may open (OWASP "CSV injection"):
 * a leading `= + - @`, tab or CR gets a `'` first so it is not read as a formula, then
 * {@link csvField}.
 */
export function csvFieldFormulaSafe(text: string, sep = ','): string {
  return csvField(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text, sep)
}

/** A TSV field: tabs and line breaks written as `\t`, `\n`, `\r`, backslashes doubled. */
export function tsvField(text: string): string {
  return text.replace(
    /[\\\t\n\r]/g,
    (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!,
  )
}

// Script embedding for the HTML report: data travels as JSON inside
// `<script type="application/json">`, where the HTML parser ends the element at the first
// `</script`; so `<`, `>` and `&` are written as JSON escapes (`\u003c` …), which also covers
// `<!--` and `-->`. U+2028 and U+2029 are escaped too, for any consumer that still reads the
// text as JavaScript.

/** JSON text safe to place inside a `<script type="application/json">` element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** Script text safe to inline in a `<script>` element (no early `</script`). */
export function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--')
}
