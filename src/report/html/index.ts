/**
 * The self-contained HTML report (`trecscore report`): report data built from evaluations (or by
 * a preset family's route), rendered into one page with inlined Observable Plot charts.
 */

export { escapeHtml, jsonForScript } from '../escape.js'
export { loadReportAssets } from './assets.js'
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
} from './model.js'
export { type ReportAssets, renderHtmlReport } from './render.js'
export {
  buildReportData,
  type DataPresetReportRequest,
  type DataPresetReportRoute,
  DEFAULT_REPORT_MEASURES,
  type ReportRequest,
  writeHtmlReport,
} from './report-file.js'
