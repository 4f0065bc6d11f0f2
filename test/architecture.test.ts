/**
 * The layering the README describes, checked on the import statements of every `src/**\/*.ts`
 * (tests excluded): no import cycle, every import points down {@link LAYERS}, the command line
 * reaches the engine only through the public entries (`src/entries/*`) and the server only
 * through the barrel (`src/internal.ts`), only the preset
 * layer and its callers import `presets/*`, and the pure core never imports the edges.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..', 'src')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory()
      ? files(p)
      : p.endsWith('.ts') && !p.endsWith('.test.ts')
        ? [p]
        : []
  })
}

function imports(file: string): string[] {
  return [
    ...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm),
  ].map((m) => m[1]!)
}

/**
 * The relative imports of one file as paths under `src/` (`./x.js` read as `x.ts`): static
 * `import` and `export … from`, `import type` included (a type-only cycle still tangles the
 * reading order), and dynamic `import('…')` of a literal path.
 */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [
    ...imports(file),
    ...[...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]!),
  ]
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) =>
      relative(SRC, join(dirname(file), s))
        .split('\\')
        .join('/')
        .replace(/\.js$/, '.ts'),
    )
}

/** Every source file of `src/` (relative path) and the files it imports. */
const graph: ReadonlyMap<string, readonly string[]> = new Map(
  files(SRC).map((f) => [relative(SRC, f).split('\\').join('/'), localImports(f)]),
)

/**
 * The cycles of a directed graph: one per strongly connected component with more than one
 * node (or a node importing itself), as the node path of one cycle through it, starting at the
 * component's first node in sorted order. Tarjan's algorithm, iterative (no recursion limit).
 */
export function findCycles(g: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  let next = 0
  for (const root of g.keys()) {
    if (index.has(root)) continue
    const work: [string, number][] = [[root, 0]]
    while (work.length > 0) {
      const top = work[work.length - 1]!
      const [v, i] = top
      if (i === 0) {
        index.set(v, next)
        low.set(v, next)
        next++
        stack.push(v)
        onStack.add(v)
      }
      const out = (g.get(v) ?? []).filter((w) => g.has(w))
      if (i < out.length) {
        top[1] = i + 1
        const w = out[i]!
        if (!index.has(w)) work.push([w, 0])
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(v)!))
      if (low.get(v) === index.get(v)) {
        const c: string[] = []
        let w: string
        do {
          w = stack.pop()!
          onStack.delete(w)
          c.push(w)
        } while (w !== v)
        if (c.length > 1 || (g.get(v) ?? []).includes(v)) components.push(c)
      }
    }
  }
  return components.map((c) => cycleThrough(g, new Set(c))).sort((a, b) => (a[0]! < b[0]! ? -1 : 1))
}

/** A shortest cycle from the smallest node of a strongly connected component back to it. */
function cycleThrough(g: ReadonlyMap<string, readonly string[]>, scc: Set<string>): string[] {
  const start = [...scc].sort()[0]!
  const from = new Map<string, string>()
  const queue = [start]
  for (let k = 0; k < queue.length; k++) {
    const v = queue[k]!
    for (const w of g.get(v) ?? []) {
      if (!scc.has(w)) continue
      if (w === start) {
        const path = [v]
        while (path[0] !== start) path.unshift(from.get(path[0]!)!)
        return path
      }
      if (!from.has(w)) {
        from.set(w, v)
        queue.push(w)
      }
    }
  }
  return [start]
}

/**
 * The layers of `src/`, bottom first: a file may import its own layer and the layers below,
 * never one above. A file's layer is that of the longest path prefix that names it, so a leaf
 * module can sit below the rest of its folder (the number formatting and escaping of
 * `report/`, the byte helpers of `io/`).
 */
const LAYERS: readonly (readonly string[])[] = [
  // 0. the data model and the leaf helpers (bytes and ids, number formatting, escaping, tables)
  [
    'model/',
    'io/bytes.ts',
    'io/numbers.ts',
    'report/printf.ts',
    'report/python-round.ts',
    'report/escape.ts',
    'report/table.ts',
    'report/json-chunks.ts',
  ],
  ['errors/'], // 1. error classes and the input-issue type
  ['conventions/'], // 2. conventions as typed values
  ['rank/'], // 3. per-query preparation, id stores, judged rankings
  ['io/'], // 4. parsers, readers, sources, output
  ['measures/'], // 5. one measure family per file
  ['evaluate/'], // 6. the engine
  ['stats/', 'fuse/', 'validate/', 'trec-eval/'], // 7. the engine's users
  ['compare/', 'generation/'], // 8. comparisons (on stats), generation metrics and the judge
  // 9. benchmark presets, result renderers, and the report's file edge (it runs presets)
  ['presets/', 'report/'],
  ['entries/', 'index.ts', 'internal.ts'], // 10. the public entries and the barrel
  ['cli/', 'server/'], // 11. the shells
]

/** The layer of a file under `src/`, or -1 when no layer names it. */
function layerOf(rel: string): number {
  let best = -1
  let length = -1
  LAYERS.forEach((prefixes, layer) => {
    for (const p of prefixes)
      if ((p.endsWith('/') ? rel.startsWith(p) : rel === p) && p.length > length) {
        best = layer
        length = p.length
      }
  })
  return best
}

/** Who may import `presets/*`: the shells, the preset layer itself, the entries and barrels. */
const PRESET_IMPORTERS: readonly string[] = [
  'cli/',
  'presets/',
  'entries/',
  'index.ts',
  'internal.ts',
]

describe('the cycle finder', () => {
  it('finds each cycle of a synthetic graph, once, as a path', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c', 'e']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['f']],
      ['f', []],
      ['x', ['y', 'missing']],
      ['y', ['x']],
    ])
    expect(findCycles(g)).toEqual([['a', 'b', 'c'], ['d'], ['x', 'y']])
  })
  it('finds none in a DAG (diamond, shared leaves)', () => {
    const g = new Map([
      ['a', ['b', 'c']],
      ['b', ['d']],
      ['c', ['d']],
      ['d', []],
    ])
    expect(findCycles(g)).toEqual([])
  })
  it('the layer table places leaves below their folder', () => {
    expect(layerOf('report/printf.ts')).toBe(0)
    expect(layerOf('report/leaderboard.ts')).toBe(9)
    expect(layerOf('io/bytes.ts')).toBe(0)
    expect(layerOf('io/read.ts')).toBe(4)
    expect(layerOf('nowhere.ts')).toBe(-1)
  })
})

describe('architecture', () => {
  it('src/cli imports only the public entries (src/entries/*, as a user would), commander and its own files', () => {
    for (const f of files(join(SRC, 'cli'))) {
      for (const spec of imports(f)) {
        const ok =
          spec === 'commander' ||
          /^(\.\.\/)+entries\/[a-z-]+\.js$/.test(spec) ||
          spec.startsWith('./') ||
          spec === '../conventions-options.js'
        expect(ok, `${relative(SRC, f)} imports ${spec}`).toBe(true)
      }
    }
  })
  it('the command modules are loaded on demand, from the command table only; only `serve` loads the leaderboard server (dynamic import of its entry); the server is built on the engine barrel (src/internal.ts)', () => {
    for (const f of files(join(SRC, 'cli'))) {
      const rel = relative(SRC, f).split('\\').join('/')
      for (const m of readFileSync(f, 'utf8').matchAll(/import\(\s*'([^']+)'\s*\)/g)) {
        const ok =
          (rel === 'cli/commands/serve.ts' && m[1] === '../../server/index.js') ||
          (rel === 'cli/commands/index.ts' && /^\.\/[a-z-]+\.js$/.test(m[1]!)) ||
          (rel === 'cli/main.ts' && m[1] === './commands/trec-eval.js')
        expect(ok, `${rel} imports ${m[1]}`).toBe(true)
      }
    }
    const packages = new Set([
      'hono',
      'hono/cookie',
      'hono/body-limit',
      '@hono/node-server',
      'kysely',
      'zod',
      // The Postgres job queue (an optional package, loaded on demand by server/queue).
      'pg-boss',
    ])
    for (const f of files(join(SRC, 'server'))) {
      const rel = relative(SRC, f).split('\\').join('/')
      for (const spec of imports(f)) {
        const target = spec.startsWith('.')
          ? relative(SRC, join(dirname(f), spec))
              .split('\\')
              .join('/')
          : null
        const ok =
          spec.startsWith('node:') ||
          packages.has(spec) ||
          target === 'internal.js' ||
          (target !== null && target.startsWith('server/'))
        expect(ok, `${rel} imports ${spec}`).toBe(true)
      }
      expect(
        readFileSync(f, 'utf8').includes("from 'better-sqlite3'"),
        `${rel}: better-sqlite3 is loaded on first use only`,
      ).toBe(false)
    }
  })
  it('the pure core does not import the edges', () => {
    const core = ['model', 'conventions', 'rank', 'measures', 'evaluate']
    for (const layer of core) {
      for (const f of files(join(SRC, layer))) {
        for (const spec of imports(f)) {
          expect(
            /\/(cli|report|trec-eval|validate)\//.test(spec),
            `${relative(SRC, f)} imports ${spec}`,
          ).toBe(false)
        }
      }
    }
  })
  it('the statistics, fusion, comparison and text-metric modules do no I/O outside their named edge files', () => {
    // Edge files (reading files, SQLite, HTTP, ONNX) are listed here; everything else in these
    // folders is pure computation.
    const edges = new Set([
      'fuse/fuse-files.ts',
      'generation/textsim/textsim-file.ts',
      'generation/textsim/wordnet-file.ts',
      'generation/textsim/nltk/load-punkt.ts',
      'generation/bertscore/scorer.ts',
      'generation/bertscore/onnx-model.ts',
      'generation/judge/cache.ts',
      'generation/judge/commands.ts',
      'generation/judge/files.ts',
      'generation/judge/client.ts',
      'generation/judge/batch.ts',
      'generation/judge/progress.ts',
      'generation/judge/runner.ts',
    ])
    for (const layer of ['stats', 'fuse', 'compare', 'generation', 'io/jsonl.ts']) {
      const root = join(SRC, layer)
      for (const f of statSync(root).isDirectory() ? files(root) : [root]) {
        const rel = relative(SRC, f).split('\\').join('/')
        if (edges.has(rel)) continue
        for (const spec of imports(f))
          expect(spec.startsWith('node:'), `${rel} imports ${spec}`).toBe(false)
      }
    }
  })
  it('only presets/ and its entry import presets/reteco (the other layers take its routes as arguments)', () => {
    for (const [rel, targets] of graph) {
      if (rel.startsWith('presets/') || rel === 'entries/reteco.ts') continue
      for (const target of targets)
        expect(target.startsWith('presets/reteco/'), `${rel} imports ${target}`).toBe(false)
    }
  })
  it('only cli/, presets/, the entries, the barrels and the report file edge import presets/*', () => {
    for (const [rel, targets] of graph) {
      if (PRESET_IMPORTERS.some((p) => rel === p || (p.endsWith('/') && rel.startsWith(p))))
        continue
      for (const target of targets)
        expect(target.startsWith('presets/'), `${rel} imports ${target}`).toBe(false)
    }
  })
  it('src/ has no import cycle (type-only imports and literal dynamic imports included)', () => {
    const cycles = findCycles(graph)
    expect(cycles.map((c) => [...c, c[0]].join(' -> '))).toEqual([])
  })
  it('imports point down the layers (LAYERS, bottom first)', () => {
    const wrong: string[] = []
    for (const [rel, targets] of graph) {
      const from = layerOf(rel)
      for (const target of targets) {
        const to = layerOf(target)
        if (to > from) wrong.push(`${rel} (layer ${from}) imports ${target} (layer ${to})`)
      }
    }
    expect(wrong).toEqual([])
  })
  it('every source file is in a layer', () => {
    expect([...graph.keys()].filter((rel) => layerOf(rel) < 0)).toEqual([])
  })
  it('every worker job module declares the contract the worker calls by name (QueryJobModule or RangeJobModule)', () => {
    const jobs = files(SRC).filter((f) => /module: import\.meta\.url/.test(readFileSync(f, 'utf8')))
    expect(jobs.length).toBeGreaterThan(0)
    for (const f of jobs)
      expect(
        /\(\{ createQueryJob \} satisfies QueryJobModule<|\(\{ createRangeJob \} satisfies RangeJobModule</.test(
          readFileSync(f, 'utf8'),
        ),
        `${relative(SRC, f)} passes itself to runInParallel`,
      ).toBe(true)
  })
  it('no module-level mutable bindings: state lives in explicit handles (a GradeArena, a WordNetCache, a JudgeCache)', () => {
    // A process's own state, named here: the CPU sample the idle-core probe compares against,
    // and a scoring worker process's database pool (one per forked process).
    const processState = new Set(['io/cpu-idle.ts', 'server/worker/worker-main.ts'])
    const found: string[] = []
    for (const f of files(SRC)) {
      const rel = relative(SRC, f).split('\\').join('/')
      if (processState.has(rel)) continue
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^(export )?(let|var) /.test(line)) found.push(`${rel}:${i + 1}: ${line}`)
        })
    }
    expect(found).toEqual([])
    for (const rel of processState)
      expect(
        /^(export )?(let|var) /m.test(readFileSync(join(SRC, rel), 'utf8')),
        `${rel} is still listed`,
      ).toBe(true)
  })
  it('core computation modules do no I/O', () => {
    for (const layer of ['model', 'conventions', 'rank', 'measures']) {
      for (const f of files(join(SRC, layer))) {
        for (const spec of imports(f))
          expect(spec.startsWith('node:'), `${relative(SRC, f)} imports ${spec}`).toBe(false)
      }
    }
  })
})
