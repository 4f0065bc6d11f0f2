/**
 * The model edge of BERTScore: an onnxruntime-node `InferenceSession` on `<modelDir>/model.onnx`,
 * CPU only, no downloads. It feeds `input_ids` and `attention_mask` (and all-zero
 * `token_type_ids` when the graph takes them, as bert_score's `model(x, attention_mask=...)`
 * does) as int64 `[batch, seq]`, right-padded with the pad id, and returns, per text, the
 * hidden states of the chosen output `[seq, hidden]` without the padding rows.
 *
 * The recommended export is the encoder truncated to `num_layers` layers (bert_score itself
 * drops every layer above `num_layers`), so that its `last_hidden_state` is hidden state
 * number `num_layers` (0 = the embedding output). A graph that exposes `hidden_states.<L>`
 * outputs works too; `scorer.ts` picks the output.
 *
 * onnxruntime-node is an optional package: `scorer.ts` imports this module on first use (through
 * `importOptional`), so loading trecscore does not load the native binding, and a missing
 * onnxruntime-node is a one-line message saying what to install. Its specifier is a variable, so
 * the build needs none of its types (a clone without it still builds); {@link OnnxRuntimePackage}
 * is the part used, checked against the real types in `optional-package-types.test.ts`.
 */

/** An onnxruntime tensor, as far as this module uses it. */
export interface OrtTensor {
  readonly dims: readonly number[]
  readonly type: string
  readonly data: unknown
  dispose(): void
}

/** What this module uses of onnxruntime-node. */
export interface OnnxRuntimePackage {
  readonly InferenceSession: {
    create(
      path: string,
      options: {
        executionProviders: string[]
        graphOptimizationLevel: 'all'
        intraOpNumThreads?: number
        interOpNumThreads?: number
      },
    ): Promise<{
      readonly inputNames: readonly string[]
      readonly outputNames: readonly string[]
      run(
        feeds: Record<string, OrtTensor>,
        fetches: readonly string[],
      ): Promise<Record<string, OrtTensor>>
      release(): Promise<void>
    }>
  }
  readonly Tensor: new (type: 'int64', data: BigInt64Array, dims: readonly number[]) => OrtTensor
  readonly env: { readonly versions: { readonly common: string; readonly node?: string } }
}

const ONNXRUNTIME: string = 'onnxruntime-node'
const ort = (await import(ONNXRUNTIME)) as OnnxRuntimePackage

/** Per-text hidden states, row-major `[tokens, dim]`. */
export interface EncodedBatch {
  readonly dim: number
  readonly vectors: readonly Float32Array[]
}

/** An open ONNX encoder. */
export interface OnnxEncoder {
  readonly inputNames: readonly string[]
  readonly outputNames: readonly string[]
  /** onnxruntime-node's version. */
  readonly runtimeVersion: string
  /** Runs the texts (token ids with specials) as one padded batch; returns output `outputName`. */
  embed(texts: readonly (readonly number[])[], outputName: string): Promise<EncodedBatch>
  close(): Promise<void>
}

/** Options of {@link openOnnxEncoder}. */
export interface OnnxEncoderOptions {
  /** Id written into padded positions (masked out). */
  readonly padId: number
  /** onnxruntime intra-op threads; default: onnxruntime's choice. */
  readonly threads?: number
}

/** Opens `modelPath` on the CPU execution provider. */
export async function openOnnxEncoder(
  modelPath: string,
  options: OnnxEncoderOptions,
): Promise<OnnxEncoder> {
  const session = await ort.InferenceSession.create(modelPath, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    ...(options.threads === undefined
      ? {}
      : { intraOpNumThreads: options.threads, interOpNumThreads: 1 }),
  })
  const inputNames = [...session.inputNames]
  const outputNames = [...session.outputNames]
  const wantsTypes = inputNames.includes('token_type_ids')
  return {
    inputNames,
    outputNames,
    runtimeVersion: ort.env.versions.node ?? ort.env.versions.common,
    async embed(texts, outputName) {
      const b = texts.length
      const s = Math.max(...texts.map((t) => t.length))
      const ids = new BigInt64Array(b * s).fill(BigInt(options.padId))
      const mask = new BigInt64Array(b * s)
      texts.forEach((t, i) => {
        t.forEach((id, j) => {
          ids[i * s + j] = BigInt(id)
          mask[i * s + j] = 1n
        })
      })
      const feeds: Record<string, OrtTensor> = {
        input_ids: new ort.Tensor('int64', ids, [b, s]),
        attention_mask: new ort.Tensor('int64', mask, [b, s]),
      }
      if (wantsTypes)
        feeds['token_type_ids'] = new ort.Tensor('int64', new BigInt64Array(b * s), [b, s])
      const out = (await session.run(feeds, [outputName]))[outputName]!
      const dims = out.dims
      if (dims.length !== 3 || dims[0] !== b || dims[1] !== s || out.type !== 'float32') {
        throw new Error(
          `model output ${outputName} is ${out.type} [${dims.join(', ')}], expected float32 [${b}, ${s}, hidden]`,
        )
      }
      const dim = dims[2]!
      const data = out.data as Float32Array
      const vectors = texts.map((t, i) => data.slice(i * s * dim, (i * s + t.length) * dim))
      out.dispose()
      return { dim, vectors }
    },
    async close() {
      await session.release()
    },
  }
}
