/**
 * The drop-in's `-q` lines written by the WebAssembly line writer (`wasm/query-lines.ts`): the
 * measures' labels are laid out in its memory once, and each query's lines are written in one
 * call with its values and id, instead of three calls a line (label, id, value). A line it does
 * not write (a text such as relstring's, or a value off the fast path of `%6.4f`) is written
 * here exactly as {@link appendQueryLines} writes it, and the writer goes on after it. The bytes
 * are those of {@link appendQueryLines}, which `-Z` output and hosts without WebAssembly use.
 */
import { compileKernel, type WasmModule } from '../io/run-scan.js'
import { appendQueryLines, type ByteOutput, type QueryLine, writeQueryLine } from './output.js'
import { WASM_BASE64 } from './query-lines.wasm.js'

interface LineKernelExports {
  readonly memory: { readonly buffer: ArrayBuffer }
  readonly lines: (from: number, to: number, qidLen: number) => number
  readonly layout: (k: number) => number
  readonly written: { readonly value: number }
}

/** The compiled writer (about 1 KB), or null without WebAssembly. */
const COMPILED = compileKernel(WASM_BASE64)

/** Writes the `-q` lines of queries, one writer per evaluation (it owns its kernel instance). */
export class QueryLineWriter {
  private readonly u8: Uint8Array
  private readonly f64: Float64Array
  private readonly qid: number
  private readonly out: number
  private readonly qidCap: number
  private readonly values: number

  private constructor(
    private readonly ex: LineKernelExports,
    private readonly plan: readonly QueryLine[],
  ) {
    const buffer = ex.memory.buffer
    this.u8 = new Uint8Array(buffer)
    this.f64 = new Float64Array(buffer)
    this.qid = ex.layout(3)
    this.out = ex.layout(4)
    this.qidCap = ex.layout(8)
    this.values = ex.layout(2) >> 3
    // The plan: label start, label end, kind | value << 2 (the kinds are output.ts's, which
    // the kernel reads: 2, a text, it leaves to the caller); the labels one after the other.
    const i32 = new Int32Array(buffer)
    const planAt = ex.layout(0) >> 2
    const labels = ex.layout(1)
    let at = labels
    plan.forEach((l, k) => {
      this.u8.set(l.label, at)
      i32[planAt + 3 * k] = at - labels
      i32[planAt + 3 * k + 1] = at - labels + l.label.length
      i32[planAt + 3 * k + 2] = l.kind | (l.value << 2)
      at += l.label.length
    })
  }

  /**
   * A writer of the lines of `plan` (without `-Z`), or null where WebAssembly is not available
   * or the plan does not fit its memory.
   */
  static create(plan: readonly QueryLine[]): QueryLineWriter | null {
    const compiled = COMPILED
    if (!compiled) return null
    let ex: LineKernelExports
    try {
      ex = new compiled.api.Instance(compiled.module as WasmModule, {
        env: {
          abort() {
            throw new Error('query-lines kernel aborted')
          },
        },
      }).exports as unknown as LineKernelExports
    } catch {
      return null
    }
    const labelBytes = plan.reduce((n, l) => n + l.label.length, 0)
    const width = plan.reduce((n, l) => Math.max(n, l.value + 1), 0)
    if (plan.length > ex.layout(5) || labelBytes > ex.layout(6) || width > ex.layout(7)) return null
    return new QueryLineWriter(ex, plan)
  }

  /** Write the lines of query `qid` (a binary string) with its values (the row) and texts. */
  write(
    out: ByteOutput,
    qid: string,
    values: Float64Array,
    texts: readonly (string | null)[],
  ): void {
    const n = qid.length
    if (n > this.qidCap) {
      appendQueryLines(out, this.plan, qid, values, texts, false)
      return
    }
    this.f64.set(values, this.values)
    const u8 = this.u8
    for (let j = 0; j < n; j++) u8[this.qid + j] = qid.charCodeAt(j)
    const total = this.plan.length
    let line = 0
    let tail: Buffer | null = null
    while (line < total) {
      const stop = this.ex.lines(line, total, n)
      const bytes = this.ex.written.value
      if (bytes > 0) out.bytes(u8.subarray(this.out, this.out + bytes))
      if (stop >= total) return
      if (stop > line) {
        line = stop
        continue
      }
      // A line the kernel does not write, as appendQueryLines writes it.
      const l = this.plan[stop]!
      tail ??= Buffer.from(`${qid}\t`, 'latin1')
      writeQueryLine(out, l, qid, tail, values, texts, false)
      line = stop + 1
    }
  }
}
