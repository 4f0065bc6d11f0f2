import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { evaluate } from '../../evaluate/evaluate.js'
import { parseRun, readQrels } from '../../io/read.js'
import { makeRetecoSample, writeRetecoSample } from './sample.js'
import { validateRetecoRun } from './validate.js'

const DATA = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'reteco', 'data')
const tmp = mkdtempSync(join(tmpdir(), 'reteco-sample-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('makeRetecoSample', () => {
  it.each(['1a', '1b', '2a', '2c'] as const)(
    '%s: validates clean and scores with evaluate',
    async (subtrack) => {
      const sample = await makeRetecoSample({ subtrack, data: DATA, seed: 7, depth: 50 })
      const out = join(tmp, `s${subtrack}${sample.layout === 'single-file' ? '.trec' : ''}`)
      const paths = await writeRetecoSample(sample, out)
      expect(paths.length).toBe(sample.layout === 'single-file' ? 1 : 3)
      const v = await validateRetecoRun(out, { subtrack, data: DATA })
      expect([v.errors, v.warnings]).toEqual([0, 0])
      for (const f of v.files) expect(f.agrees).toBe(true)
      const track = subtrack.startsWith('1') ? 'track1_tempo' : 'track2_recor'
      for (const domain of track === 'track1_tempo'
        ? ['bitcoin', 'history', 'law']
        : ['biology', 'drones', 'earth_science']) {
        const qrels = await readQrels(
          join(DATA, track, domain, subtrack === '1b' ? 'qrels_steps_dev.txt' : 'qrels_dev.txt'),
        )
        const run = parseRun(
          readFileSync(sample.layout === 'single-file' ? out : join(out, `${domain}.trec`)),
        ).value
        const r = evaluate(qrels, run, ['nDCG@10'])
        const value = r.aggregates.find((a) => a.measure === 'nDCG@10')!.value
        expect(Number.isFinite(value), domain).toBe(true)
        expect(r.perQuery.length).toBeGreaterThanOrEqual(qrels.queries.size)
      }
    },
  )
  it('is deterministic for a seed and differs between seeds', async () => {
    const a = await makeRetecoSample({ subtrack: '1a', data: DATA, seed: 3, depth: 20 })
    const b = await makeRetecoSample({ subtrack: '1a', data: DATA, seed: 3, depth: 20 })
    const c = await makeRetecoSample({ subtrack: '1a', data: DATA, seed: 4, depth: 20 })
    expect(a.files).toEqual(b.files)
    expect(a.files.get('run.trec')).not.toBe(c.files.get('run.trec'))
    expect(a.topics).toBe(35)
    const first = a.files.get('run.trec')!.split('\n')[0]!.split(' ')
    expect(first.slice(3)).toEqual(['1', '1.000000', 'trecscore-sample-1a-seed3'])
  })
  it('a split without qrels (the hidden test): topics come from the task files', async () => {
    const data = join(tmp, 'hidden')
    cpSync(DATA, data, { recursive: true })
    for (const track of ['track1_tempo', 'track2_recor']) {
      for (const domain of readdirSync(join(data, track))) {
        const dir = join(data, track, domain)
        for (const f of readdirSync(dir)) {
          if (f.startsWith('qrels_')) rmSync(join(dir, f))
          else if (f.includes('_dev.'))
            renameSync(join(dir, f), join(dir, f.replace('_dev.', '_test.')))
        }
      }
    }
    for (const subtrack of ['1a', '1b', '2a'] as const) {
      const sample = await makeRetecoSample({ subtrack, data, split: 'test', depth: 10 })
      const out = join(tmp, `hidden-${subtrack}${sample.layout === 'single-file' ? '.trec' : ''}`)
      await writeRetecoSample(sample, out)
      const v = await validateRetecoRun(out, { subtrack, data, split: 'test' })
      expect([subtrack, v.errors, v.warnings]).toEqual([subtrack, 0, 0])
      // Every topic of the task files, including those whose gold is not in the corpus.
      expect(sample.topics, subtrack).toBe({ '1a': 35, '1b': 85, '2a': 56 }[subtrack])
    }
  })
  it('caps the depth at the corpus size and rejects bad options', async () => {
    const s = await makeRetecoSample({ subtrack: '2a', data: DATA, depth: 1000 })
    const drones = s.files.get('drones.trec')!.trim().split('\n')
    expect(drones.length).toBe(18 * 75)
    await expect(makeRetecoSample({ subtrack: '1a', data: DATA, depth: 1001 })).rejects.toThrow(
      /--depth/,
    )
    await expect(makeRetecoSample({ subtrack: '1a', data: join(tmp, 'nowhere') })).rejects.toThrow(
      /not a RETECO data directory/,
    )
  })
})
