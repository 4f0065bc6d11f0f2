/**
 * Escaping for the HTML report. Data travels as JSON inside `<script type="application/json">`,
 * where the HTML parser ends the element at the first `</script`; so `<`, `>` and `&` are written
 * as JSON escapes (`\u003c` …), which also covers `<!--` and `-->`. U+2028 and U+2029 are escaped
 * too, for any consumer that still reads the text as JavaScript. Text placed in markup is
 * entity-escaped.
 */

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
