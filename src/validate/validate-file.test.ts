/**
 * Merging per-range reports (`mergeRanges`) is exact: for random clean runs grouped by topic and
 * cut into random ranges at topic starts, the merged report equals validating the whole run; for
 * random runs with problems (split topics, repeated documents, bad fields, tag changes, ...) cut
 * at random line starts, it is either refused (`null`: the caller validates sequentially) or
 * equal. Each range is validated in memory here; the threads and the file reading are checked in
 * test/cli/validate-parallel.test.ts against the built code.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mergeRanges, type ValidatedRange, validatedRange } from './validate-file.js'
import { RunValidator, type ValidateRunOptions, validateRun } from './validate-run.js'

/** Validate `lines` (joined by `\n`, bytes as latin1) cut before the line indexes `cuts`. */
function mergedAndWhole(
  lines: readonly string[],
  cuts: readonly number[],
  lastNewline: boolean,
  options: ValidateRunOptions,
): { merged: ReturnType<typeof mergeRanges>; whole: ReturnType<typeof validateRun> } {
  const bytes = lines.map((l, i) =>
    Buffer.from(i < lines.length - 1 || lastNewline ? `${l}\n` : l, 'latin1'),
  )
  const at = [
    0,
    ...[...new Set(cuts)].filter((c) => c > 0 && c < lines.length).sort((a, b) => a - b),
  ]
  const ranges: ValidatedRange[] = at.map((from, i) => {
    const v = new RunValidator(options)
    // Feed line by line, so the validator also sees chunk boundaries.
    for (const b of bytes.slice(from, at[i + 1] ?? lines.length)) v.feed(b)
    return validatedRange(i, v, true)
  })
  return {
    merged: mergeRanges(ranges, options),
    whole: validateRun(Buffer.concat(bytes), options),
  }
}

const qid = fc.stringMatching(/^[0-9a-z]{1,4}$/)
const filler = fc.constantFrom('', '   ', '\t', '# comment', '#', '  # x y z 1 2 3 4')

/** A clean topic block: distinct docs, ranks 1.., scores falling; fillers between some lines. */
const topic = (id: string, tag: string) =>
  fc
    .array(fc.tuple(fc.option(filler, { freq: 2 }), fc.integer({ min: 1, max: 9 })), {
      minLength: 1,
      maxLength: 8,
    })
    .map((rows) => {
      const out: string[] = []
      let score = 100
      rows.forEach(([fill, drop], i) => {
        if (fill !== null && i > 0) out.push(fill)
        score -= drop
        out.push(`${id} Q0 d${i} ${i + 1} ${score} ${tag}`)
      })
      return out
    })

const cleanRun = fc
  .record({
    ids: fc.uniqueArray(qid, { minLength: 1, maxLength: 12 }),
    tag: fc.constantFrom('bm25', 'run-1', 'Tag_x'),
    head: fc.array(filler, { maxLength: 2 }),
    lastNewline: fc.boolean(),
    strict: fc.boolean(),
    withTopics: fc.boolean(),
  })
  .chain((r) =>
    fc
      .tuple(...r.ids.map((id) => fc.tuple(fc.array(filler, { maxLength: 2 }), topic(id, r.tag))))
      .map((blocks) => ({ ...r, blocks })),
  )
  .chain((r) =>
    // For each gap before a topic (but the first): no cut, or a cut at one of the gap's lines.
    fc
      .array(fc.option(fc.nat(), { freq: 2 }), {
        minLength: r.blocks.length - 1,
        maxLength: r.blocks.length - 1,
      })
      .map((choice) => ({ ...r, choice })),
  )

describe('mergeRanges', () => {
  it('equals the whole-run report for clean grouped runs cut at topic starts', () => {
    fc.assert(
      fc.property(cleanRun, (r) => {
        const lines: string[] = [...r.head]
        const cuts: number[] = []
        r.blocks.forEach(([gap, rows], b) => {
          // The gap's lines and the topic's first line: a cut may fall on any of them.
          const choice = b > 0 ? r.choice[b - 1] : null
          if (choice !== null && choice !== undefined)
            cuts.push(lines.length + (choice % (gap.length + 1)))
          lines.push(...gap, ...rows)
        })
        const options: ValidateRunOptions = {
          file: 'x.run',
          strict: r.strict,
          ...(r.withTopics ? { topics: new Set([...r.ids, 'other']) } : {}),
        }
        const { merged, whole } = mergedAndWhole(lines, cuts, r.lastNewline, options)
        expect(whole.counts).toEqual([])
        expect(merged).toEqual(whole)
      }),
      { numRuns: 300 },
    )
  })

  it('is refused or equal to the whole-run report for runs with problems cut anywhere', () => {
    // Well-formed blocks, now and then changed: a topic id used twice (a split topic), a block
    // with another tag, a document, rank, score or tag changed on one line, a broken line after.
    const rare = <T>(arb: fc.Arbitrary<T>, weight = 8) =>
      fc.oneof({ arbitrary: fc.constant(null), weight }, { arbitrary: arb, weight: 1 })
    const junk = fc.constantFrom(
      '1 Q0 d1 1 2',
      '1 Q0 d1 1 2 t extra',
      '1 Q0 d1 x 2 t',
      '1 Q0 d1 1 abc t',
      '1 Q0 d1 1 inf t',
      '1 Q0 d1 1 1e999 t',
      '1 Q0 d\u0000 1 2 t',
      '1 Q0 d\u00e9 1 2 t',
      '1 Q0 d1 1 2 t\r',
      '1 Q0 d1\r1 2 t',
      '\u00ef\u00bb\u00bf1 Q0 d1 1 2 t',
      '\u00ff\u00fe1 Q0 d1 1 2 t',
      '# note',
      '',
    )
    const row = fc.record({
      doc: rare(fc.integer({ min: 0, max: 3 }), 40),
      rank: rare(fc.integer({ min: 1, max: 4 }), 40),
      score: rare(fc.integer({ min: 0, max: 100 }), 40),
      tag: rare(fc.constant('u'), 40),
    })
    const block = fc.record({
      id: rare(fc.constantFrom('1', '2', '3'), 6),
      tag: rare(fc.constant('v'), 6),
      rows: fc.array(row, { minLength: 1, maxLength: 6 }),
      bad: rare(junk, 12),
    })
    const run = fc.record({
      blocks: fc.array(block, { minLength: 1, maxLength: 10 }),
      cuts: fc.array(fc.nat({ max: 70 }), { maxLength: 3 }),
      lastNewline: fc.boolean(),
      maxDepth: rare(fc.integer({ min: 1, max: 6 }), 4),
    })
    let merged = 0
    fc.assert(
      fc.property(run, (r) => {
        const lines: string[] = []
        r.blocks.forEach(({ id, tag, rows, bad }, b) => {
          rows.forEach((x, i) =>
            lines.push(
              `${id ?? `b${b}`} Q0 d${x.doc ?? i} ${x.rank ?? i + 1} ${x.score ?? 100 - i} ${x.tag ?? tag ?? 't'}`,
            ),
          )
          if (bad !== null) lines.push(bad)
        })
        const options: ValidateRunOptions = {
          file: 'y.run',
          ...(r.maxDepth === null ? {} : { maxDepth: r.maxDepth }),
        }
        const got = mergedAndWhole(lines, r.cuts, r.lastNewline, options)
        if (got.merged !== null) {
          merged++
          expect(got.merged).toEqual(got.whole)
        }
      }),
      { numRuns: 500 },
    )
    // Not vacuous: some of these runs do merge.
    expect(merged).toBeGreaterThan(25)
  })

  it('refuses a topic in two ranges, two tags, a range with a problem, no run lines', () => {
    const range = (index: number, over: Partial<ValidatedRange>): ValidatedRange => ({
      index,
      clean: true,
      lines: 2,
      runLines: 2,
      blankLines: 0,
      commentLines: 0,
      bytes: 40,
      tags: ['t'],
      queryIds: [`q${index}`],
      ...over,
    })
    const opts = { file: 'z.run' }
    expect(mergeRanges([range(0, {}), range(1, {})], opts)).toMatchObject({
      file: 'z.run',
      ok: true,
      queries: 2,
      lines: 4,
      runLines: 4,
      bytes: 80,
      tags: ['t'],
      counts: [],
      problems: [],
    })
    expect(mergeRanges([range(0, {}), range(1, { queryIds: ['q0'] })], opts)).toBeNull()
    expect(mergeRanges([range(0, {}), range(1, { tags: ['u'] })], opts)).toBeNull()
    expect(mergeRanges([range(0, {}), range(1, { clean: false })], opts)).toBeNull()
    const none = { runLines: 0, commentLines: 2, tags: [], queryIds: [] }
    expect(mergeRanges([range(0, none), range(1, none)], opts)).toBeNull()
  })
})
