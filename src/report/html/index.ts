/**
 * The self-contained HTML report (`trecscore report`): report data built from evaluations (or by
 * a preset family's route), rendered into one page with inlined Observable Plot charts.
 */
export { reportFromEvaluations, type ReportData, type ReportRunInfo, type LeaderboardRow, type QueryRow, type GroupRow, type SignificanceRow, type ReportSignificance, type ReportBuildOptions } from './model.js'
export { renderHtmlReport, type ReportAssets } from './render.js'
export { jsonForScript } from './escape.js'
export { escapeHtml } from '../escape.js'
export { loadReportAssets } from './assets.js'
export { buildReportData, writeHtmlReport, DEFAULT_REPORT_MEASURES, type ReportRequest, type DataPresetReportRoute, type DataPresetReportRequest } from './report-file.js'
