/**
 * onnx-model.ts and tokenizer.ts import their optional packages through a variable specifier
 * (the build needs none of their types) and type them with small local interfaces. This file
 * holds those interfaces to the packages' real types: `npm test`'s type check fails if the real
 * modules are not assignable to them, and the test checks the members exist at run time.
 */
import { describe, expect, it } from 'vitest'
import type { OnnxRuntimePackage } from '../../../src/generation/bertscore/onnx-model.js'
import type { TokenizersPackage } from '../../../src/generation/bertscore/tokenizer.js'

describe('the local types of the optional packages', () => {
  it('onnxruntime-node is an OnnxRuntimePackage', async () => {
    const ort: OnnxRuntimePackage = await import('onnxruntime-node')
    expect(typeof ort.InferenceSession.create).toBe('function')
    expect(typeof ort.Tensor).toBe('function')
    expect(ort.env.versions.common).toMatch(/^\d+\.\d+\.\d+/)
    const t = new ort.Tensor('int64', new BigInt64Array([1n, 2n]), [1, 2])
    expect([t.type, [...t.dims]]).toEqual(['int64', [1, 2]])
  })

  it('@huggingface/tokenizers is a TokenizersPackage', async () => {
    const tokenizers: TokenizersPackage = await import('@huggingface/tokenizers')
    expect(typeof tokenizers.Tokenizer).toBe('function')
  })
})
