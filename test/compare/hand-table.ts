/** The hand-built per-query table of the compare renderer tests: two runs, a tiny group. */
import type { PerQueryTable } from '../../src/internal.js'

/** A run name with HTML and LaTeX specials. */
export const hostile = 'x<script>alert(1)</script>_&%$#{}~^\\'
/** Two runs over 8 queries; the `tiny` domain (2 queries) is too small to test. */
export const T: PerQueryTable = {
  source: 'hand-built',
  measures: ['nDCG@10', 'P_5'],
  queries: [1, 2, 3, 4, 5, 6, 7, 8].map((i) => ({
    id: `q${i}`,
    groups: { domain: i <= 2 ? 'tiny' : 'big' },
  })),
  groupings: ['domain'],
  runs: [
    {
      name: 'base.run',
      tag: '',
      zeroFilledQueries: [],
      values: [
        [0.1, 0.2, 0.1, 0.2, 0.1, 0.2, 0.1, 0.2],
        [0, 0, 0.2, 0.2, 0, 0, 0.2, 0],
      ],
    },
    {
      name: hostile,
      tag: '',
      zeroFilledQueries: ['q8'],
      values: [
        [0.9, 0.8, 0.9, 0.95, 0.85, 0.9, 0.8, 0.9],
        [0.4, 0.6, 0.6, 0.4, 0.6, 0.8, 0.6, 0.6],
      ],
    },
  ],
  notes: [],
}
