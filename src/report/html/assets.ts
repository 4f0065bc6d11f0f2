/**
 * File edge of the HTML report: find the bundled charting library and number formatter written by
 * `npm run build` (scripts/build-report-assets.mjs) in `dist/report-assets/`.
 */
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { TrecscoreError } from '../../errors/trecscore-error.js'
import type { ReportAssets } from './render.js'

/** Where the bundles may be: beside the compiled code (dist/), or dist/ seen from src/. */
const CANDIDATES = ['../../report-assets/', '../../../dist/report-assets/']

/**
 * Read the report's inlined assets. Throws {@link TrecscoreError} (exit code 1) naming the
 * paths tried when the bundle is missing: run `npm run build`.
 */
export async function loadReportAssets(): Promise<ReportAssets> {
  const tried: string[] = []
  for (const rel of CANDIDATES) {
    const path = fileURLToPath(new URL(`${rel}plot.js`, import.meta.url))
    tried.push(path)
    try {
      return {
        plot: await readFile(path, 'utf8'),
        format: await readFile(fileURLToPath(new URL(`${rel}format.js`, import.meta.url)), 'utf8'),
      }
    } catch {
      // try the next place
    }
  }
  throw new TrecscoreError(
    `the report's chart bundle is missing (looked for ${tried.join(', ')}); run npm run build`,
    1,
  )
}
