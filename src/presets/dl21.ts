/**
 * TREC 2021 Deep Learning presets: the official trec_eval 9.0.8 commands for the passage and
 * document tasks, and exponential-gain nDCG (2^grade − 1) as used by the PASH paper.
 */
import { pytrecEval, trecEvalV9 } from '../conventions/profiles.js'
import { definePreset, type PresetCheck, type PresetReport } from './preset.js'

const MEASURES = ['nDCG@10', 'AP', 'RR', 'R@100', 'R@1000', 'P@10']

/** trec_eval prints its measures in its own table order, not the order asked for. */
const TREC_EVAL_REPORT: PresetReport = {
  layout: 'trec_eval',
  names: [
    ['AP', 'map'],
    ['RR', 'recip_rank'],
    ['P@10', 'P_10'],
    ['R@100', 'recall_100'],
    ['R@1000', 'recall_1000'],
    ['nDCG@10', 'ndcg_cut_10'],
  ],
}

const DEPTH: PresetCheck = {
  kind: 'max-depth',
  depth: 100,
  message: 'official TREC DL 2021 runs held at most 100 documents per query',
}
const DOC_IDS_IN_PASSAGE_RUN: PresetCheck = {
  kind: 'doc-id-prefix',
  prefix: 'msmarco_doc_',
  message:
    'document ids (msmarco_doc_…) in a passage run: mixing passage and document evaluation invalidates it; use dl21-doc',
}
const PASSAGE_IDS_IN_DOC_RUN: PresetCheck = {
  kind: 'doc-id-prefix',
  prefix: 'msmarco_passage_',
  message:
    'passage ids (msmarco_passage_…) in a document run: mixing passage and document evaluation invalidates it; use dl21-passage',
}
const NO1_QRELS: PresetCheck = {
  kind: 'qrels-missing-grade',
  grade: 1,
  message:
    'the qrels look like the "-no1" variant (no grade-1 judgments): NIST\'s plain summary differs from the official figure there (BM25 nDCG@10 0.3160 vs 0.4458); use the full 2021.qrels.pass.final.txt',
}

const TOPIC_SETS: PresetCheck = {
  kind: 'topic-sets',
  message:
    'every qrels topic is averaged (trec_eval -c: absent from the run = 0); run topics without judgments are ignored',
}

const DL_NOTES = [
  'nDCG uses the raw grades 0-3 as gains (grade 1 still gains 1); -l does not affect it.',
  'Every judged query is averaged (trec_eval -c): a query missing from the run scores 0.',
  'Scores are read as float32; ties are broken by doc id descending in byte order (trec_eval 9).',
]

/** `dl21-passage`: the official TREC 2021 DL passage ranking evaluation (binary at grade ≥ 2). */
export const dl21Passage = definePreset({
  id: 'dl21-passage',
  title: 'TREC 2021 Deep Learning, passage ranking (official)',
  official: {
    tool: 'trec_eval',
    version: 'v9.0.8 (d95ca64e; prints 9.0.7 for -v)',
    command:
      'trec_eval -c -m ndcg_cut.10 -m map -m recip_rank -m recall.100,1000 -m P.10 -l 2 QRELS RUN',
  },
  input: { qrels: 'trec-qrels', runs: 'trec-run' },
  measures: MEASURES,
  conventions: { ...trecEvalV9, missingQueries: 'zero', relevanceLevel: 2 },
  rounding: { digits: 4, rule: 'c-printf' },
  report: TREC_EVAL_REPORT,
  checks: [DOC_IDS_IN_PASSAGE_RUN, NO1_QRELS, DEPTH, TOPIC_SETS],
  notes: [
    ...DL_NOTES,
    'Binary measures (AP, RR, R@k, P@10) count grade >= 2 as relevant (trec_eval -l 2).',
  ],
})

/** `dl21-doc`: the official TREC 2021 DL document ranking evaluation (binary at grade ≥ 1). */
export const dl21Doc = definePreset({
  id: 'dl21-doc',
  title: 'TREC 2021 Deep Learning, document ranking (official)',
  official: {
    tool: 'trec_eval',
    version: 'v9.0.8 (d95ca64e; prints 9.0.7 for -v)',
    command:
      'trec_eval -c -m ndcg_cut.10 -m map -m recip_rank -m recall.100,1000 -m P.10 -l 1 QRELS RUN',
  },
  input: { qrels: 'trec-qrels', runs: 'trec-run' },
  measures: MEASURES,
  conventions: { ...trecEvalV9, missingQueries: 'zero', relevanceLevel: 1 },
  rounding: { digits: 4, rule: 'c-printf' },
  report: TREC_EVAL_REPORT,
  checks: [PASSAGE_IDS_IN_DOC_RUN, DEPTH, TOPIC_SETS],
  notes: [
    ...DL_NOTES,
    'Binary measures (AP, RR, R@k, P@10) count grade >= 1 as relevant (trec_eval -l 1).',
  ],
})

/** `dl21-passage-pash`: nDCG@5 and nDCG@10 with exponential gain 2^grade − 1 on the passage task. */
export const dl21PassagePash = definePreset({
  id: 'dl21-passage-pash',
  title: 'TREC 2021 Deep Learning, passage ranking, exponential-gain nDCG (PASH)',
  official: {
    tool: 'ir_measures (pytrec_eval provider)',
    version: 'ir_measures 0.4.3, pytrec_eval-terrier 0.5.9 (trec_eval 9.0.8 code)',
    command:
      "ir_measures QRELS RUN 'nDCG(gains={0:0,1:1,2:3,3:7})@5' 'nDCG(gains={0:0,1:1,2:3,3:7})@10'",
  },
  input: { qrels: 'trec-qrels', runs: 'trec-run' },
  measures: ['nDCG(gains={0:0,1:1,2:3,3:7})@5', 'nDCG(gains={0:0,1:1,2:3,3:7})@10'],
  conventions: { ...pytrecEval, missingQueries: 'zero', relevanceLevel: 2 },
  rounding: { digits: 4, rule: 'c-printf' },
  report: { layout: 'leaderboard' },
  checks: [DOC_IDS_IN_PASSAGE_RUN, NO1_QRELS, DEPTH, TOPIC_SETS],
  notes: [
    'Gain 2^grade - 1 (0, 1, 3, 7); ideal ranking from all judged grades; nDCG = 0 when no judged grade > 0.',
    'Ties broken consistently by doc id (descending, byte order) on float32 scores, as trec_eval 9; gdeval.pl instead ranks by the double score.',
    'Every judged query is averaged: a query missing from the run scores 0.',
    'Ask ir_measures for plain nDCG@k in a separate call: requested together, its pytrec_eval provider silently applies these gains to the plain one too (0.4.3).',
  ],
})
