/**
 * Issue 10 item 9: gzipped RETECO runs score on every route (plan, official-baseline,
 * scorer-py, validate, compare, report), with the recorded reference values of the unzipped run
 * (test/fixtures/reteco/expected/1a_dups_unknown) and the same output as the plain files.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const F = 'test/fixtures/reteco'
const DATA = `${F}/data`
const PLAIN = `${F}/runs/1a_dups_unknown`
const EXPECTED = `${F}/expected/1a_dups_unknown`
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-retecogz-'))
const GZ = join(tmp, 'gz')
mkdirSync(GZ)
for (const name of readdirSync(PLAIN))
  writeFileSync(join(GZ, `${name}.gz`), gzipSync(readFileSync(join(PLAIN, name))))
// One gzipped file for all Track 1 domains (single-file layout).
const SINGLE = join(tmp, 'all.trec.gz')
writeFileSync(
  SINGLE,
  gzipSync(
    Buffer.concat(
      readdirSync(PLAIN)
        .sort()
        .map((n) => readFileSync(join(PLAIN, n))),
    ),
  ),
)

const json = (file: string): any => JSON.parse(readFileSync(file, 'utf8'))
const plan = json(`${EXPECTED}/plan_ref.json`).scores.headline['nDCG@10'] as number
const official = json(`${EXPECTED}/pytrec_official.json`).official_macro['NDCG@10'] as number
const scorer = json(`${EXPECTED}/scorer_py.json`).pooled_all_domains.json.result[
  'nDCG@10'
] as number

function score(run: string, conventions: string): { code: number; stderr: string; report: any } {
  const r = cli([
    'score',
    '--preset',
    'reteco-1a',
    '--data',
    DATA,
    run,
    '--conventions',
    conventions,
    '-f',
    'json',
  ])
  return {
    code: r.code,
    stderr: r.stderr,
    report: r.code === 0 ? JSON.parse(r.stdout).reports[0] : null,
  }
}

describe('gzipped RETECO runs', () => {
  for (const [conventions, want] of [
    ['plan', plan],
    ['official-baseline', official],
    ['scorer-py', scorer],
  ] as const) {
    it(`score --conventions ${conventions}: the reference headline, as the plain run`, () => {
      const gz = score(GZ, conventions)
      expect([gz.code, gz.stderr]).toEqual([0, ''])
      if (conventions === 'plan')
        expect(Math.abs(gz.report.headline.value - want)).toBeLessThanOrEqual(1e-12)
      else expect(gz.report.headline.value).toBe(want)
      const plain = score(PLAIN, conventions).report
      const strip = (r: any): string =>
        JSON.stringify({
          ...r,
          run: null,
          counts: r.counts.map((c: any) => ({ ...c, file: null })),
        })
      expect(strip(gz.report)).toBe(strip(plain))
      // One gzipped file for every domain scores the same headline.
      expect(score(SINGLE, conventions).report.headline.value).toBe(gz.report.headline.value)
    })
  }
  it('validate --preset reteco-1a: the same verdict and counts as the plain run', () => {
    const gz = cli(['validate', '--preset', 'reteco-1a', '--data', DATA, GZ])
    const plain = cli(['validate', '--preset', 'reteco-1a', '--data', DATA, PLAIN])
    expect(gz.code).toBe(plain.code)
    expect(gz.stdout.split('\n').at(-2)).toBe(plain.stdout.split('\n').at(-2)!.replace(PLAIN, GZ))
    expect(gz.stdout).toContain('format_checker.py: VALID')
  })
  it('compare and report --preset reteco-1a read .gz runs', () => {
    const c = cli(['compare', '--preset', 'reteco-1a', '--data', DATA, GZ, PLAIN, '-f', 'json'])
    expect(c.code).toBe(0)
    const means = (
      JSON.parse(c.stdout) as { overall: { measure: string; means: number[] }[] }
    ).overall.find((o) => o.measure === 'nDCG@10')!.means
    expect(means[0]).toBe(means[1])
    expect(Math.abs(means[0]! - plan)).toBeLessThanOrEqual(1e-12)
    const out = join(tmp, 'r.html')
    const r = cli(['report', '--preset', 'reteco-1a', '--data', DATA, GZ, PLAIN, '--out', out])
    expect(r.code).toBe(0)
    expect(existsSync(out)).toBe(true)
  })
})

describe('a RETECO domain whose name holds a dot (issue 10)', () => {
  it('its run file <domain>.trec is matched: score (plan, official-baseline) and validate as under the plain name', async () => {
    const { cpSync, renameSync } = await import('node:fs')
    const data = join(tmp, 'dotted')
    cpSync(DATA, data, { recursive: true })
    renameSync(join(data, 'track1_tempo', 'bitcoin'), join(data, 'track1_tempo', 'bit.coin'))
    const manifest = json(join(data, 'split_manifest.json'))
    manifest.track1_tempo['bit.coin'] = manifest.track1_tempo.bitcoin
    delete manifest.track1_tempo.bitcoin
    writeFileSync(join(data, 'split_manifest.json'), JSON.stringify(manifest))
    const run = join(tmp, 'dotted-run')
    mkdirSync(run)
    for (const name of readdirSync(PLAIN))
      writeFileSync(join(run, name.replace('bitcoin', 'bit.coin')), readFileSync(join(PLAIN, name)))
    const r = cli(['score', '--preset', 'reteco-1a', '--data', data, run, '-f', 'json'])
    expect([r.code, r.stderr]).toEqual([0, ''])
    const rep = JSON.parse(r.stdout).reports[0]
    expect(rep.domains).toEqual(['bit.coin', 'history', 'law'])
    expect(Math.abs(rep.headline.value - plan)).toBeLessThanOrEqual(1e-12)
    expect(rep.counts.find((c: any) => c.domain === 'bit.coin').file).toBe(
      join(run, 'bit.coin.trec'),
    )
    const v = cli(['validate', '--preset', 'reteco-1a', '--data', data, run])
    expect(v.code).toBe(0)
    expect(v.stdout).not.toMatch(/stray|no run file/)
    const ob = cli([
      'score',
      '--preset',
      'reteco-1a',
      '--data',
      data,
      run,
      '--conventions',
      'official-baseline',
      '-f',
      'json',
    ])
    expect(ob.code).toBe(0)
    expect(JSON.parse(ob.stdout).reports[0].headline.value).toBe(official)
  })
})
