/**
 * The run-line kernel as JavaScript sees it: WebAssembly compiled from `wasm/run-scan.ts`
 * (`scripts/build-wasm.mjs`), which takes the lines of a run in the usual shape 16 bytes at a
 * time and writes, per line, the doc id's hash, its score and where its id lies. `TrecRunParser`
 * hands it windows of complete lines and reads those records; any line it does not take goes to
 * the parser's own line reader. Where WebAssembly (with SIMD) is not available, the parser's
 * JavaScript loop does the same work.
 */

import { WASM_BASE64 } from './run-scan.wasm.js'

/** The part of the WebAssembly API used here (Node 20's types do not declare it). */
export interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => WasmModule
  readonly Instance: new (module: WasmModule, imports: object) => { readonly exports: unknown }
}
/** A compiled WebAssembly module. */
export type WasmModule = { readonly __wasmModule?: never }

interface KernelExports {
  readonly memory: { readonly buffer: ArrayBuffer }
  readonly scan: (
    from: number,
    len: number,
    qidLen: number,
    flags: number,
    maxLine: number,
  ) => number
  readonly check: (
    from: number,
    len: number,
    qidLen: number,
    tagLen: number,
    flags: number,
    maxLine: number,
  ) => number
  readonly layout: (k: number) => number
  readonly stopPos: { readonly value: number }
  readonly groups: { readonly value: number }
  readonly lastTag: { readonly value: number }
}

const WASM: WasmApi | undefined = (globalThis as { WebAssembly?: WasmApi }).WebAssembly

/** Flags of {@link RunScanKernel.scan}. */
export const SCAN_STRICT = 1
export const SCAN_COMMENTS = 2
export const SCAN_HAVE_QID = 4

/**
 * One instance of the kernel and views of its memory. Offsets named for typed arrays are in
 * elements of that array (`hash` indexes `i32`, `score` indexes `f64`), the others in bytes.
 */
export class RunScanKernel {
  readonly u8: Uint8Array
  readonly i32: Int32Array
  readonly f64: Float64Array
  /** Byte offset of the input window. */
  readonly input: number
  /** Byte offset where the previous line's query id goes. */
  readonly qid: number
  /** `i32` index of the hashes, one per record. */
  readonly hash: number
  /** `f64` index of the scores. */
  readonly score: number
  /** `i32` index of each record's doc id end in `ids` (the start is the previous one's end). */
  readonly idEnd: number
  /** `i32` index of each record's doc id start in the window. */
  readonly docStart: number
  /** `i32` index of the query id starts: (record, start, end in the window) each. */
  readonly group: number
  /** Byte offset of the doc ids of the records, one after the other. */
  readonly ids: number
  /** Largest window. */
  readonly windowBytes: number
  /** Longest previous query id that can be handed over. */
  readonly qidBytes: number
  /** `f64` index of the ranks {@link check} writes, one per record. */
  readonly rank: number
  /** Byte offset where {@link check} finds the previous line's tag. */
  readonly tag: number
  /** Longest tag that can be handed over. */
  readonly tagBytes: number
  /** Set while a parser is using this instance (a parser that finds it set uses its own loop). */
  busy = false
  private readonly ex: KernelExports

  constructor(api: WasmApi, module: WasmModule) {
    const ex = new api.Instance(module, {
      env: {
        abort() {
          throw new Error('run-scan kernel aborted')
        },
      },
    }).exports as unknown as KernelExports
    this.ex = ex
    const buffer = ex.memory.buffer
    this.u8 = new Uint8Array(buffer)
    this.i32 = new Int32Array(buffer)
    this.f64 = new Float64Array(buffer)
    const at = (k: number): number => ex.layout(k)
    this.input = at(0)
    this.qid = at(1)
    this.hash = at(2) >> 2
    this.score = at(3) >> 3
    this.idEnd = at(4) >> 2
    this.docStart = at(5) >> 2
    this.group = at(6) >> 2
    this.ids = at(7)
    this.windowBytes = at(8)
    this.qidBytes = at(9)
    this.rank = at(10) >> 3
    this.tag = at(11)
    this.tagBytes = at(12)
  }

  /**
   * Take the lines of the window from byte `from` to `len` (the window's last byte is a
   * newline) until one is not in the usual shape; returns the records written. The previous
   * line's query id, `qidLen` bytes at `qid`, is used with {@link SCAN_HAVE_QID}.
   */
  scan(from: number, len: number, qidLen: number, flags: number, maxLine: number): number {
    return this.ex.scan(from, len, qidLen, flags, maxLine)
  }

  /**
   * {@link scan} for the run validator: takes only lines it can check without the validator's
   * line reader (bytes 0x21..0x7F in fields, no CR, six fields, a rank of 1 to 15 digits, the
   * tag of the line before: `tagLen` bytes at `tag`); writes ranks, not the doc ids' bytes.
   */
  check(
    from: number,
    len: number,
    qidLen: number,
    tagLen: number,
    flags: number,
    maxLine: number,
  ): number {
    return this.ex.check(from, len, qidLen, tagLen, flags, maxLine)
  }

  /** Where the last scan stopped, in the window: its end, or the first line it did not take. */
  get stopPos(): number {
    return this.ex.stopPos.value
  }
  /** Query id starts the last scan wrote. */
  get groups(): number {
    return this.ex.groups.value
  }
  /** Window offset of the last taken line's tag, -1 if none. */
  get lastTag(): number {
    return this.ex.lastTag.value
  }
}

function decode(b64: string): Uint8Array {
  const s = atob(b64)
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}

/**
 * A kernel embedded as base64 (`scripts/build-wasm.mjs`), compiled, with the WebAssembly API to
 * instantiate it; null where WebAssembly (with SIMD) is not available.
 */
export function compileKernel(base64: string): { api: WasmApi; module: WasmModule } | null {
  try {
    if (!WASM) return null
    return { api: WASM, module: new WASM.Module(decode(base64)) }
  } catch {
    return null
  }
}

function instantiate(): RunScanKernel | null {
  const k = compileKernel(WASM_BASE64)
  try {
    return k ? new RunScanKernel(k.api, k.module) : null
  } catch {
    return null
  }
}

/**
 * This thread's kernel, or null where WebAssembly with SIMD is not available. Its memory (about
 * 1.6 MB, touched only when used) is scratch space reused by every parser on the thread, one
 * at a time (`busy`).
 */
export const RUN_SCAN_KERNEL: RunScanKernel | null = instantiate()
