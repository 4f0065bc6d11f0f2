/**
 * `trecscore textsim` end to end on the built CLI (`npm test` builds first): the copied fixtures
 * scored through the command (values compared with ===), bad lines reported with file:line and id
 * while the others are scored, option errors, --out, the nltk tokenization (Punkt parameters from
 * ../shared, skipped with a warning if absent) and BERTScore on a tiny random BERT written at test time.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadBertScorer } from '../../../src/entries/textsim.js'
import { cli } from '../../cli/helpers.js'
import { writeTinyBert } from '../bertscore/tiny-bert.js'
import { FIXTURES, METEOR_RECORDS, ROUGE_RECORDS } from './fixtures.js'

const tmp = mkdtempSync(join(tmpdir(), 'trecscore-textsim-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const rows = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, any>)

describe('trecscore textsim', () => {
  it('scores rouge.jsonl with --stemmer as score_multi, reports g148 (no references) and exits 2', () => {
    const r = cli([
      'textsim',
      '--metric',
      'rougeL,rougeLsum',
      '--stemmer',
      join(FIXTURES, 'rouge.jsonl'),
    ])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/rouge\.jsonl:148: id "g148": "references" is empty/)
    expect(r.stderr).toMatch(/textsim: 309 scored, 1 line\(s\) not scored \(exit 2\)/)
    const out = rows(r.stdout)
    expect(out.length).toBe(309)
    const want = new Map(ROUGE_RECORDS.map((x) => [x.id, x.scores.stem]))
    for (const row of out) {
      const w = want.get(row.id)!
      expect(Object.keys(row)).toEqual(['id', 'rougeL', 'rougeLsum'])
      for (const t of ['rougeL', 'rougeLsum'] as const) {
        expect(row[t], `${row.id} ${t}`).toEqual({ ...w.multi![t], reference: w.multi_index![t] })
      }
    }
  })

  it('scores METEOR (split) with the default parameters as NLTK meteor_score, to --out', () => {
    const input = join(tmp, 'defaults.jsonl')
    const recs = METEOR_RECORDS.filter(
      (x) =>
        x.params.beta === 3 &&
        x.params.alpha === 0.9 &&
        x.params.gamma === 0.5 &&
        x.references.length > 0,
    )
    writeFileSync(
      input,
      recs
        .map((x) =>
          JSON.stringify({ id: x.id, prediction: x.prediction, references: x.references }),
        )
        .join('\n') + '\n',
    )
    const out = join(tmp, 'out.jsonl')
    const r = cli(['textsim', '--metric', 'meteor', '--out', out, input])
    expect(r.stderr).toBe(`textsim: ${recs.length} scored, 0 line(s) not scored\n`)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('')
    const got = rows(readFileSync(out, 'utf8'))
    expect(got.map((x) => x.id)).toEqual(recs.map((x) => x.id))
    got.forEach((row, i) => expect(row.meteor.score, row.id).toBe(recs[i]!.variants.split.meteor))
  })

  it('takes METEOR parameters', () => {
    const r = cli(
      ['textsim', '--metric', 'meteor', '--alpha', '0.5', '--beta', '2', '--gamma', '0.25', '-'],
      {
        input:
          '{"id":"m12","prediction":"the cat sat on the mat","references":["the cat was on the mat"]}\n',
      },
    )
    expect(r.code).toBe(0)
    expect(rows(r.stdout)).toEqual([{ id: 'm12', meteor: { score: 0.8, reference: 0 } }]) // research note M12
  })

  it('reports every bad line with file:line and id, and scores the others', () => {
    const input = join(tmp, 'bad.jsonl')
    const lines = [
      '{"id":"ok1","prediction":"a b c","references":["a b c"]}',
      '',
      '{"id":"broken",',
      '{"id":"t","prediction":1,"references":["x"]}',
      '{"id":"e","prediction":"x","references":[]}',
      '{"id":"ok1","prediction":"dup","references":["dup"]}',
      '["not","an","object"]',
      '{"id":"ok2","prediction":"x y","references":["y x", "x y"]}\r',
    ]
    writeFileSync(
      input,
      Buffer.concat([
        Buffer.from(lines.join('\n') + '\n'),
        Buffer.from([0xff, 0xfe, 0x0a]),
        Buffer.from('{"id":"ok3","prediction":"z","references":["z"]}'),
      ]),
    )
    const r = cli(['textsim', '--metric', 'rougeL', input])
    expect(r.code).toBe(2)
    const err = r.stderr.split('\n')
    expect(err[0]).toMatch(/bad\.jsonl:3: invalid JSON/)
    expect(err[1]).toMatch(/bad\.jsonl:4: id "t": "prediction" must be a string, found a number/)
    expect(err[2]).toMatch(/bad\.jsonl:5: id "e": "references" is empty/)
    expect(err[3]).toMatch(/bad\.jsonl:6: id "ok1": duplicate id \(first at line 1\)/)
    expect(err[4]).toMatch(/bad\.jsonl:7: expected a JSON object/)
    expect(err[5]).toMatch(/bad\.jsonl:9: invalid UTF-8/)
    expect(err[6]).toBe('textsim: 3 scored, 6 line(s) not scored (exit 2)')
    const out = rows(r.stdout)
    expect(out.map((x) => x.id)).toEqual(['ok1', 'ok2', 'ok3'])
    expect(out[1]!.rougeL).toEqual({ precision: 1, recall: 1, fmeasure: 1, reference: 1 })
  })

  it('survives binary junk and a huge line', () => {
    const input = join(tmp, 'junk.jsonl')
    writeFileSync(
      input,
      Buffer.concat([
        Buffer.alloc(5000, 0),
        Buffer.from('\n'),
        Buffer.from('{"id":"x","prediction":"' + 'a '.repeat(300_000) + '","references":["a"]}\n'),
      ]),
    )
    const r = cli(['textsim', '--metric', 'rougeL,rougeLsum,meteor', input])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/junk\.jsonl:1: invalid JSON/)
    expect(rows(r.stdout).map((x) => x.id)).toEqual(['x'])
  })

  it('rejects bad option combinations with exit 2', () => {
    const f = join(FIXTURES, 'rouge.jsonl')
    let r = cli(['textsim', '--tokenize', 'nltk', f])
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/--tokenize nltk needs --punkt/)])
    r = cli(['textsim', '--metric', 'bertscore', f])
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringMatching(/--metric bertscore needs --model/),
    ])
    r = cli(['textsim', '--metric', 'rougeX', f])
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/unknown: "rougeX"/)])
    r = cli(['textsim', '--idf', f])
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringMatching(/--idf only applies to --metric bertscore/),
    ])
    r = cli(['textsim', '--beta', 'x', f])
    expect(r.code).toBe(2)
    r = cli(['textsim', join(tmp, 'missing.jsonl')])
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringMatching(/missing\.jsonl: cannot read: no such file/),
    ])
    r = cli(['textsim', '--wordnet', join(tmp, 'no-wordnet.gz'), f])
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringMatching(/no-wordnet\.gz: cannot read the WordNet index: no such file/),
    ])
    r = cli(['textsim', '--metric', 'meteor', '--wordnet', f, f])
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/not a WordNet index/)])
    r = cli(['textsim', '--metric', 'rougeL', '--out', join(tmp, 'no', 'such', 'dir.jsonl'), f])
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringMatching(/dir\.jsonl: cannot write: no such directory/),
    ])
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  const PUNKT = join(
    import.meta.dirname,
    '..',
    '..',
    '..',
    '..',
    'shared',
    'datasets',
    'nltk-punkt-english',
  )
  const havePunkt = existsSync(join(PUNKT, 'ortho_context.tab'))
  if (!havePunkt) console.warn(`textsim-cli.test.ts: ${PUNKT} missing; skipping --tokenize nltk`)
  it.skipIf(!havePunkt)(
    '--tokenize nltk --punkt DIR reproduces the word_tokenize METEOR values',
    () => {
      const r = cli([
        'textsim',
        '--metric',
        'meteor',
        '--tokenize',
        'nltk',
        '--punkt',
        PUNKT,
        join(FIXTURES, 'meteor.jsonl'),
      ])
      expect(r.code).toBe(2) // g148
      const want = new Map(METEOR_RECORDS.map((x) => [x.id, x]))
      const out = rows(r.stdout)
      let compared = 0
      for (const row of out) {
        const w = want.get(row.id)!
        if (w.params.beta !== 3 || w.params.alpha !== 0.9 || w.params.gamma !== 0.5) continue
        expect(row.meteor.score, row.id).toBe(w.variants.word_tokenize.meteor)
        compared++
      }
      expect(compared).toBeGreaterThan(290)
    },
  )

  it('--metric bertscore --model DIR runs the model (tiny random BERT) and matches the library', async () => {
    const dir = join(tmp, 'bert')
    writeTinyBert(dir)
    const input = join(tmp, 'bert.jsonl')
    writeFileSync(
      input,
      '{"id":"a","prediction":"the cat sat","references":["a cat sat","the dog"]}\n{"id":"b","prediction":"hello","references":["hello world"]}\n',
    )
    const r = cli(['textsim', '--metric', 'rougeL,bertscore', '--model', dir, '--idf', input])
    expect(r.stderr).toMatch(/textsim: 2 scored, 0 line\(s\) not scored/)
    // The model hash and the counts of what BERTScore cut or could not score are always reported.
    expect(r.stderr).toMatch(
      /textsim: bertscore \S+_idf_\S+; model sha256 [0-9a-f]{64}; 0 truncated text\(s\), 0 empty prediction\(s\), 0 empty reference\(s\), 0 NaN value\(s\)/,
    )
    expect(r.code).toBe(0)
    const out = rows(r.stdout)
    const scorer = await loadBertScorer({ modelDir: dir, idf: true, threads: 1 })
    try {
      const want = await scorer.score(
        ['the cat sat', 'hello'],
        [['a cat sat', 'the dog'], ['hello world']],
      )
      expect(out.map((x) => x.bertscore)).toEqual(want)
      expect(Object.keys(out[0]!)).toEqual(['id', 'rougeL', 'bertscore'])
    } finally {
      await scorer.close()
    }
  })
})
