/**
 * RETECO (SemEval-2027 Task 1) public API: scoring. Re-exports of src/presets/reteco/ modules.
 */
export type {
  RetecoTrack,
  RetecoSubtrack,
  RetecoLayout,
  Track1Query,
  Track1Step,
  Track1StepRecord,
  Track1Guidance,
  Track2Turn,
  Track2Conversation,
  ManifestDomain,
  SplitManifest,
  RetecoDomainData,
  RetecoData,
  RetecoRunLine,
  RetecoRunTopic,
  RetecoRunProblem,
  RetecoRunFile,
  RetecoRunLayout,
  RetecoRun,
} from './types.js'
export { RETECO_SUBTRACKS, trackOf, topicQrels } from './types.js'
export { RetecoInputError } from './errors.js'
export { TURN_BUCKETS, type TurnBucket, type TurnTopic, parseTurnTopic, turnBucket, normalizeTurnTopic, stepQueryOf } from './topics.js'
export { loadRetecoData, detectRetecoLayout, readCorpusIds, readSplitManifest, domainsOfTrack, type LoadRetecoOptions } from './data.js'
export { parseRetecoRunFile, readRetecoRun, formatRunProblem, type ReadRetecoRunOptions } from './runs.js'
