/**
 * TREC 2023 NeuCLIR presets: the track's official command
 * `ir_measures QRELS RUN 'nDCG@20 MAP RBP(rel=1) R@100 R@1000'` for the CLIR tasks (one
 * language's qrels) and MLIR (the merged qrels). ir_measures computes nDCG, AP and recall with
 * its pytrec_eval provider and RBP with its cwl_eval provider, which rank differently, so the
 * preset names two tie rules and gives RBP its own conventions.
 */

import type { Conventions } from '../conventions/conventions.js'
import { pytrecEval } from '../conventions/profiles.js'
import { CWL_EVAL_TIES, PYTREC_EVAL_TIES, withTieRule } from '../conventions/tie-rules.js'
import { definePreset, type Preset, type PresetCheck } from './preset.js'

/** The NeuCLIR 2023 languages (the qrels' second column). */
export const NEUCLIR_LANGUAGES = ['zho', 'fas', 'rus'] as const
/** One NeuCLIR language code. */
export type NeuclirLanguage = (typeof NEUCLIR_LANGUAGES)[number]

/** Named relevance map: raw 4-point judgments (3 very valuable, 2 somewhat, 1 not that, 0 not) to gains 3/1/0/0. */
export const NEUCLIR_REL_MAPS: Readonly<Record<string, Readonly<Record<number, number>>>> =
  Object.freeze({ 'neuclir-4to3': Object.freeze({ 3: 3, 2: 1, 1: 0, 0: 0 }) })

/** pytrec_eval semantics (nDCG@20, AP, R@100, R@1000): every qrels topic averaged, missing = 0, grade >= 1. */
const BASE: Conventions = withTieRule(
  { ...pytrecEval, missingQueries: 'zero', relevanceLevel: 1 },
  PYTREC_EVAL_TIES,
)

/** cwl_eval semantics for RBP: double scores, stable sort (file order), ranking cut at 1,000. */
const RBP_CONVENTIONS: Conventions = withTieRule({ ...BASE, depth: 1000 }, CWL_EVAL_TIES)

const OFFICIAL = {
  tool: 'ir_measures (pytrec_eval provider for nDCG@20, AP, R@100, R@1000; cwl_eval provider for RBP)',
  version:
    'ir_measures 0.4.3 (terrierteam/ir_measures @ dc04a88); pytrec_eval-terrier 0.5.9 (trec_eval 9.0.8 code, d95ca64e); cwl_eval 1.0.12 (ireval/cwl @ 4c3ea6f)',
  command: "ir_measures QRELS RUN 'nDCG@20 MAP RBP(rel=1) R@100 R@1000'",
}

const MEASURES = ['nDCG@20', 'MAP', 'RBP(rel=1)', 'R@100', 'R@1000']

const GRADE_2: PresetCheck = {
  kind: 'qrels-forbidden-grade',
  grade: 2,
  remap: 'neuclir-4to3',
  message:
    'NeuCLIR 2023 qrels hold gains 0/1/3; grade 2 is the sign of unconverted 4-point judgments. Convert them with --rel-map neuclir-4to3 (3:3,2:1,1:0,0:0), or score as they are with --force',
}
const TOPIC_SETS: PresetCheck = {
  kind: 'topic-sets',
  message:
    'every qrels topic is averaged (absent from the run = 0); run topics without judgments are ignored',
}
const CANDIDATES: PresetCheck = {
  kind: 'candidates',
  message:
    "a reranking run ranks exactly the documents of its topic's provided 1,000-document candidate list",
}

const NOTES = [
  'Gains are the qrels grades 0/1/3 (very valuable 3, somewhat valuable 1); binary measures count grade >= 1.',
  'Every topic of the qrels file given is averaged; a topic missing from the run scores 0; run topics absent from the qrels are ignored (both listed on stderr and in JSON).',
  'nDCG@20, AP, R@100, R@1000: tie rule pytrec_eval (float32 scores, ties by doc id descending); they use every line of the run (no cut at 1,000).',
  'RBP(rel=1): tie rule cwl_eval (double scores, ties in run-file order), p = 0.8, binary gain, ranking cut at 1,000, no residual. cwl_eval weighs rank 1 by 1/sum_{j<1000} 0.8^j, which equals 1 - p = 0.2 up to a relative 1e-97, so RBP = 0.2 * sum_i rel_i 0.8^(i-1).',
  "ir_measures' RBP provider scores a topic whose lines are split in the file once per block and averages the blocks; trecscore joins them (one topic, one value).",
  "The qrels' second column is the language code; it must be the preset's language. --rel-map converts raw 4-point qrels (applied before the grade-2 check).",
]

/** What every NeuCLIR preset shares; each passes its id, title, language check, last check and notes. */
function neuclirPreset(
  id: string,
  title: string,
  languageCheck: PresetCheck,
  lastCheck: PresetCheck,
  notes: readonly string[],
): Preset {
  return definePreset({
    id,
    title,
    official: OFFICIAL,
    input: { qrels: 'trec-qrels', runs: 'trec-run' },
    measures: MEASURES,
    conventions: BASE,
    tieRule: PYTREC_EVAL_TIES,
    measureConventions: [
      {
        measures: ['RBP(rel=1)'],
        tieRule: CWL_EVAL_TIES,
        conventions: RBP_CONVENTIONS,
        why: 'ir_measures computes RBP with its cwl_eval provider (stable sort by double score, cut at 1,000)',
      },
    ],
    relMaps: NEUCLIR_REL_MAPS,
    rounding: { digits: 4, rule: 'c-printf' },
    report: { layout: 'ir_measures' },
    checks: [languageCheck, GRADE_2, TOPIC_SETS, CANDIDATES, lastCheck],
    notes,
  })
}

function clirPreset(lang: NeuclirLanguage, name: string): Preset {
  return neuclirPreset(
    `neuclir23-${lang}`,
    `TREC 2023 NeuCLIR, CLIR ${name} (${lang}) (official ir_measures command)`,
    {
      kind: 'qrels-language',
      languages: [lang],
      message: `the ${name} CLIR qrels (qrels.final.gains.${lang}) hold only '${lang}' judgments; for the merged qrels use neuclir23-mlir`,
    },
    {
      kind: 'max-depth',
      depth: 1000,
      message:
        'NeuCLIR runs rank at most 1,000 documents per topic; RBP is cut at 1,000, the other measures use every line',
    },
    NOTES,
  )
}

/** `neuclir23-zho`: CLIR into Chinese. */
export const neuclir23Zho = clirPreset('zho', 'Chinese')
/** `neuclir23-fas`: CLIR into Persian. */
export const neuclir23Fas = clirPreset('fas', 'Persian')
/** `neuclir23-rus`: CLIR into Russian. */
export const neuclir23Rus = clirPreset('rus', 'Russian')

/** `neuclir23-mlir`: one unified ranking over the three collections, against the merged qrels. */
export const neuclir23Mlir = neuclirPreset(
  'neuclir23-mlir',
  'TREC 2023 NeuCLIR, MLIR (zho+fas+rus, merged qrels) (official ir_measures command)',
  {
    kind: 'qrels-language',
    languages: [...NEUCLIR_LANGUAGES],
    message: 'the merged MLIR qrels (qrels.final.gains) hold zho, fas and rus judgments',
  },
  {
    kind: 'unified-ranking',
    depth: 1000,
    message:
      'an MLIR run is one ranked list of at most 1,000 documents per topic over all three languages, not per-language lists concatenated',
  },
  [
    ...NOTES,
    "MLIR topics are the union of the three languages' judged topics; documents of every language compete in one ranking.",
  ],
)

/** The NeuCLIR presets, by id. */
export const NEUCLIR_PRESETS: readonly Preset[] = [
  neuclir23Zho,
  neuclir23Fas,
  neuclir23Rus,
  neuclir23Mlir,
]
