/**
 * `trecscore/report`: rendering results: the table model and renderer, the leaderboard
 * formats, JSON chunks, number formatting, escaping, and the HTML report (`renderHtmlReport`;
 * `buildReportData`, which evaluates or scores first, is in `trecscore/presets`).
 *
 * @example
 * import { renderTable } from 'trecscore/report'
 * renderTable({ columns: [{ header: 'run' }], rows: [['bm25']] }, 'markdown')
 *
 * @module
 */

export {
  csvField,
  csvFieldFormulaSafe,
  escapeControlChars,
  escapeHtml,
  escapeLatex,
  escapeMarkdown,
  escapeMarkdownStrict,
  jsonForScript,
  tsvField,
  visibleText,
} from '../report/escape.js'
export { loadReportAssets } from '../report/html/assets.js'
export {
  type GroupRow,
  type LeaderboardRow,
  type QueryRow,
  type ReportBuildOptions,
  type ReportData,
  type ReportRunInfo,
  type ReportSignificance,
  reportFromEvaluations,
  type SignificanceRow,
} from '../report/html/model.js'
export {
  type ReportAssets,
  renderHtmlReport,
} from '../report/html/render.js'
export {
  type JsonChunkOptions,
  jsonChunks,
} from '../report/json-chunks.js'
export {
  describeConventions,
  describeCounts,
  FORMATS,
  type Format,
  renderResults,
  SUMMARY_ROWS,
  type SummaryRows,
  toJson,
} from '../report/leaderboard.js'
export { formatFixed } from '../report/printf.js'
export {
  pythonFloatRepr,
  pythonFormatFixed,
  pythonRound,
} from '../report/python-round.js'
export {
  rankingTable,
  renderSensitivity,
  SENSITIVITY_FORMATS,
  type SensitivityFormat,
  type SensitivityRenderOptions,
  sensitivityTable,
} from '../report/sensitivity.js'
export {
  type Cell,
  type Column,
  renderTable,
  TABLE_FORMATS,
  type Table,
  type TableFormat,
  type TableOptions,
} from '../report/table.js'
