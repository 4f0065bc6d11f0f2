/**
 * The legend every comparison format carries: what the letters mean, which tests ran under which
 * conventions, the correction and its family, α, the seed and resampling budgets, zero-filled
 * counts. Plain strings; each renderer escapes them for its format.
 */
import type { CompareResult, CorrectionName, TestName } from './types.js'

/** Long names of the tests. */
export const TEST_TITLES: Readonly<Record<TestName, string>> = {
  t: "paired Student's t-test",
  permutation: 'Fisher randomization (sign-flip permutation) test',
  bootstrap: 'paired bootstrap test',
  wilcoxon: 'Wilcoxon signed-rank test',
}

/** Long names of the corrections. */
export const CORRECTION_TITLES: Readonly<Record<CorrectionName, string>> = {
  holm: 'Holm (step-down)',
  bonferroni: 'Bonferroni',
  bh: 'Benjamini-Hochberg (false discovery rate)',
  none: 'no correction',
}

/** The conventions of one test, as configured. */
export function testConvention(test: TestName, r: CompareResult): string {
  const s = r.settings
  switch (test) {
    case 't':
      return "t: paired Student's t-test, two-sided, t distribution with n-1 df"
    case 'permutation':
      return `permutation: Fisher randomization by sign flips of the differences, statistic the mean difference, two-sided; exact (all 2^n sign vectors) when 2^n <= ${s.permutations}, else ${s.permutations} sampled sign vectors with p = (count+1)/(B+1)`
    case 'bootstrap':
      return `bootstrap: paired bootstrap test, shift method (differences centred on 0), ${s.bootstrap} resamples, two-sided, p = (count+1)/(B+1)`
    case 'wilcoxon':
      return 'wilcoxon: signed-rank, two-sided, zero differences dropped (Wilcoxon), exact distribution when n < 50 without ties, else normal approximation with tie and continuity correction (as R wilcox.test / scipy correction=True)'
  }
}

/** Letters as a list: `a, b and c`. */
function listLetters(letters: readonly string[]): string {
  return letters.length <= 1
    ? (letters[0] ?? '')
    : `${letters.slice(0, -1).join(', ')} and ${letters[letters.length - 1]}`
}

/** The legend, one line per fact. */
export function legendLines(r: CompareResult): string[] {
  const s = r.settings
  const first = s.tests[0]!
  const base = s.baseline === null ? null : r.runs.find((x) => x.name === s.baseline)
  const family = base
    ? `each measure's ${r.runs.length - 1} comparison(s) against the baseline ${base.letter} (${base.name})`
    : `each measure's ${(r.runs.length * (r.runs.length - 1)) / 2} pairwise comparison(s)`
  const lines = [
    `superscript letters: the run is significantly better than the runs with those letters (${TEST_TITLES[first]}, ${CORRECTION_TITLES[s.correction]}-adjusted p < ${s.alpha}); best mean per measure in bold (* in plain text)`,
    `correction: ${CORRECTION_TITLES[s.correction]} over ${family}, per test${r.breakdowns.length ? ' and separately inside each group of a breakdown' : ''}`,
    `tests: ${s.tests.map((t) => testConvention(t, r)).join('; ')}`,
    `effect sizes: mean difference A-B with a 95% percentile bootstrap CI (${s.bootstrap} resamples); Cohen's d_z = mean(d)/sd(d), sd with n-1`,
    `wins/ties/losses: queries where A > B, A = B (exactly), A < B`,
    `seed ${s.seed} for every resampling${s.tests.some((t) => t === 'permutation') ? `, permutations ${s.permutations}` : ''}, bootstrap ${s.bootstrap}; higher is better for every measure`,
    `queries: ${r.queries.length} (${r.source}); ${listLetters(r.runs.map((x) => `${x.letter} = ${x.name}`))}`,
    ...r.notes,
  ]
  if (r.breakdowns.length)
    lines.push(
      `groups with fewer than ${s.minGroupSize} queries are listed with their means but not tested`,
    )
  return lines
}
