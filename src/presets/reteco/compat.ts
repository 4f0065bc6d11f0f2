/**
 * RETECO (SemEval-2027 Task 1) public API: compat. Re-exports of src/presets/reteco/ modules:
 * the two convention sets that reproduce the organizers' code paths exactly (`scorer-py`:
 * `scorer.py` + `ir_metrics.py`; `official-baseline`: `pytrec_eval` + `official_baseline.py`)
 * and the Python-compatible rounding, printing and parsing they are built on.
 */
export {
  scorerPy,
  scorerPyPooled,
  scorerPyNdcg,
  scorerPyTemporalPrecision,
  scorerPyTemporalRelevance,
  scorerPyTemporalCoverage,
  scorerPyTurnBucket,
  type ScorerPyInput,
  type ScorerPyOutput,
  type ScorerPyResult,
  type ScorerPyTopic,
  type ScorerPyDomainFiles,
} from './scorer-py.js'
export {
  officialBaseline,
  readRunAsPythonDict,
  pytrecEvaluate,
  calculateRetrievalMetrics,
  OFFICIAL_K_VALUES,
  type PythonRunDict,
  type PythonRunDictResult,
  type PytrecTopicValues,
  type OfficialBaselineDomainInput,
  type OfficialBaselineDomain,
  type OfficialBaselineResult,
} from './official-baseline.js'
export { pythonRound, pythonFloatRepr, pythonFormatFixed } from './python-round.js'
export { officialBaselineConventionSet, scorerPyConventionSet } from './compat-sets.js'
