#!/usr/bin/env node
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
// Bundles Observable Plot (and d3, which it brings) into one minified IIFE that defines the
// global `Plot`: dist/report-assets/plot.js. `trecscore report` inlines that file into every
// HTML report, so a report needs no network and no CDN. Part of `npm run build`.
import { build } from 'esbuild'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'dist', 'report-assets')
const outfile = join(outDir, 'plot.js')
const plotVersion = JSON.parse(
  readFileSync(join(root, 'node_modules', '@observablehq', 'plot', 'package.json'), 'utf8'),
).version
mkdirSync(outDir, { recursive: true })
await build({
  stdin: { contents: "export * from '@observablehq/plot'", resolveDir: root, loader: 'js' },
  bundle: true,
  format: 'iife',
  globalName: 'Plot',
  minify: true,
  legalComments: 'eof',
  target: 'es2020',
  platform: 'browser',
  outfile,
  logLevel: 'warning',
})
// The bundle is inlined into a <script> element: it must not end that element early.
const code = readFileSync(outfile, 'utf8').replace(/<\/(script)/gi, '<\\/$1')
writeFileSync(
  outfile,
  `/* @observablehq/plot ${plotVersion} (ISC) with d3 (ISC), bundled by esbuild */\n${code}`,
)
// The report's number formatting: the same printf.ts the command line uses (exact binary value,
// ties to even), as the global `TrecscoreFormat`, so a value reads the same in the report and
// in the terminal (Number.prototype.toFixed rounds exact ties up: 0.03125 -> 0.0313).
await build({
  stdin: {
    contents:
      "export { formatFixed } from './src/report/printf.ts'\nexport { formatP } from './src/compare/cells.ts'",
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  format: 'iife',
  globalName: 'TrecscoreFormat',
  minify: true,
  target: 'es2020',
  platform: 'browser',
  outfile: join(outDir, 'format.js'),
  logLevel: 'warning',
})
writeFileSync(
  join(outDir, 'versions.json'),
  JSON.stringify({ '@observablehq/plot': plotVersion }, null, 2) + '\n',
)
console.log(
  `report assets: ${outfile.slice(root.length + 1)} (${(code.length / 1024).toFixed(0)} KiB, Plot ${plotVersion})`,
)

// The leaderboard's upload page: its script and the Web Worker that runs the server's validator
// in the browser (src/server/web/client/). Built for the browser: a Node built-in in what they
// import fails the build (the validator must stay free of Node APIs).
const webDir = join(root, 'dist', 'web-assets')
mkdirSync(webDir, { recursive: true })
for (const name of ['upload', 'validate-worker', 'rate']) {
  await build({
    entryPoints: [join(root, 'src', 'server', 'web', 'client', `${name}.js`)],
    bundle: true,
    format: name === 'validate-worker' ? 'esm' : 'iife',
    minify: true,
    target: 'es2022',
    platform: 'browser',
    outfile: join(webDir, `${name}.js`),
    logLevel: 'warning',
  })
}
console.log(`web assets: dist/web-assets/upload.js, validate-worker.js, rate.js`)
