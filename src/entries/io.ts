/**
 * `trecscore/io`: reading and writing TREC files (qrels, runs, id lists; streaming parsers,
 * run labels, sources, output files) and the data model they produce (`Qrels`, `Run`).
 *
 * @example
 * import { readRun } from 'trecscore/io'
 * const run = await readRun('run.txt')
 *
 * @module
 */

export {
  decodeId,
  encodeId,
  parseCDouble,
  parseCLong,
} from '../io/bytes.js'
export { DEFAULT_MAX_LINE_BYTES } from '../io/lines.js'
export {
  describeSystemError,
  describeWriteError,
  OutputError,
  writeOutputFile,
} from '../io/output.js'
/** Whether a process with this pid exists on this host (claims and folders of dead processes). */
export { pidAlive } from '../io/process.js'
export {
  type ChunkObserver,
  parseRun,
  readIdList,
  readQrels,
  readRun,
} from '../io/read.js'
export {
  defaultRunLabels,
  fileLabel,
  type NamedRun,
  RUN_LABEL_SOURCES,
  type RunInput,
  type RunLabelOptions,
  type RunLabelSource,
  readRunTag,
  resolveRunLabels,
  runInputName,
  runInputPath,
} from '../io/run-labels.js'
export {
  type RunReadSummary,
  streamRunQueries,
} from '../io/run-reader.js'
export {
  folderFiles,
  readAll,
  readChunks,
  readChunksPrefetched,
  SourceError,
} from '../io/source.js'
export {
  parseQrels,
  QRELS_FORMATS,
  type QrelsFormat,
  type QrelsParseOptions,
  type QrelsParseResult,
} from '../io/trec-qrels.js'
export {
  type RunGroup,
  type RunParseOptions,
  TrecRunParser,
} from '../io/trec-run.js'
export {
  NOT_POOLED,
  type Qrels,
  type QueryJudgments,
  type Run,
  type RunQuery,
  UNJUDGED,
} from '../model/types.js'
