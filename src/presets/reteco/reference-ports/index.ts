/**
 * RETECO reference ports: line-for-line emulations of the organizers' Python code paths, kept
 * apart from the engine like the trec_eval drop-in. Their numbers are set beside the plan's
 * (convention sets `official-baseline` and `scorer-py`), never used for the headline:
 * - `scorer-py.ts`: `scorer.py` + `ir_metrics.py`;
 * - `official-baseline.ts`: `pytrec_eval` (trec_eval 9.0.8) + `official_baseline.py`;
 * - `format-checker.ts`: `format_checker.py` (exported with the validation API, `checking.ts`);
 * - `compat-python.ts`: Python's `str.split`, `float()`, `int()` and text decoding, as they use;
 * - `compat-sets.ts`: the two ports as registered convention sets.
 * Python's `round` and `repr` (`pythonRound`, `pythonFloatRepr`) live in `src/report/python-round.ts`,
 * since SkillRet's reference rounding uses them too.
 */

export { pythonFloatRepr, pythonFormatFixed, pythonRound } from '../../../report/python-round.js'
export { officialBaselineConventionSet, scorerPyConventionSet } from './compat-sets.js'
export {
  calculateRetrievalMetrics,
  OFFICIAL_K_VALUES,
  type OfficialBaselineDomain,
  type OfficialBaselineDomainInput,
  type OfficialBaselineResult,
  officialBaseline,
  type PythonRunDict,
  type PythonRunDictResult,
  type PytrecTopicValues,
  pytrecEvaluate,
  readRunAsPythonDict,
} from './official-baseline.js'
export {
  type ScorerPyDomainFiles,
  type ScorerPyInput,
  type ScorerPyOutput,
  type ScorerPyResult,
  type ScorerPyTopic,
  scorerPy,
  scorerPyNdcg,
  scorerPyPooled,
  scorerPyTemporalCoverage,
  scorerPyTemporalPrecision,
  scorerPyTemporalRelevance,
  scorerPyTurnBucket,
} from './scorer-py.js'
