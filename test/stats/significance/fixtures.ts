/**
 * Textbook samples used by the significance tests.
 *
 * SLEEP: Student (1908) / Cushny & Peebles (1905), as R's `sleep` data set: extra hours of sleep
 * of 10 patients under drug 1 (group 1) and drug 2 (group 2). R:
 * `t.test(extra ~ group, data = sleep, paired = TRUE)` gives t = -4.0621, df = 9,
 * p-value = 0.002833, mean difference -1.58, 95% CI (-2.4598858, -0.7001142).
 */
export const SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
export const SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]

/**
 * DEPRESSION: Hollander & Wolfe (1973), *Nonparametric Statistical Methods*, p. 29: Hamilton
 * depression scale factor IV of 9 patients at the first (x) and second (y) visit after
 * tranquilizer therapy. The example of R's `?wilcox.test`:
 * `wilcox.test(x, y, paired = TRUE, alternative = "greater")` gives V = 40, p-value = 0.01953
 * (exactly 10/512); the two-sided p is twice that, 20/512 = 0.0390625.
 */
export const DEPRESSION_X = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3]
export const DEPRESSION_Y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
