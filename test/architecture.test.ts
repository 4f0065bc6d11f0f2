/**
 * The layering the README describes, checked on the import statements: the command line uses
 * only the public API, and the pure core never imports the edges (CLI, reports, trec_eval shell).
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

describe('architecture', () => {
  it('src/cli imports only the public API (src/index.ts), commander and its own files', () => {
    for (const f of files(join(SRC, 'cli'))) {
      for (const spec of imports(f)) {
        const ok =
          spec === 'commander' ||
          spec === '../../index.js' ||
          spec === '../index.js' ||
          spec.startsWith('./') ||
          spec === '../conventions-options.js'
        expect(ok, `${relative(SRC, f)} imports ${spec}`).toBe(true)
      }
    }
  })
  it('only `serve` loads the leaderboard server, on demand (dynamic import of its entry); the server is built on the public API', () => {
    for (const f of files(join(SRC, 'cli'))) {
      const rel = relative(SRC, f).split('\\').join('/')
      for (const m of readFileSync(f, 'utf8').matchAll(/import\(\s*'([^']+)'\s*\)/g)) {
        expect(
          rel === 'cli/commands/serve.ts' && m[1] === '../../server/index.js',
          `${rel} imports ${m[1]}`,
        ).toBe(true)
      }
    }
    const packages = new Set([
      'hono',
      'hono/cookie',
      'hono/body-limit',
      '@hono/node-server',
      'kysely',
      'zod',
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
          target === 'index.js' ||
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
  it('only presets/ and the root index import presets/reteco (the other layers take its routes as arguments)', () => {
    for (const f of files(SRC)) {
      const rel = relative(SRC, f).split('\\').join('/')
      if (rel.startsWith('presets/') || rel === 'index.ts') continue
      for (const spec of imports(f)) {
        const target = spec.startsWith('.')
          ? relative(SRC, join(dirname(f), spec))
              .split('\\')
              .join('/')
          : ''
        expect(target.startsWith('presets/reteco/'), `${rel} imports ${spec}`).toBe(false)
      }
    }
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
