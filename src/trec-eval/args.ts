/**
 * trec_eval's command line, parsed as GNU `getopt_long` does with its option string
 * `hvqm:cl:nD:JN:M:R:T:oZ:`: clustered flags (`-qc`), attached values (`-M100`, `-mP.5`),
 * long options and unique prefixes (`--measure=P.5`, `--meas P.5`), options after operands,
 * `--` to end options. `-` is an operand (standard input).
 */

/** Options of the trec_eval drop-in. */
export interface TrecEvalArgs {
  help: boolean
  version: boolean
  queryEval: boolean
  measures: string[]
  complete: boolean
  relevanceLevel: number | null
  relevanceLevelText: string | null
  summary: boolean
  debug: string | null
  judgedOnly: boolean
  collectionSize: string | null
  maxDocs: string | null
  relFormat: string
  resultsFormat: string
  zscores: string | null
  operands: string[]
  /** trecscore extensions: `--compat 9.0.8`. */
  compat: '10.0' | '9.0.8'
}

/** A usage error (unknown option, missing value): trec_eval prints usage and exits 1. */
export class UsageError extends Error {
  override name = 'UsageError'
}

const LONG: readonly (readonly [string, string, boolean])[] = [
  ['help', 'h', false],
  ['version', 'v', false],
  ['query_eval_wanted', 'q', false],
  ['measure', 'm', true],
  ['complete_rel_info_wanted', 'c', false],
  ['level_for_rel', 'l', true],
  ['nosummary', 'n', false],
  ['Debug_level', 'D', true],
  ['Judged_docs_only', 'J', false],
  ['Number_docs_in_coll', 'N', true],
  ['Max_retrieved_per_topic', 'M', true],
  ['Rel_info_format', 'R', true],
  ['Results_format', 'T', true],
  ['Output_old_results_format', 'o', false],
  ['Zscore', 'Z', true],
  ['compat', 'compat', true],
]

const SHORT_WITH_VALUE = new Set(['m', 'l', 'D', 'N', 'M', 'R', 'T', 'Z'])
const SHORT_FLAGS = new Set(['h', 'v', 'q', 'c', 'n', 'J', 'o'])

/** Parse trec_eval's arguments (without the program name). Throws {@link UsageError}. */
export function parseTrecEvalArgs(argv: readonly string[]): TrecEvalArgs {
  const a: TrecEvalArgs = {
    help: false,
    version: false,
    queryEval: false,
    measures: [],
    complete: false,
    relevanceLevel: null,
    relevanceLevelText: null,
    summary: true,
    debug: null,
    judgedOnly: false,
    collectionSize: null,
    maxDocs: null,
    relFormat: 'qrels',
    resultsFormat: 'trec_results',
    zscores: null,
    operands: [],
    compat: '10.0',
  }
  const apply = (opt: string, value: string | null): void => {
    switch (opt) {
      case 'h':
        a.help = true
        break
      case 'v':
        a.version = true
        break
      case 'q':
        a.queryEval = true
        break
      case 'm':
        a.measures.push(value!)
        break
      case 'c':
        a.complete = true
        break
      case 'l':
        a.relevanceLevelText = value
        break
      case 'n':
        a.summary = false
        break
      case 'D':
        a.debug = value
        break
      case 'J':
        a.judgedOnly = true
        break
      case 'N':
        a.collectionSize = value
        break
      case 'M':
        a.maxDocs = value
        break
      case 'R':
        a.relFormat = value!
        break
      case 'T':
        a.resultsFormat = value!
        break
      case 'o':
        break
      case 'Z':
        a.zscores = value
        break
      case 'compat':
        if (value !== '10.0' && value !== '9.0.8' && value !== '10' && value !== '9') {
          throw new UsageError(`--compat: expected 10.0 or 9.0.8, found '${value}'`)
        }
        a.compat = value.startsWith('9') ? '9.0.8' : '10.0'
        break
    }
  }
  let i = 0
  while (i < argv.length) {
    const arg = argv[i++]!
    if (arg === '--') {
      a.operands.push(...argv.slice(i))
      break
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2)
      const exact = LONG.find(([n]) => n === name)
      const matches = exact ? [exact] : LONG.filter(([n]) => n.startsWith(name))
      if (matches.length !== 1) {
        throw new UsageError(
          matches.length ? `option '--${name}' is ambiguous` : `unrecognized option '--${name}'`,
        )
      }
      const [long, short, hasValue] = matches[0]!
      let value: string | null = null
      if (hasValue) {
        if (eq >= 0) value = arg.slice(eq + 1)
        else if (i < argv.length) value = argv[i++]!
        else throw new UsageError(`option '--${long}' requires an argument`)
      } else if (eq >= 0) throw new UsageError(`option '--${long}' doesn't allow an argument`)
      apply(short, value)
      continue
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let k = 1; k < arg.length; k++) {
        const c = arg[k]!
        if (SHORT_WITH_VALUE.has(c)) {
          let value: string
          if (k + 1 < arg.length) value = arg.slice(k + 1)
          else if (i < argv.length) value = argv[i++]!
          else throw new UsageError(`option requires an argument -- '${c}'`)
          apply(c, value)
          break
        }
        if (!SHORT_FLAGS.has(c)) throw new UsageError(`invalid option -- '${c}'`)
        apply(c, null)
      }
      continue
    }
    a.operands.push(arg)
  }
  return a
}
