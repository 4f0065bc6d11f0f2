/**
 * The drop-in's `-q` lines written by the WebAssembly line writer (`wasm/query-lines.ts`): the
 * measures' labels are laid out in its memory once, and each query's lines are written in one
 * call with its values and id, instead of three calls a line (label, id, value). A line it does
 * not write (a text such as relstring's, or a value off the fast path of `%6.4f`) is written
 * here exactly as {@link appendQueryLines} writes it, and the writer goes on after it. The bytes
 * are those of {@link appendQueryLines}, which `-Z` output and hosts without WebAssembly use.
 */
import { compileKernel, type WasmModule } from '../io/run-scan.js'
import { appendQueryLines, type ByteOutput } from './output.js'
import { WASM_BASE64 } from './query-lines.wasm.js'
import type { ActiveMeasure } from './types.js'

interface LineKernelExports {
  readonly memory: { readonly buffer: ArrayBuffer }
  readonly lines: (from: number, to: number, qidLen: number) => number
  readonly layout: (k: number) => number
  readonly written: { readonly value: number }
}

/** Line kinds of the plan (`wasm/query-lines.ts`). */
const FIXED = 0
const LONG = 1
const OTHER = 2

/** The compiled writer (about 1 KB), or null without WebAssembly. */
const COMPILED = compileKernel(WASM_BASE64)

/** One line of a query's `-q` output. */
interface PlanLine {
  readonly kind: number
  /** Index of its value in the query's row. */
  readonly value: number
  /** Its measure's index in the active measures. */
  readonly measure: number
  readonly label: Buffer
}

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
    private readonly plan: readonly PlanLine[],
    private readonly active: readonly ActiveMeasure[],
  ) {
    const buffer = ex.memory.buffer
    this.u8 = new Uint8Array(buffer)
    this.f64 = new Float64Array(buffer)
    this.qid = ex.layout(3)
    this.out = ex.layout(4)
    this.qidCap = ex.layout(8)
    this.values = ex.layout(2) >> 3
    // The plan: label start, label end, kind | value << 2; the labels one after the other.
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
   * A writer for `active` (without `-Z`), or null where WebAssembly is not available or the
   * measures do not fit its memory.
   */
  static create(active: readonly ActiveMeasure[]): QueryLineWriter | null {
    const compiled = COMPILED
    if (!compiled) return null
    const plan: PlanLine[] = []
    let off = 0
    active.forEach((m, mi) => {
      const kind = m.def.perQuery
      if (kind === 'double')
        m.names.forEach((_, k) =>
          plan.push({ kind: FIXED, value: off + k, measure: mi, label: m.labelBytes[k]! }),
        )
      else if (kind === 'long')
        plan.push({ kind: LONG, value: off, measure: mi, label: m.labelBytes[0]! })
      else if (kind === 'string')
        plan.push({ kind: OTHER, value: off, measure: mi, label: m.labelBytes[0]! })
      off += m.names.length
    })
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
    if (plan.length > ex.layout(5) || labelBytes > ex.layout(6) || off > ex.layout(7)) return null
    return new QueryLineWriter(ex, plan, active)
  }

  /** Write the lines of query `qid` (a binary string) with its values and texts. */
  write(
    out: ByteOutput,
    qid: string,
    values: Float64Array,
    texts: readonly (string | null)[],
  ): void {
    const n = qid.length
    if (n > this.qidCap) {
      appendQueryLines(out, qid, values, texts, this.active, false)
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
      if (l.kind === OTHER)
        out.text(`${this.active[l.measure]!.labels[0]}${qid}\t'${texts[l.measure] ?? ''}'\n`)
      else {
        tail ??= Buffer.from(`${qid}\t`, 'latin1')
        out.bytes(l.label)
        out.bytes(tail)
        if (l.kind === FIXED) out.fixedLine(values[l.value]!)
        else out.longLine(values[l.value]!)
      }
      line = stop + 1
    }
  }
}
