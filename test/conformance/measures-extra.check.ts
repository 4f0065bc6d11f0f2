/**
 * The measures-extra checker (test/fixtures/measures-extra, copied from
 * shared/conformance/measures-extra): reference outputs of gdeval, ndeval, cwl_eval,
 * ir_measures' providers and trectools, checked the way that folder's README says, through the
 * built CLI: in the case folder, `trecscore evaluate QRELS RUN -m NAME … -q --format json FLAGS`.
 * One process per case, variant and distinct flag set (a measure may carry flags of its own),
 * with every measure of the batch in it.
 *
 * Tolerances: `decimals: d` → |got − want| ≤ 0.5·10^−d; full precision →
 * |got − want| ≤ 1e−9·max(|got|, |want|) + 1e−12; `"NaN"` → null (undefined) or NaN. The
 * aggregate is compared only where `compare_aggregate` is true.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Root of the fixtures. */
export const MEASURES_EXTRA = join(import.meta.dirname, '..', 'fixtures', 'measures-extra')
/** The flag that names the auxiliary (understandability) judgments. */
export const AUX_QRELS_FLAG = '--aux-qrels'
const CLI = join(import.meta.dirname, '..', '..', 'bin', 'trecscore.js')

/** A reference value: a number, or the string `"NaN"` where the tool printed nan. */
export type RefValue = number | 'NaN'

/** One measure of an expected file. */
export interface ExpectedMeasure {
  readonly name: string
  readonly ir_measures: string | null
  readonly reference_name: string
  readonly per_topic: Readonly<Record<string, RefValue>>
  readonly aggregate: RefValue | null
  readonly compare_aggregate: boolean
  readonly note?: string
  readonly trecscore_flags?: readonly string[]
}

/** One `expected/<variant>.json`. */
export interface ExpectedFile {
  readonly schema: string
  readonly case: string
  readonly variant: string
  readonly precision: { readonly decimals: number } | null
  readonly trecscore: {
    readonly qrels: string
    readonly run: string
    readonly flags: readonly string[]
    readonly aux_qrels?: string
  }
  readonly measures: readonly ExpectedMeasure[]
}

/** One value that is off (or missing). `topic` is `all` for the aggregate. */
export interface Mismatch {
  readonly measure: string
  readonly topic: string
  readonly want: RefValue
  readonly got: number | null | undefined
}

/** The outcome for one measure. */
export interface MeasureCheck {
  readonly name: string
  readonly mismatches: readonly Mismatch[]
  /** Values compared (topics plus the aggregate where compared). */
  readonly compared: number
  /** The CLI's message when it refused the call. */
  readonly error?: string
}

/** The outcome of one case and variant. */
export interface VariantCheck {
  readonly caseName: string
  readonly variant: string
  readonly measures: readonly MeasureCheck[]
  /** Every mismatch and error in one list of lines (empty when everything passes). */
  readonly problems: readonly string[]
}

/** The case folders, sorted. */
export function listCases(): string[] {
  if (!existsSync(MEASURES_EXTRA)) return []
  return readdirSync(MEASURES_EXTRA, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(MEASURES_EXTRA, d.name, 'case.json')))
    .map((d) => d.name)
    .sort()
}

/** The variants a case has expected values for, sorted. */
export function variantsOf(caseName: string): string[] {
  return readdirSync(join(MEASURES_EXTRA, caseName, 'expected'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort()
}

/** Every variant of every case, sorted. */
export function listVariants(): string[] {
  return [...new Set(listCases().flatMap(variantsOf))].sort()
}

/** The cases that have a variant. */
export function casesOf(variant: string): string[] {
  return listCases().filter((c) =>
    existsSync(join(MEASURES_EXTRA, c, 'expected', `${variant}.json`)),
  )
}

/** Read `expected/<variant>.json` of a case. */
export function loadExpected(caseName: string, variant: string): ExpectedFile {
  return JSON.parse(
    readFileSync(join(MEASURES_EXTRA, caseName, 'expected', `${variant}.json`), 'utf8'),
  ) as ExpectedFile
}

/** Whether `got` matches `want` under the file's precision. */
export function withinTolerance(
  got: number | null | undefined,
  want: RefValue,
  decimals: number | null,
): boolean {
  if (want === 'NaN') return got === null || (typeof got === 'number' && Number.isNaN(got))
  if (typeof got !== 'number' || !Number.isFinite(got)) return false
  const diff = Math.abs(got - want)
  // A printed decimal is within half a unit of its last place; 1e-12 absorbs the double error of the bound itself.
  if (decimals !== null) return diff <= 0.5 * 10 ** -decimals + 1e-12
  return diff <= 1e-9 * Math.max(Math.abs(got), Math.abs(want)) + 1e-12
}

interface EvaluateJson {
  readonly measures: readonly string[]
  readonly runs: readonly {
    readonly aggregates: Readonly<Record<string, { readonly value: number | null }>>
    readonly perQuery?: readonly {
      readonly query: string
      readonly values: Readonly<Record<string, number | null>>
    }[]
  }[]
}

/** What one CLI call gave, by measure position: per-topic values and the aggregate. */
type Batch =
  | {
      readonly ok: true
      readonly values: readonly {
        readonly perTopic: ReadonlyMap<string, number | null>
        readonly aggregate: number | null
      }[]
    }
  | { readonly ok: false; readonly error: string }

/** The argument list of the CLI call for `names` under `flags`. */
export function evaluateArgs(
  exp: ExpectedFile,
  names: readonly string[],
  flags: readonly string[],
): string[] {
  const t = exp.trecscore
  return [
    'evaluate',
    t.qrels,
    t.run,
    ...names.flatMap((n) => ['-m', n]),
    '-q',
    '--format',
    'json',
    ...flags,
    ...(t.aux_qrels ? [AUX_QRELS_FLAG, t.aux_qrels] : []),
  ]
}

function runBatch(
  caseName: string,
  exp: ExpectedFile,
  names: readonly string[],
  flags: readonly string[],
): Batch {
  const r = spawnSync(process.execPath, [CLI, ...evaluateArgs(exp, names, flags)], {
    cwd: join(MEASURES_EXTRA, caseName),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  if (r.status !== 0)
    return {
      ok: false,
      error: `exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0] ?? ''}`,
    }
  const j = JSON.parse(r.stdout) as EvaluateJson
  const run = j.runs[0]
  if (!run || j.measures.length !== names.length)
    return {
      ok: false,
      error: `unexpected JSON: ${j.measures.length} measures for ${names.length} asked`,
    }
  // Output keys are canonical names, in the order asked for.
  return {
    ok: true,
    values: j.measures.map((canonical) => ({
      perTopic: new Map(
        (run.perQuery ?? []).map((q) => [q.query, q.values[canonical] ?? null] as const),
      ),
      aggregate: run.aggregates[canonical]?.value ?? null,
    })),
  }
}

/** Compare one measure's expected values with what the CLI gave. */
function compare(
  m: ExpectedMeasure,
  got: { readonly perTopic: ReadonlyMap<string, number | null>; readonly aggregate: number | null },
  decimals: number | null,
): MeasureCheck {
  const mismatches: Mismatch[] = []
  let compared = 0
  for (const [topic, want] of Object.entries(m.per_topic)) {
    compared++
    const v = got.perTopic.has(topic) ? got.perTopic.get(topic)! : undefined
    if (!withinTolerance(v, want, decimals))
      mismatches.push({ measure: m.name, topic, want, got: v })
  }
  if (m.compare_aggregate && m.aggregate !== null) {
    compared++
    if (!withinTolerance(got.aggregate, m.aggregate, decimals))
      mismatches.push({ measure: m.name, topic: 'all', want: m.aggregate, got: got.aggregate })
  }
  return { name: m.name, mismatches, compared }
}

/**
 * Check one case and variant: every measure (or those `only` accepts) through the CLI, batched
 * by flag set. A batch the CLI refuses is retried one measure at a time, so that one unknown
 * measure does not hide the others' results.
 */
export function checkVariant(
  caseName: string,
  variant: string,
  only: (name: string) => boolean = () => true,
): VariantCheck {
  const exp = loadExpected(caseName, variant)
  const decimals = exp.precision?.decimals ?? null
  const groups = new Map<string, ExpectedMeasure[]>()
  for (const m of exp.measures) {
    if (!only(m.name)) continue
    const flags = JSON.stringify(m.trecscore_flags ?? exp.trecscore.flags)
    const g = groups.get(flags)
    if (g) g.push(m)
    else groups.set(flags, [m])
  }
  const checks: MeasureCheck[] = []
  for (const [flagsJson, ms] of groups) {
    const flags = JSON.parse(flagsJson) as string[]
    const batch = runBatch(
      caseName,
      exp,
      ms.map((m) => m.name),
      flags,
    )
    if (batch.ok) {
      ms.forEach((m, i) => checks.push(compare(m, batch.values[i]!, decimals)))
      continue
    }
    for (const m of ms) {
      const one = ms.length === 1 ? batch : runBatch(caseName, exp, [m.name], flags)
      checks.push(
        one.ok
          ? compare(m, one.values[0]!, decimals)
          : { name: m.name, mismatches: [], compared: 0, error: one.error },
      )
    }
  }
  const order = new Map(exp.measures.map((m, i) => [m.name, i]))
  checks.sort((a, b) => order.get(a.name)! - order.get(b.name)!)
  const problems = checks.flatMap((c) =>
    c.error
      ? [`${c.name}: ${c.error}`]
      : c.mismatches.map((x) => `${x.measure} ${x.topic}: want ${x.want}, got ${x.got}`),
  )
  return { caseName, variant, measures: checks, problems }
}
