/**
 * Aggregations as data: how a table of per-query values becomes the numbers a benchmark reports
 * (query macro, group macro, step-then-query, conversation-then-group, per-bucket means, …).
 * One function, {@link aggregateTable}, computes every {@link AggregationSpec} from the same
 * {@link QueryTable}, so a preset states its aggregations instead of coding them. Pure: no I/O.
 *
 * Summation order is explicit: rows are summed left to right in table order; groups are
 * formed in order of first appearance, then ordered by the key orders the table declares (e.g.
 * domains by name, turn-depth buckets T1…T5+); every mean is that plain sum divided by the count.
 * Nothing is rounded (round when rendering, or in a reference port that reproduces a tool that
 * rounds).
 */

/** A value column of a {@link QueryTable}. */
export interface AggregationColumn {
  readonly name: string
  /**
   * The mean of a group with no rows at all: `0` (as RETECO's `_mean`, so an empty domain still
   * counts in a macro) or `null` (undefined, left out of the next level).
   */
  readonly empty: 0 | null
}

/** The order of one key's values, and whether values with no rows still form a group. */
export interface KeyOrder {
  readonly values: readonly string[]
  /** A value listed here but absent from the rows still gets a group (an empty one). */
  readonly keepEmpty: boolean
}

/** One row: its keys (`group`, `topic`, `conversation`, `bucket`, …) and one value per column. */
export interface QueryTableRow {
  readonly keys: Readonly<Record<string, string>>
  /** Aligned with {@link QueryTable.columns}; `null` = undefined for this row (left out of means). */
  readonly values: readonly (number | null)[]
}

/** The per-query table every aggregation is computed from. */
export interface QueryTable {
  readonly columns: readonly AggregationColumn[]
  /** In summation order. */
  readonly rows: readonly QueryTableRow[]
  /** Declared orders of key values; keys without one keep their order of first appearance. */
  readonly keyOrders?: Readonly<Record<string, KeyOrder>>
}

/**
 * One aggregation. `levels` are applied innermost first: each groups the current units by the
 * listed keys and replaces every group by its mean; then all remaining units are averaged. Each
 * level's keys must be a subset of the previous level's (a group's units share those keys).
 *
 * - query macro: `levels: []`;
 * - group macro (e.g. domain macro): `levels: [['group']]`;
 * - step then query: `levels: [['group', 'parent']]` (rows are steps, `parent` their query);
 * - conversation then group: `levels: [['group', 'conversation'], ['group']]`;
 * - per group, per bucket: `splitBy: ['group']`, `splitBy: ['bucket']`.
 */
export interface AggregationSpec {
  /** Stable id (`query-macro`, `domain-macro`, …). */
  readonly id: string
  /** Label for reports. */
  readonly title: string
  readonly levels: readonly (readonly string[])[]
  /** One result row per value (combination) of these keys, each aggregated apart. @default [] */
  readonly splitBy?: readonly string[]
}

/** One result row of an aggregation. */
export interface AggregationRow {
  /** The values of the `splitBy` keys (empty without a split). */
  readonly split: Readonly<Record<string, string>>
  /** One value per column; `null` when no unit had a defined value. */
  readonly values: readonly (number | null)[]
  /** Units averaged at the last step (rows, or groups of the last level). */
  readonly units: number
  /** Per column: units whose value was defined. */
  readonly defined: readonly number[]
}

/** The result of one {@link AggregationSpec}. */
export interface AggregationResult {
  readonly id: string
  readonly title: string
  readonly rows: readonly AggregationRow[]
}

interface Unit {
  readonly keys: Readonly<Record<string, string>>
  readonly values: readonly (number | null)[]
}

interface Mean {
  readonly values: (number | null)[]
  readonly defined: number[]
}

/** Left-to-right mean of each column over the units; a column's `empty` when there are none. */
function meanOver(columns: readonly AggregationColumn[], units: readonly Unit[]): Mean {
  const values: (number | null)[] = []
  const defined: number[] = []
  for (let c = 0; c < columns.length; c++) {
    let sum = 0
    let n = 0
    for (const u of units) {
      const v = u.values[c]
      if (v === null || v === undefined) continue
      sum += v
      n++
    }
    values.push(units.length === 0 ? columns[c]!.empty : n === 0 ? null : sum / n)
    defined.push(n)
  }
  return { values, defined }
}

/**
 * Group units by `keys`: first appearance, then stably ordered by the declared orders of the
 * keys (values outside an order go last); a single key whose order has `keepEmpty` also gets a
 * group for each listed value without units.
 */
function groupUnits(
  units: readonly Unit[],
  keys: readonly string[],
  orders: Readonly<Record<string, KeyOrder>>,
): { keys: Record<string, string>; units: Unit[] }[] {
  const byKey = new Map<string, { keys: Record<string, string>; units: Unit[] }>()
  const composite = (k: Readonly<Record<string, string>>): string =>
    JSON.stringify(keys.map((name) => k[name] ?? ''))
  const only = keys.length === 1 ? orders[keys[0]!] : undefined
  if (only?.keepEmpty)
    for (const v of only.values)
      byKey.set(composite({ [keys[0]!]: v }), { keys: { [keys[0]!]: v }, units: [] })
  for (const u of units) {
    const id = composite(u.keys)
    let g = byKey.get(id)
    if (!g) {
      g = { keys: Object.fromEntries(keys.map((name) => [name, u.keys[name] ?? ''])), units: [] }
      byKey.set(id, g)
    }
    g.units.push(u)
  }
  const index = new Map<string, Map<string, number>>()
  for (const name of keys) {
    const o = orders[name]
    if (o) index.set(name, new Map(o.values.map((v, i) => [v, i])))
  }
  const rank = (g: { keys: Record<string, string> }): number[] =>
    keys.flatMap((name) => {
      const ix = index.get(name)
      return ix ? [ix.get(g.keys[name]!) ?? ix.size] : []
    })
  const groups = [...byKey.values()]
  const ranks = new Map(groups.map((g) => [g, rank(g)]))
  return groups.sort((a, b) => {
    const ra = ranks.get(a)!
    const rb = ranks.get(b)!
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!
    return 0
  })
}

function checkLevels(spec: AggregationSpec): void {
  for (let i = 1; i < spec.levels.length; i++) {
    const outer = spec.levels[i - 1]!
    for (const k of spec.levels[i]!) {
      if (!outer.includes(k))
        throw new Error(
          `aggregation ${spec.id}: level ${i + 1} groups by '${k}', which level ${i} does not keep`,
        )
    }
  }
}

/**
 * Compute one aggregation from the per-query table (see {@link AggregationSpec} for the levels
 * and the module comment for the summation order).
 * @example
 * const table = { columns: [{ name: 'nDCG@10', empty: 0 }], rows: [{ keys: { group: 'law' }, values: [0.5] }, { keys: { group: 'bio' }, values: [1] }] }
 * aggregateTable(table, { id: 'domain-macro', title: 'domain macro', levels: [['group']] }).rows[0].values // [0.75]
 */
export function aggregateTable(table: QueryTable, spec: AggregationSpec): AggregationResult {
  checkLevels(spec)
  const orders = table.keyOrders ?? {}
  const splits = spec.splitBy?.length
    ? groupUnits(table.rows, spec.splitBy, orders)
    : [{ keys: {}, units: [...table.rows] }]
  const rows = splits.map((s): AggregationRow => {
    let units: readonly Unit[] = s.units
    for (const level of spec.levels) {
      units = groupUnits(units, level, orders).map((g) => ({
        keys: g.keys,
        values: meanOver(table.columns, g.units).values,
      }))
    }
    const m = meanOver(table.columns, units)
    return { split: s.keys, values: m.values, units: units.length, defined: m.defined }
  })
  return { id: spec.id, title: spec.title, rows }
}

/** Every aggregation of a list, from the same table, in list order. */
export function aggregateAll(
  table: QueryTable,
  specs: readonly AggregationSpec[],
): AggregationResult[] {
  return specs.map((s) => aggregateTable(table, s))
}
