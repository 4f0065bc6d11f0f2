/**
 * Command-line flags for every convention (shared by commands that evaluate). Choices come from
 * the `Conventions` unions; parsing errors are reported as usage errors.
 */
import { type Command, Option } from 'commander'
import { type Conventions, conventionProfiles, parseGainSpec } from '../entries/conventions.js'
import { TrecscoreError } from '../entries/errors.js'

/** Raw option values as commander gives them. */
export interface ConventionFlags {
  profile: string
  ordering?: Conventions['ordering']
  scorePrecision?: Conventions['scorePrecision']
  duplicates?: Conventions['duplicates']
  unknownDocs?: Conventions['unknownDocs']
  missingQueries?: Conventions['missingQueries']
  depth?: string
  judgedOnly?: boolean
  negativeJudgments?: Conventions['negativeJudgments']
  relLevel?: string
  gains?: string
  relMap?: string
  queriesWithoutRelevant?: Conventions['queriesWithoutRelevant']
  corpus?: string
}

/** The convention flags' option keys (commander's attribute names), in --help order. */
export const CONVENTION_FLAG_KEYS = [
  'profile',
  'ordering',
  'scorePrecision',
  'duplicates',
  'corpus',
  'unknownDocs',
  'missingQueries',
  'depth',
  'judgedOnly',
  'negativeJudgments',
  'relLevel',
  'gains',
  'relMap',
  'queriesWithoutRelevant',
] as const

/** The convention flag keys but `omit`, in --help order. */
export function conventionFlagKeys(omit: readonly string[] = []): string[] {
  return CONVENTION_FLAG_KEYS.filter((k) => !omit.includes(k))
}

/** An option key as its long flag: `scorePrecision` -> `--score-precision`. */
export function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
}

/** The long flags of those of `keys` given on the command line (not defaults), in `keys` order. */
export function flagsGiven(cmd: Command, keys: readonly string[]): string[] {
  return keys.filter((k) => cmd.getOptionValueSource(k) === 'cli').map(flagName)
}

function usage(message: string): never {
  throw new TrecscoreError(message, 2)
}

/** Add the convention flags to a command, but those in `omit` (long names, e.g. `--corpus`). */
export function addConventionOptions(cmd: Command, omit: readonly string[] = []): Command {
  const first = cmd.options.length
  cmd
    .addOption(
      new Option('--profile <id>', 'base conventions')
        .choices(Object.keys(conventionProfiles))
        .default('trec-eval'),
    )
    .addOption(
      new Option('--ordering <o>', 'document order and ties').choices([
        'score-docid-desc',
        'score-docid-asc',
        'score-file-order',
        'rank',
        'file-order',
      ]),
    )
    .addOption(
      new Option(
        '--score-precision <p>',
        'scores as read: float64 (trec_eval 10) or float32 (trec_eval 9, pytrec_eval)',
      ).choices(['float64', 'float32']),
    )
    .addOption(
      new Option('--duplicates <policy>', 'a doc retrieved twice for a query').choices([
        'error',
        'keep-first',
        'keep-last',
        'keep-first-ranked',
        'keep-all',
      ]),
    )
    .option(
      '--corpus <file>',
      'corpus doc ids, one per line; docs not in it are discarded before depth cuts',
    )
    .addOption(
      new Option('--unknown-docs <policy>', 'docs not in --corpus').choices(['keep', 'discard']),
    )
    .addOption(
      new Option(
        '--missing-queries <policy>',
        'qrels queries absent from a run: skip them, or score them 0',
      ).choices(['skip', 'zero']),
    )
    .option('--depth <n>', 'keep the top n docs per query (trec_eval -M)')
    .option('--judged-only', 'drop unjudged docs before measuring (trec_eval -J)')
    .addOption(
      new Option(
        '--negative-judgments <policy>',
        'negative qrels labels: nonrelevant (judged, never relevant; default), unjudged (lines dropped at read, as trectools), error (each one reported)',
      ).choices(['nonrelevant', 'unjudged', 'error']),
    )
    .option('--rel-level <n>', 'grade >= n is relevant for binary measures (trec_eval -l)')
    .option(
      '--gains <spec>',
      "default nDCG gains: grade, exp (2^g-1), binary, or a map like '{0:0,1:1,2:3}'",
    )
    .option('--rel-map <map>', "remap grades when reading qrels, e.g. '3:3,2:1,1:0,0:0'")
    .addOption(
      new Option(
        '--queries-without-relevant <policy>',
        'measures needing a relevant doc on queries with none',
      ).choices(['zero', 'undefined']),
    )
  // A command that cannot honour a flag does not offer it (it is then an unknown option).
  const all = cmd.options as Option[]
  for (let i = all.length - 1; i >= first; i--)
    if (omit.includes(all[i]!.long ?? '')) all.splice(i, 1)
  return cmd
}

function int(name: string, text: string, min: number): number {
  if (!/^[+-]?\d+$/.test(text) || Number(text) < min)
    usage(`${name}: expected an integer >= ${min}, found '${text}'`)
  return Number(text)
}

/** Parse `--rel-map 3:3,2:1,1:0,0:0`. */
export function parseRelMap(text: string): Map<number, number> {
  const map = new Map<number, number>()
  for (const pair of text.split(',')) {
    const m = /^\s*(-?\d+)\s*:\s*(-?\d+)\s*$/.exec(pair)
    if (!m) usage(`--rel-map: expected grade:grade pairs like '3:3,2:1,1:0,0:0', found '${pair}'`)
    map.set(Number(m[1]), Number(m[2]))
  }
  return map
}

/** Build the conventions from the flags (profile first, then each flag). */
export function conventionsFromFlags(f: ConventionFlags): Conventions {
  const base = conventionProfiles[f.profile]
  if (!base) usage(`--profile: unknown profile '${f.profile}'`)
  return {
    ...base,
    ...(f.ordering ? { ordering: f.ordering } : {}),
    ...(f.scorePrecision ? { scorePrecision: f.scorePrecision } : {}),
    ...(f.duplicates ? { duplicates: f.duplicates } : {}),
    ...(f.corpus
      ? { unknownDocs: f.unknownDocs ?? 'discard' }
      : f.unknownDocs
        ? { unknownDocs: f.unknownDocs }
        : {}),
    ...(f.missingQueries ? { missingQueries: f.missingQueries } : {}),
    ...(f.depth !== undefined ? { depth: int('--depth', f.depth, 1) } : {}),
    ...(f.judgedOnly ? { judgedOnly: true } : {}),
    ...(f.negativeJudgments ? { negativeJudgments: f.negativeJudgments } : {}),
    ...(f.relLevel !== undefined ? { relevanceLevel: int('--rel-level', f.relLevel, -1000) } : {}),
    ...(f.gains ? { gains: parseGainSpec(f.gains, '--gains') } : {}),
    ...(f.queriesWithoutRelevant ? { queriesWithoutRelevant: f.queriesWithoutRelevant } : {}),
  }
}
