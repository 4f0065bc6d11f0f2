#!/usr/bin/env node
// Generates the bundled demo benchmark (demo/): a small synthetic test collection of our own,
// 30 queries with graded judgments (0-3), and three runs of different quality. Deterministic:
// re-running it rewrites byte-identical files. Usage: node scripts/make-demo.mjs
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'demo')

// Small, seeded PRNG (mulberry32) so the data is reproducible everywhere.
function rng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const rand = rng(2027)
const QUERIES = 30
const DOCS = 400
const qrels = []
const truth = new Map() // qid -> Map(doc -> grade)
for (let q = 1; q <= QUERIES; q++) {
  const qid = `q${String(q).padStart(2, '0')}`
  const grades = new Map()
  const judged = 25 + Math.floor(rand() * 20)
  while (grades.size < judged) {
    const doc = `doc${String(Math.floor(rand() * DOCS)).padStart(4, '0')}`
    if (grades.has(doc)) continue
    const r = rand()
    grades.set(doc, r < 0.55 ? 0 : r < 0.8 ? 1 : r < 0.93 ? 2 : 3)
  }
  truth.set(qid, grades)
  for (const [doc, g] of [...grades].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    qrels.push(`${qid} 0 ${doc} ${g}`)
}

// A run ranks 100 docs: true grade plus noise; `skill` scales how much the grade helps.
function makeRun(tag, skill, seed) {
  const r = rng(seed)
  const lines = []
  for (const [qid, grades] of truth) {
    const scored = []
    for (let d = 0; d < DOCS; d++) {
      const doc = `doc${String(d).padStart(4, '0')}`
      const g = grades.get(doc) ?? 0
      scored.push([doc, skill * g + r() * 3])
    }
    scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1))
    scored
      .slice(0, 100)
      .forEach(([doc, s], i) => lines.push(`${qid} Q0 ${doc} ${i + 1} ${s.toFixed(4)} ${tag}`))
  }
  return lines.join('\n') + '\n'
}

mkdirSync(join(root, 'runs'), { recursive: true })
writeFileSync(join(root, 'qrels.txt'), qrels.join('\n') + '\n')
writeFileSync(join(root, 'runs', 'bm25.run'), makeRun('bm25', 0.35, 11))
writeFileSync(join(root, 'runs', 'dense.run'), makeRun('dense', 0.6, 22))
writeFileSync(join(root, 'runs', 'hybrid.run'), makeRun('hybrid', 0.9, 33))
console.log(`wrote ${root}: ${QUERIES} queries, ${qrels.length} judgments, 3 runs`)
