/**
 * The RETECO route: items built from RECOR-shaped data (our synthetic example, and the organizers'
 * pilot sample read from ../shared, skipped visibly when absent).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { JudgeInputError } from '../../../src/entries/judge.js'
import { buildRetecoItems } from '../../../src/presets/reteco/judge-items.js'
import { ROOT, tempDir } from './helpers.js'

const EX = join(ROOT, 'examples', 'judge')

describe('RETECO items from the synthetic example data', () => {
  it('2b: every target turn, gold passages, benchmark history and reference; unanswered turns kept with answer null', async () => {
    const { items, summary } = await buildRetecoItems({
      preset: 'reteco-2b',
      data: join(EX, 'recor'),
      answers: join(EX, 'answers'),
    })
    expect(items.map((i) => [i.domain, i.turnId, i.turnDepth, i.answer === null])).toEqual([
      ['cycling', 'c2_turn_1', 1, false],
      ['cycling', 'c2_turn_2', 2, true],
      ['gardening', 'c1_turn_1', 1, false],
      ['gardening', 'c1_turn_2', 2, false],
      ['gardening', 'c1_turn_3', 3, false],
    ])
    expect(summary).toMatchObject({
      targetTurns: 5,
      answered: 4,
      unanswered: 1,
      unknownAnswers: [],
      passagesNotFound: 0,
      domains: ['cycling', 'gardening'],
      validationWarnings: 1,
    })
    const t3 = items[4]!
    expect(t3.passages.map((p) => p.id)).toEqual(['gardening_c1_doc_2', 'gardening_c1_doc_3'])
    expect(t3.history.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(t3.history[1]!.content).toBe(
      'Tomatoes need six to eight hours of direct sun a day; in shade they become leggy and fruit poorly.',
    )
    expect(t3.reference).toBe(
      'Eggshells release calcium too slowly to help this season. Water deeply and regularly and mulch to keep moisture even.',
    )
    expect(t3.question).toBe('So should I add eggshells to the soil to fix it?')
  })

  it("2c: the run's top 5 after dropping ids not in the corpus; short lists counted", async () => {
    const { items, summary } = await buildRetecoItems({
      preset: 'reteco-2c',
      data: join(EX, 'recor'),
      answers: join(EX, 'answers'),
      retrieval: join(EX, 'run'),
    })
    const t2 = items.find((i) => i.turnId === 'c1_turn_2')!
    // run: doc_1 10.0, doc_3 9.0, doc_2 8.0, doc_0 7.0, doc_4 6.0, doc_9 5.0 (not in the corpus)
    expect(t2.passages.map((p) => p.id)).toEqual([
      'gardening_c1_doc_1',
      'gardening_c1_doc_3',
      'gardening_c1_doc_2',
      'gardening_c1_doc_0',
      'gardening_c1_doc_4',
    ])
    expect(items.find((i) => i.turnId === 'c1_turn_1')!.passages.map((p) => p.id)).toEqual([
      'gardening_c1_doc_0',
      'gardening_c1_doc_4',
      'gardening_c1_doc_2',
    ])
    expect([...summary.shortRetrieval.entries()].sort()).toEqual([
      ['c1_turn_1', 3],
      ['c1_turn_3', 2],
      ['c2_turn_1', 2],
      ['c2_turn_2', 3],
    ])
  })

  it("a submission with errors is not judged: the validator's report, every problem; 2c without a run is refused", async () => {
    const dir = tempDir()
    const answers = join(dir, 'answers')
    mkdirSync(answers)
    writeFileSync(
      join(answers, 'gardening.jsonl'),
      [
        '{"turn_id": "c1_turn_1", "answer": "a"}',
        '{"turn_id": "c1_turn_1", "answer": "b"}',
        'not json',
        '{"turn_id": "c1_turn_2"}',
        '',
      ].join('\n'),
    )
    writeFileSync(join(answers, 'cycling.jsonl'), '{"turn_id": "c1_turn_3", "answer": "x"}\n')
    const e = await buildRetecoItems({
      preset: 'reteco-2b',
      data: join(EX, 'recor'),
      answers,
    }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(JudgeInputError)
    const text = (e as JudgeInputError).problems.join('\n')
    expect(text).toContain(`${join(answers, 'gardening.jsonl')}:2: error duplicate_turn`)
    expect(text).toContain(`${join(answers, 'gardening.jsonl')}:3: error invalid_json`)
    expect(text).toContain(`${join(answers, 'gardening.jsonl')}:4: error missing_field`)
    expect(text).toContain(`${join(answers, 'cycling.jsonl')}:1: error unknown_turn`)
    expect(text).toContain(`${answers}: not judged: the submission has`)
    expect((e as JudgeInputError).issues).toMatchObject([
      { code: 'answers_not_judged', file: answers, preset: 'reteco-2b' },
    ])
    await expect(
      buildRetecoItems({
        preset: 'reteco-2c',
        data: join(EX, 'recor'),
        answers: join(EX, 'answers'),
      }),
    ).rejects.toThrow(/needs the submission's retrieval run/)
  })
})

const SHARED = join(ROOT, '..', 'shared', 'datasets', 'recor')
const d = existsSync(join(SHARED, 'benchmark.jsonl')) ? describe : describe.skip
if (!existsSync(join(SHARED, 'benchmark.jsonl')))
  console.warn(`skipping the RECOR pilot judge-items test: ${SHARED} is absent`)

d("RETECO items from the organizers' RECOR pilot sample (../shared/datasets/recor)", () => {
  it('13 target turns in 4 domains (per-domain answer files); gold passages as in documents.jsonl', async () => {
    const dir = tempDir()
    const answers = join(dir, 'answers')
    mkdirSync(answers)
    writeFileSync(
      join(answers, 'drones.jsonl'),
      '{"turn_id": "ex_3025_turn_1", "answer": "Because grease in the open motor bell would collect dirt."}\n',
    )
    writeFileSync(
      join(answers, 'earth_science.jsonl'),
      '{"turn_id": "5_turn_2", "answer": "Yes."}\n',
    )
    const { items, summary } = await buildRetecoItems({
      preset: 'reteco-2b',
      data: SHARED,
      answers,
    })
    expect(summary).toMatchObject({
      targetTurns: 13,
      answered: 2,
      unanswered: 11,
      passagesNotFound: 0,
    })
    expect(summary.domains).toEqual(['biology', 'drones', 'earth_science', 'law'])
    // Gold counts per turn, from benchmark.jsonl (all present in documents.jsonl).
    expect(items.map((i) => `${i.turnId}:${i.passages.length}`)).toEqual([
      '2_turn_1:2',
      '2_turn_2:1',
      '2_turn_3:1',
      'ex_3025_turn_1:3',
      'ex_3025_turn_2:2',
      'ex_3025_turn_3:2',
      'ex_3025_turn_4:4',
      '5_turn_1:4',
      '5_turn_2:1',
      '5_turn_3:1',
      'ex_111149_turn_1:3',
      'ex_111149_turn_2:4',
      'ex_111149_turn_3:4',
    ])
    const d1 = items.find((i) => i.turnId === 'ex_3025_turn_1')!
    expect(d1.question.startsWith('In FPV drone motors, why is lubrication')).toBe(true)
    expect(d1.history).toEqual([])
    expect(items.find((i) => i.turnId === 'ex_3025_turn_4')!.history).toHaveLength(6)
  })
})
