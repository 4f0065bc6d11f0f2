import { describe, expect, it } from 'vitest'
import { GradeArena } from './grade-arena.js'

describe('GradeArena', () => {
  it('hands out zeroed, non-overlapping views of shared blocks', () => {
    const arena = new GradeArena()
    const a = arena.take(3)
    const b = arena.take(5)
    expect(a.buffer).toBe(b.buffer)
    expect([...a, ...b]).toEqual(new Array(8).fill(0))
    a.fill(7)
    expect([...b]).toEqual([0, 0, 0, 0, 0])
    expect(b.byteOffset).toBe(a.byteOffset + a.byteLength)
  })

  it('starts a new, larger block when one is full, up to 1 MiB, and never reuses one', () => {
    const arena = new GradeArena()
    const first = arena.take(1000)
    const second = arena.take(100)
    expect(second.buffer).not.toBe(first.buffer)
    expect(first.buffer.byteLength).toBe(4096)
    expect(second.buffer.byteLength).toBe(8192)
    const sizes = new Set<number>()
    for (let i = 0; i < 200; i++) sizes.add(arena.take(30_000).buffer.byteLength)
    expect(Math.max(...sizes)).toBe(1 << 20)
    first.fill(1)
    expect(arena.take(10).every((g) => g === 0)).toBe(true)
  })

  it('a request over a quarter of the largest block gets its own buffer', () => {
    const arena = new GradeArena()
    const big = arena.take((1 << 16) + 1)
    expect(big.byteOffset).toBe(0)
    expect(big.buffer.byteLength).toBe(((1 << 16) + 1) * 4)
    const small = arena.take(2)
    expect(small.buffer).not.toBe(big.buffer)
  })

  it('arenas are independent: one evaluation never carves from another', () => {
    const a = new GradeArena().take(4)
    const b = new GradeArena().take(4)
    expect(a.buffer).not.toBe(b.buffer)
  })
})
