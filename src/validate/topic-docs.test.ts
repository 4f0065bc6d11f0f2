/**
 * The open topic's byte-keyed document set and rank table: first lines returned for repeats,
 * across table growth (3,000 ids), ranks outside the dense range, and an archived topic that
 * reopens (hand-built cases).
 */
import { describe, expect, it } from 'vitest'
import { OpenTopic } from './topic-docs.js'

const bytes = (s: string) => Buffer.from(s, 'latin1')
const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength)

function add(t: OpenTopic, id: string, line: number): number {
  const b = bytes(`  ${id} `)
  return t.addDoc(b, viewOf(b), 2, 2 + id.length, line)
}

describe('OpenTopic', () => {
  it('returns the first line of a repeated id, 0 for a new one', () => {
    const t = new OpenTopic()
    for (let i = 0; i < 3000; i++) expect(add(t, `doc-${i}`, i + 1)).toBe(0)
    expect(add(t, 'doc-0', 5000)).toBe(1)
    expect(add(t, 'doc-2999', 5001)).toBe(3000)
    expect(add(t, 'doc-29990', 5002)).toBe(0)
    expect(add(t, 'a', 5003)).toBe(0)
    expect(add(t, 'ab', 5004)).toBe(0)
    expect(add(t, 'a', 5005)).toBe(5003)
  })
  it('keeps ranks dense or not, including -0 as 0', () => {
    const t = new OpenTopic()
    expect(t.addRank(1, 10)).toBe(0)
    expect(t.addRank(70_000, 11)).toBe(0)
    expect(t.addRank(-3, 12)).toBe(0)
    expect(t.addRank(0, 13)).toBe(0)
    expect(t.addRank(1, 14)).toBe(10)
    expect(t.addRank(70_000, 15)).toBe(11)
    expect(t.addRank(-3, 16)).toBe(12)
    expect(t.addRank(-0, 17)).toBe(13)
  })
  it('archives a block and reloads it when the topic reopens', () => {
    const t = new OpenTopic()
    add(t, 'x', 1)
    add(t, 'yyyyy', 2)
    t.addRank(1, 1)
    t.addRank(2, 2)
    const archived = t.archive()
    expect(archived.docs).toEqual(Int32Array.from([0, 1, 6, 1, 2]))
    expect(add(t, 'x', 3)).toBe(0) // another topic: cleared
    expect(t.addRank(1, 3)).toBe(0)
    t.archive()
    t.reload(archived)
    expect(add(t, 'yyyyy', 9)).toBe(2)
    expect(add(t, 'x', 10)).toBe(1)
    expect(t.addRank(2, 11)).toBe(2)
    expect(t.addRank(3, 12)).toBe(0)
  })
})
