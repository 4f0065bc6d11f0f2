/**
 * The committed WordNet 3.0 index and NLTK 3.8's morphy/synsets semantics: facts read off Debian's
 * wordnet-base files (index.*, *.exc), the NLTK 3.8 vs 3.9 morphy difference flagged in
 * meteor.jsonl (g264, g269, g276), and that the committed index is what scripts/build-wordnet.mjs
 * builds from /usr/share/wordnet (skipped, with a warning, where wordnet-base is not installed).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  loadWordNet,
  meteorScoreTokens,
  parseWordNetIndex,
  porterStem,
  type WordNet,
  WordNetCache,
} from '../../../src/entries/textsim.js'
import { METEOR_RECORDS } from './fixtures.js'

const ROOT = join(import.meta.dirname, '..', '..', '..')
let wordnet: WordNet
beforeAll(async () => {
  wordnet = await loadWordNet()
})

describe('bundled WordNet 3.0 index', () => {
  it('is WordNet 3.0; a WordNetCache loads it once, loadWordNet keeps nothing', async () => {
    expect(wordnet.version).toBe('WordNet 3.0')
    const cache = new WordNetCache()
    const first = await cache.load()
    expect(first.version).toBe('WordNet 3.0')
    expect(await cache.load()).toBe(first)
    expect(await cache.load({ morphy: 'nltk38' })).toBe(first)
    expect(await new WordNetCache().load()).not.toBe(first)
    expect(first).not.toBe(wordnet)
    await expect(cache.load({ path: '/nonexistent/wordnet.txt.gz' })).rejects.toThrow(
      '/nonexistent/wordnet.txt.gz: cannot read the WordNet index: no such file',
    )
  })

  it('morphy: exception lists, suffix rules, NLTK order', () => {
    expect(wordnet.morphy('geese', 'n')).toEqual(['goose']) // noun.exc
    expect(wordnet.morphy('went', 'v')).toEqual(['go']) // verb.exc
    expect(wordnet.morphy('dogs', 'n')).toEqual(['dog'])
    expect(wordnet.morphy('running', 'v')).toEqual(['run'])
    expect(wordnet.morphy('better', 'a')).toEqual(['better', 'good', 'well']) // adj.exc: better good well
    expect(wordnet.morphy('xyzzy', 'n')).toEqual([])
  })

  it('morphy: NLTK 3.8 keeps applying the rules; 3.9 stops after one round', () => {
    // "assess" is no noun; 3.8 goes assess → asses → ass (a noun), 3.9 finds nothing.
    expect(wordnet.morphy('assess', 'n')).toEqual(['ass'])
    expect(wordnet.withMorphy('nltk39').morphy('assess', 'n')).toEqual([])
  })

  it('synonyms: lemma names without "_" over all POS, case kept', () => {
    const dog = wordnet.synonyms('dog')
    expect(dog.has('hound')).toBe(true)
    expect(dog.has('frankfurter')).toBe(true)
    expect([...dog].some((n) => n.includes('_'))).toBe(false)
    expect(wordnet.synonyms('big').has('great')).toBe(true)
    // WordNet 3.0: "bank" (v) is a synonym of "trust", not of "count" (3.1 differs)
    expect(wordnet.synonyms('bank').has('trust')).toBe(true)
    expect(wordnet.synonyms('bank').has('count')).toBe(false)
    expect(wordnet.synonyms('Dog')).toEqual(dog)
    expect(wordnet.synonyms('qqqq').size).toBe(0)
  })

  it('the fixture synonym matches are WordNet-stage matches: neither equal nor same-stem, in syn(h)', () => {
    let wordnetMatches = 0
    for (const r of METEOR_RECORDS.filter(
      (x) => x.category === 'synonyms' || x.category === 'note_example',
    )) {
      const v = r.variants.split
      v.per_reference.forEach((pr, k) => {
        for (const [h, ref] of pr.matches) {
          const a = v.hypothesis_tokens[h]!.toLowerCase()
          const b = v.reference_tokens[k]![ref]!.toLowerCase()
          if (a === b || porterStem(a) === porterStem(b)) continue
          expect(wordnet.synonyms(porterStem(a)).has(porterStem(b)), `${r.id}: ${a} ~ ${b}`).toBe(
            true,
          )
          wordnetMatches++
        }
      })
    }
    expect(wordnetMatches).toBeGreaterThanOrEqual(10)
  })

  it('the morphy mode changes exactly the flagged fixture cases (nltk39_morphy_changes_score)', () => {
    const wn39 = wordnet.withMorphy('nltk39')
    const changed: string[] = []
    for (const r of METEOR_RECORDS) {
      for (const v of Object.values(r.variants)) {
        if (v.meteor === null) continue
        const a = meteorScoreTokens(v.hypothesis_tokens, v.reference_tokens, {
          wordnet: wn39,
          params: r.params,
        })
        if (a.perReference.some((d, k) => d.score !== v.per_reference[k]!.score)) changed.push(r.id)
        if (v.nltk39_morphy_changes_score) expect(changed.at(-1), r.id).toBe(r.id)
      }
    }
    expect([...new Set(changed)].sort()).toEqual(['g264', 'g269', 'g276'])
  })

  it('refuses hostile tokens that would make morphy run away, instead of hanging', () => {
    const wn = parseWordNetIndex(
      'trecscore-wordnet/1 WordNet 3.0 test\n@synsets 0\n@index n 0\n@index v 0\n@index a 0\n@index r 0\n@exc n 0\n@exc v 0\n@exc a 0\n@exc r 0\n',
    )
    expect(wn.synonyms('dogs')).toEqual(new Set())
    expect(() => wn.synonyms('es'.repeat(100_000) + 'ing')).toThrow(/morphy/)
  })

  it('rejects a file that is not an index', () => {
    expect(() => parseWordNetIndex('hello')).toThrow(/trecscore-wordnet/)
  })
})

const WN_DIR = '/usr/share/wordnet'
const haveWordnet = existsSync(join(WN_DIR, 'data.noun'))
if (!haveWordnet)
  console.warn(
    `wordnet.test.ts: ${WN_DIR} missing (apt-get install wordnet-base); skipping the rebuild check`,
  )
describe.skipIf(!haveWordnet)(
  `data/wordnet is what scripts/build-wordnet.mjs builds from ${WN_DIR}`,
  () => {
    it('build-wordnet.mjs --check', () => {
      const r = spawnSync(
        process.execPath,
        [join(ROOT, 'scripts', 'build-wordnet.mjs'), '--check', WN_DIR],
        { encoding: 'utf8' },
      )
      expect(r.stdout + r.stderr).toMatch(/up to date/)
      expect(r.status).toBe(0)
    })
  },
)
