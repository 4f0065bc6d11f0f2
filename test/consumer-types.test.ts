/**
 * What a TypeScript user needs: a consumer file is compiled against the built declarations
 * (dist/**\/*.d.ts, `npm run build` first; `npm test` does), copied with package.json into a
 * folder that has no @types at all, as `npm install trecscore` leaves a project. The README
 * ("Installing", TypeScript) states the result: with `skipLibCheck: true` nothing else is
 * needed; with `skipLibCheck: false` the declarations need @types/node (they name Node's
 * `Buffer` and `url` types).
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const tmp = mkdtempSync(join(tmpdir(), 'trecscore-types-'))
const pkg = join(tmp, 'node_modules', 'trecscore')

// The README's library example, plus proof that the types are real (not `any`).
const CONSUMER = `import { readQrels, readRun, evaluate, type Qrels } from 'trecscore'

const qrels: Qrels = await readQrels('demo/qrels.txt')
const run = await readRun('demo/runs/hybrid.run')
const result = evaluate(qrels, run, ['nDCG@10', 'AP', 'RR@10'], { relevanceLevel: 1 })
export const first: number | null = result.aggregates[0]!.value
// @ts-expect-error a value is a number (or null), so the declarations were really read
export const wrong: string = result.aggregates[0]!.value
`

beforeAll(() => {
  mkdirSync(pkg, { recursive: true })
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'))
  cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), {
    recursive: true,
    filter: (src) => !/\.(js|map)$/.test(src) || src.endsWith('.d.ts'),
  })
  writeFileSync(
    join(tmp, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  )
  writeFileSync(join(tmp, 'consumer.ts'), CONSUMER)
})

afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function tsc(options: { skipLibCheck: boolean; types: string[] }): {
  code: number
  errors: string[]
} {
  const config = {
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      noEmit: true,
      ...options,
    },
    files: ['consumer.ts'],
  }
  writeFileSync(join(tmp, 'tsconfig.json'), JSON.stringify(config))
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tmp],
    { cwd: tmp, encoding: 'utf8' },
  )
  return { code: r.status ?? -1, errors: r.stdout.split('\n').filter((l) => /error TS\d+/.test(l)) }
}

// Each compile reads every declaration of the package: seconds on an idle machine, more on a busy one.
describe('a TypeScript consumer of the built declarations', { timeout: 240_000 }, () => {
  it('compiles without @types/node under skipLibCheck: true', () => {
    expect(tsc({ skipLibCheck: true, types: [] })).toEqual({ code: 0, errors: [] })
  })

  it('compiles under skipLibCheck: false with @types/node', () => {
    mkdirSync(join(tmp, 'node_modules', '@types'), { recursive: true })
    symlinkSync(
      join(ROOT, 'node_modules', '@types', 'node'),
      join(tmp, 'node_modules', '@types', 'node'),
      'dir',
    )
    try {
      expect(tsc({ skipLibCheck: false, types: ['node'] })).toEqual({ code: 0, errors: [] })
    } finally {
      rmSync(join(tmp, 'node_modules', '@types'), { recursive: true, force: true })
    }
  })

  it('needs @types/node under skipLibCheck: false, for Node types only (as the README says)', () => {
    const r = tsc({ skipLibCheck: false, types: [] })
    expect(r.code).not.toBe(0)
    expect(r.errors.length).toBeGreaterThan(0)
    for (const e of r.errors) {
      expect(e.startsWith('node_modules/trecscore/dist/'), e).toBe(true)
      expect(/type definitions for node|Cannot find module '(node:)?[a-z_]+'/.test(e), e).toBe(true)
    }
  })
})
