#!/usr/bin/env node
// npm's `prepare` step (run by `npm install` / `npm ci` in a clone, by an install from a git URL,
// and before `npm pack`): builds dist/ so the CLI and the library are usable at once. When the
// devDependencies are absent (`npm ci --omit=dev`), there is no compiler: it says so and succeeds,
// and the CLI then reports "trecscore is not built" until `npm run build`.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
if (!existsSync(join(root, 'node_modules', 'typescript', 'package.json'))) {
  console.error(
    'trecscore prepare: typescript is not installed (devDependencies omitted), so dist/ is not built; run `npm install` then `npm run build`',
  )
  process.exit(0)
}
const npm = process.env.npm_execpath
const r = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    })
process.exit(r.status ?? 1)
