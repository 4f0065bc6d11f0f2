/**
 * Issue 10 (RETECO): a domain without `documents.jsonl` used to skip the plan's unknown-id rule
 * silently (the conventions still said unknown ids are discarded, exit 0, and validate said ok).
 * It is now an error of `score` and `validate`; `--allow-missing-corpus` scores it with the
 * domain's unknown ids kept, and the printed conventions say so. Reference: keeping every id is
 * the same as a corpus that holds every doc id of the run.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers.js'

const F = 'test/fixtures/reteco'
const RUN = `${F}/runs/1a_dups_unknown`
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-corpus-'))
const NO_CORPUS = join(tmp, 'no-corpus')
cpSync(`${F}/data`, NO_CORPUS, { recursive: true })
rmSync(join(NO_CORPUS, 'track1_tempo', 'bitcoin', 'documents.jsonl'))
// The same data whose bitcoin corpus also holds every doc id the run names there.
const FULL = join(tmp, 'full-corpus')
cpSync(`${F}/data`, FULL, { recursive: true })
const runIds = new Set(
  readFileSync(join(RUN, 'bitcoin.trec'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.split(/\s+/)[2]!),
)
const corpusFile = join(FULL, 'track1_tempo', 'bitcoin', 'documents.jsonl')
const known = new Set(
  readFileSync(corpusFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id),
)
writeFileSync(
  corpusFile,
  readFileSync(corpusFile, 'utf8') +
    [...runIds]
      .filter((id) => !known.has(id))
      .map((id) => JSON.stringify({ id, content: '' }) + '\n')
      .join(''),
)

const headline = (
  data: string,
  ...extra: string[]
): { code: number; stderr: string; value: number | null; conventions: [string, string][] } => {
  const r = cli(['score', '--preset', 'reteco-1a', '--data', data, RUN, '-f', 'json', ...extra])
  const rep = r.code === 0 ? JSON.parse(r.stdout).reports[0] : null
  return {
    code: r.code,
    stderr: r.stderr,
    value: rep?.headline.value ?? null,
    conventions: rep?.conventions ?? [],
  }
}

describe('a RETECO domain without documents.jsonl', () => {
  it('score (plan): exit 2 naming the domain and the way out', () => {
    const r = headline(NO_CORPUS)
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      `trecscore: ${join(NO_CORPUS, 'track1_tempo', 'bitcoin')}: no documents.jsonl for domain bitcoin: the plan discards run doc ids that are not in the domain's corpus, so scoring without it would change the score silently; add the corpus, or give --allow-missing-corpus (score, validate) to keep unknown ids in this domain, which the printed conventions then say\n`,
    )
  })
  it('--allow-missing-corpus: unknown ids kept there (= a corpus holding every run id), and the conventions say so', () => {
    const allowed = headline(NO_CORPUS, '--allow-missing-corpus')
    const full = headline(FULL)
    const plain = headline(`${F}/data`)
    expect(allowed.code).toBe(0)
    expect(allowed.value).toBe(full.value)
    expect(allowed.value).not.toBe(plain.value) // the fixture run has unknown ids in bitcoin
    expect(Math.abs(plain.value! - 0.37829388648015294)).toBeLessThanOrEqual(1e-12)
    expect(Object.fromEntries(allowed.conventions)['unknown doc ids']).toBe(
      "discarded (not in the domain's documents.jsonl) before the cut at 10; KEPT in bitcoin, which has no documents.jsonl (--allow-missing-corpus)",
    )
    expect(Object.fromEntries(full.conventions)['unknown doc ids']).toBe(
      "discarded (not in the domain's documents.jsonl) before the cut at 10",
    )
  })
  it('official-baseline and scorer-py keep unknown ids anyway: unaffected', () => {
    for (const c of ['official-baseline', 'scorer-py']) {
      expect(headline(NO_CORPUS, '--conventions', c).value).toBe(
        headline(`${F}/data`, '--conventions', c).value,
      )
    }
  })
  it('validate: exit 2 with the same message; --allow-missing-corpus checks the rest', () => {
    const v = cli(['validate', '--preset', 'reteco-1a', '--data', NO_CORPUS, RUN])
    expect([v.code, v.stdout]).toEqual([2, ''])
    expect(v.stderr).toContain('no documents.jsonl for domain bitcoin')
    const a = cli([
      'validate',
      '--preset',
      'reteco-1a',
      '--data',
      NO_CORPUS,
      RUN,
      '--allow-missing-corpus',
    ])
    expect(a.code).toBe(0)
    expect(a.stdout).toMatch(/ok: 0 errors/)
  })
  it('--allow-missing-corpus is refused outside RETECO', () => {
    const r = cli(['score', '--preset', 'dl21-doc', '--qrels', 'x', 'y', '--allow-missing-corpus'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--allow-missing-corpus')
  })
})
