/**
 * Pretty JSON as a stream of chunks: the same text as `JSON.stringify(value, replacer, 2)`
 * (two-space indent; `undefined`, functions and symbols left out of objects and written as `null`
 * in arrays; `toJSON` honoured), produced piece by piece so that a result of millions of values
 * is never one giant string (`compare -f json` on a million queries). Non-finite numbers go
 * through `nonFinite` (JSON has none; `JSON.stringify` writes `null`).
 */

/** Options of {@link jsonChunks}. */
export interface JsonChunkOptions {
  /** How a NaN or ±Infinity is written (as a JSON value). @default `null` */
  readonly nonFinite?: (v: number) => unknown
  /** Characters per chunk, about. @default 65536 */
  readonly chunkSize?: number
}

function scalar(v: unknown, nonFinite: (v: number) => unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v)
    case 'number':
      return Number.isFinite(v) ? JSON.stringify(v) : JSON.stringify(nonFinite(v))
    case 'boolean':
      return v ? 'true' : 'false'
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt')
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
    default:
      return v === null ? 'null' : undefined
  }
}

/** The chunks of the pretty JSON text of `value` (see the module comment). */
export function* jsonChunks(
  value: unknown,
  options: JsonChunkOptions = {},
): Generator<string, void, undefined> {
  const nonFinite = options.nonFinite ?? (() => null)
  const size = options.chunkSize ?? 65536
  let buf = ''
  function* flush(): Generator<string, void, undefined> {
    if (buf.length >= size) {
      yield buf
      buf = ''
    }
  }
  function* write(v: unknown, indent: string): Generator<string, void, undefined> {
    if (
      v !== null &&
      typeof v === 'object' &&
      typeof (v as { toJSON?: unknown }).toJSON === 'function'
    )
      v = (v as { toJSON: () => unknown }).toJSON()
    const s = scalar(v, nonFinite)
    if (s !== undefined || v === null || typeof v !== 'object') {
      buf += s ?? 'null'
      return
    }
    const inner = `${indent}  `
    if (Array.isArray(v)) {
      const a = v as readonly unknown[]
      if (a.length === 0) {
        buf += '[]'
        return
      }
      buf += '['
      for (let i = 0; i < a.length; i++) {
        buf += `${i ? ',' : ''}\n${inner}`
        const x = a[i]
        const t = typeof x
        // Numbers and strings directly (the bulk of a large result): no generator per value.
        if (t === 'number')
          buf += Number.isFinite(x) ? String(x) : JSON.stringify(nonFinite(x as number))
        else if (t === 'string') buf += JSON.stringify(x)
        else if (t === 'undefined' || t === 'function' || t === 'symbol') buf += 'null'
        else yield* write(x, inner)
        if (buf.length >= size) {
          yield buf
          buf = ''
        }
      }
      buf += `\n${indent}]`
      return
    }
    let first = true
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const t = typeof x
      if (t === 'undefined' || t === 'function' || t === 'symbol') continue
      buf += `${first ? '{' : ','}\n${inner}${JSON.stringify(k)}: `
      first = false
      yield* write(x, inner)
      yield* flush()
    }
    buf += first ? '{}' : `\n${indent}}`
  }
  yield* write(value, '')
  if (buf) yield buf
}
