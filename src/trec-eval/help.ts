import { TREC_EVAL_MEASURES, TREC_EVAL_NICKNAMES } from './table.js'

/** Usage printed on a command-line error (exit 1). */
export const TREC_EVAL_USAGE = `Usage: trecscore trec-eval [-h] [-q] [-c] [-n] [-l <num>] [-M <num>] [-J] [-N <num>]
                          [-m <measure>[.<params>]] ... [-R <rel_format>] [-Z <zscore_file>]
                          [--compat 10.0|9.0.8] <qrels_file> <results_file>
A drop-in for NIST trec_eval 10.0 with byte-identical output. <results_file> may be '-' (stdin)
and either file may be gzipped (.gz). Run 'trecscore trec-eval -h' for the options and measures.
`

const OPTIONS = `Options (as trec_eval):
  -q                 print per-query values before the summary ("all") lines
  -c                 average over every qrels query; queries missing from the run score 0
  -n                 no summary lines
  -l <num>           relevance level: grade >= num is relevant for binary measures (default 1)
  -M <num>           keep only the top <num> documents of each query
  -J                 judged documents only: drop unjudged documents before measuring
  -N <num>           number of documents in the collection (used by utility)
  -m <name>[.<p>]    measure or nickname (official, all_trec, set); parameters after a dot:
                       -m P.5,10  -m iprec_at_recall.0.25  -m ndcg.1=3,2=9  -m set_F.0.5
                     with no -m, 'official' is used; the first parameter list given wins
  -R <format>        qrels format: qrels (default), prefs, qrels_prefs, qrels_jg
  -Z <file>          print z-scores using per-query means and deviations from <file>
  -v                 print the version
  -h                 this help; with -m, the measures' documentation
  --compat 9.0.8     behave as trec_eval 9.0.8 (float32 scores, no '#' comments, old
                     iprec_at_recall rounding, missing queries skipped)
Exit codes: 0 ok, 1 usage or unknown measure, 2 unreadable or malformed input or bad measure
parameters, 4 a query cannot be evaluated (duplicate documents, missing query without -c),
7 no query has both results and judgments.
`

/** The `-h` text: options, then the requested measures (or the list of all measures). */
export function trecEvalHelp(marked: ReadonlySet<string>): string {
  let s = TREC_EVAL_USAGE + '\n' + OPTIONS + '\n'
  const names = marked.size
    ? TREC_EVAL_MEASURES.filter((m) => marked.has(m.name))
    : TREC_EVAL_MEASURES
  s += `Measures${marked.size ? ' requested' : ''} (print order; formulas in src/measures/ and the README):\n`
  for (const m of names) {
    const def = m.defaults ? ` (default ${m.defaults.join(',')})` : ''
    s += `  ${m.name}${def}\n`
  }
  s += `Nicknames: ${[...TREC_EVAL_NICKNAMES.keys()].join(', ')}\n`
  return s
}
