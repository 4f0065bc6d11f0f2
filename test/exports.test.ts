/**
 * The published API, checked as Hono's `build/validate-exports.ts` checks its subpaths:
 * - `package.json` `exports` lists the root and one subpath per file of `src/entries`, one to
 *   one, each with its `types` (the built `.d.ts`) and `import` (the built `.js`);
 * - every entry loads from `dist/` (`npm run build` first), also by its package name
 *   (`trecscore/<family>`, a self-reference), and exports what its source lists;
 * - the root exports exactly {@link ROOT_VALUES} and {@link ROOT_TYPES};
 * - no two entries export different things under one name, and the internal barrel
 *   (`src/internal.ts`) re-exports every entry.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const ENTRIES = readdirSync(join(ROOT, 'src', 'entries'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => f.slice(0, -3))
  .sort()

/** The root's values: the verbs and the error classes. */
const ROOT_VALUES = [
  'InputError',
  'MissingPackageError',
  'OutputError',
  'ProblemListError',
  'RunEvaluator',
  'SourceError',
  'TrecscoreError',
  'compareRuns',
  'evaluate',
  'fuse',
  'isTrecscoreError',
  'listPresets',
  'parseQrels',
  'parseRun',
  'readQrels',
  'readRun',
  'renderTable',
  'resolveConventions',
  'runPreset',
  'trecEval',
  'validateRun',
]

/** The root's types: the data model, the results, the issue types. */
const ROOT_TYPES = [
  'CompareResult',
  'Conventions',
  'InputIssue',
  'Issue',
  'PresetResult',
  'Qrels',
  'Run',
  'RunEvaluation',
  'RunProblem',
  'Table',
]

interface Listed {
  /** Exported name. */
  readonly name: string
  /** Name in the module it comes from. */
  readonly original: string
  /** That module, relative to `src/`. */
  readonly from: string
  readonly type: boolean
}

/** The names an entry's source lists in its `export { … } from '…'` statements. */
function listed(file: string): Listed[] {
  const text = readFileSync(file, 'utf8')
  const star = /^export \*/m.exec(text)
  if (star) throw new Error(`${file}: an entry lists its names (no export *)`)
  return [...text.matchAll(/export\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)].flatMap((m) =>
    m[2]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => {
        const type = m[1] !== undefined || s.startsWith('type ')
        const [original, name] = s.replace(/^type\s+/, '').split(/\s+as\s+/)
        return {
          name: name ?? original!,
          original: original!,
          from: join(relative(join(ROOT, 'src'), dirname(file)), m[3]!).replace(/\\/g, '/'),
          type,
        }
      }),
  )
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { types: string; import: string }>
  main: string
  types: string
}

describe('package.json exports', () => {
  it('lists the root and one subpath per src/entries file, one to one', () => {
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', ...ENTRIES.map((e) => `./${e}`)].sort())
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' })
    expect(pkg.main).toBe('./dist/index.js')
    expect(pkg.types).toBe('./dist/index.d.ts')
    for (const e of ENTRIES)
      expect(pkg.exports[`./${e}`], e).toEqual({
        types: `./dist/entries/${e}.d.ts`,
        import: `./dist/entries/${e}.js`,
      })
  })
  it('points at built files (types first, as TypeScript needs)', () => {
    for (const [key, target] of Object.entries(pkg.exports)) {
      expect(Object.keys(target), key).toEqual(['types', 'import'])
      for (const f of [target.types, target.import])
        expect(existsSync(join(ROOT, f)), `${key}: ${f} (npm run build)`).toBe(true)
    }
  })
})

describe('the entries', () => {
  it('every entry loads from dist and exports the values its source lists', async () => {
    for (const e of ENTRIES) {
      const mod = (await import(
        pathToFileURL(join(ROOT, 'dist', 'entries', `${e}.js`)).href
      )) as Record<string, unknown>
      const values = listed(join(ROOT, 'src', 'entries', `${e}.ts`))
        .filter((l) => !l.type)
        .map((l) => l.name)
        .sort()
      expect(values.length, e).toBeGreaterThan(0)
      expect(Object.keys(mod).sort(), e).toEqual(values)
      for (const v of values) expect(mod[v], `${e}: ${v}`).toBeDefined()
    }
  })
  it('every subpath resolves by its package name (trecscore/<family>)', () => {
    const script = `const names = ${JSON.stringify(['', ...ENTRIES.map((e) => `/${e}`)])}
const out = {}
for (const n of names) out[n] = Object.keys(await import('trecscore' + n)).length
console.log(JSON.stringify(out))`
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    expect(r.stderr).toBe('')
    const counts = JSON.parse(r.stdout) as Record<string, number>
    expect(Object.keys(counts).length).toBe(ENTRIES.length + 1)
    expect(counts['']).toBe(ROOT_VALUES.length)
    for (const e of ENTRIES) expect(counts[`/${e}`], e).toBeGreaterThan(0)
  })
  it('no two entries export different things under one name', () => {
    const seen = new Map<string, Listed & { entry: string }>()
    const clashes: string[] = []
    for (const e of ENTRIES)
      for (const l of listed(join(ROOT, 'src', 'entries', `${e}.ts`))) {
        const before = seen.get(l.name)
        if (before && (before.from !== l.from || before.original !== l.original))
          clashes.push(`${l.name}: ${before.entry} (${before.from}) and ${e} (${l.from})`)
        seen.set(l.name, { ...l, entry: e })
      }
    expect(clashes).toEqual([])
  })
  it('the internal barrel re-exports every entry and nothing else', () => {
    const text = readFileSync(join(ROOT, 'src', 'internal.ts'), 'utf8')
    const stars = [...text.matchAll(/^export \* from '\.\/entries\/([^']+)\.js'/gm)].map(
      (m) => m[1],
    )
    expect(stars.sort()).toEqual(ENTRIES)
    expect(text.match(/^export /gm)?.length).toBe(ENTRIES.length)
  })
})

describe('the root', () => {
  it('exports exactly the documented verbs and types', async () => {
    const all = listed(join(ROOT, 'src', 'index.ts'))
    expect(
      all
        .filter((l) => !l.type)
        .map((l) => l.name)
        .sort(),
    ).toEqual(ROOT_VALUES)
    expect(
      all
        .filter((l) => l.type)
        .map((l) => l.name)
        .sort(),
    ).toEqual(ROOT_TYPES)
    for (const l of all) expect(l.from, l.name).toMatch(/^entries\/[a-z-]+\.js$/)
    const mod = (await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)) as Record<
      string,
      unknown
    >
    expect(Object.keys(mod).sort()).toEqual(ROOT_VALUES)
  })
  it('each root name is also in its family entry, as the same value', async () => {
    const root = (await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)) as Record<
      string,
      unknown
    >
    for (const l of listed(join(ROOT, 'src', 'index.ts'))) {
      const entry = l.from.replace(/^entries\/(.*)\.js$/, '$1')
      const names = listed(join(ROOT, 'src', 'entries', `${entry}.ts`)).map((x) => x.name)
      expect(names, `${l.name} in entries/${entry}.ts`).toContain(l.original)
      if (!l.type) {
        const mod = (await import(
          pathToFileURL(join(ROOT, 'dist', 'entries', `${entry}.js`)).href
        )) as Record<string, unknown>
        expect(root[l.name], l.name).toBe(mod[l.original])
      }
    }
  })
})

describe('the README', () => {
  it("imports from 'trecscore' and its subpaths only names they export", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const found = [...readme.matchAll(/import \{([^}]*)\} from 'trecscore(?:\/([a-z-]+))?'/g)].map(
      (m) => ({ names: m[1]!, entry: m[2] }),
    )
    expect(found.length).toBeGreaterThan(ENTRIES.length)
    const covered = new Set<string>()
    for (const { names, entry } of found) {
      const file = entry
        ? join(ROOT, 'src', 'entries', `${entry}.ts`)
        : join(ROOT, 'src', 'index.ts')
      expect(existsSync(file), `trecscore/${entry}`).toBe(true)
      const exported = new Set(listed(file).map((l) => l.name))
      for (const n of names.split(',').map((s) => s.trim().replace(/^type\s+/, ''))) {
        if (n)
          expect(exported.has(n), `${n} from 'trecscore${entry ? `/${entry}` : ''}'`).toBe(true)
      }
      if (entry) covered.add(entry)
    }
    expect([...covered].sort(), 'every subpath has a README example').toEqual(ENTRIES)
  })
})
