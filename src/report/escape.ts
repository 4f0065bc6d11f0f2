/**
 * The one place where text is escaped for the markup formats trecscore writes: Markdown (tables
 * and inline text) and HTML (element content and quoted attribute values). Every renderer calls
 * these; control characters are a separate concern ({@link escapeControlChars}), applied first
 * where a renderer shows ids to people.
 */

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
 * Text safe in HTML element content and in double-, single- or backtick-quoted attribute values:
 * `& < > " ' `` ` as entities.
 */
export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIAL, (c) => HTML_ENTITY[c]!)
}
