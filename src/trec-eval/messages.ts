import { formatIssue } from '../errors/format-issue.js'
import type { PrepareFailure } from '../rank/prepare.js'

/**
 * trec_eval's message for a query whose judged ranking cannot be formed. trec_eval prints the
 * duplicate-doc one without a newline; the drop-in ends it and adds where (stderr only).
 */
export function prepareFailureMessage(f: PrepareFailure, queryId: string, runFile: string): string {
  switch (f.code) {
    case 'duplicate_doc':
      return `trec_eval.form_res_qrels: duplicate docs ${f.docId}\ntrecscore: ${formatIssue({ code: 'duplicate_doc', file: runFile, line: f.line, queryId, docId: f.docId, firstLine: f.firstLine })}\n`
    case 'duplicate_judgment':
      return `trec_eval.form_res_rels: duplicate docs ${f.docId}\n`
    case 'no_judgments':
      return ''
  }
}
