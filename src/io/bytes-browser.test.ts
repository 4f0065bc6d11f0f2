import { afterEach, describe, expect, it, vi } from 'vitest'
import { binaryBytes, decodeId } from './bytes.js'

describe('bytes helpers without Node (the browser check of the upload page)', () => {
  afterEach(() => vi.unstubAllGlobals())
  it('decodeId decodes UTF-8 with TextDecoder when there is no Buffer, keeping a BOM', () => {
    const id = String.fromCharCode(0xef, 0xbb, 0xbf, 0x71, 0xc3, 0xa9) // BOM, q, é
    const withBuffer = decodeId(id)
    vi.stubGlobal('Buffer', undefined)
    expect(decodeId(id)).toBe(withBuffer)
    expect(decodeId(id)).toBe('\ufeffqé')
    expect(decodeId('plain')).toBe('plain')
  })
  it('binaryBytes is the inverse of a binary string', () => {
    expect([...binaryBytes(String.fromCharCode(0, 0x7f, 0x80, 0xff))]).toEqual([
      0, 0x7f, 0x80, 0xff,
    ])
  })
})
