/**
 * One option vocabulary across commands: the README table "Options across commands" is checked
 * against the commander program, both ways, so a command that drifts fails here.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Command, Option } from 'commander'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/main.js'
import { ROOT } from './helpers.js'

interface Row {
  readonly flags: string
  readonly commands: readonly string[]
}

function readmeTable(): Row[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const m = /<!-- options-table -->\n([\s\S]*?)<!-- \/options-table -->/.exec(readme)
  expect(m, 'README has the options table').not.toBeNull()
  return m![1]!
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => {
      const cells = l.split(/(?<!\\)\|/).map((c) => c.trim())
      return {
        flags: cells[1]!.replace(/^`|`$/g, ''),
        commands: cells[3]!
          .split(',')
          .map((c) => c.trim())
          .sort(),
      }
    })
}

/** `command --option` pairs the README lists as keeping another meaning. */
function readmeExceptions(): Set<string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const m = /<!-- options-exceptions -->\n([\s\S]*?)<!-- \/options-exceptions -->/.exec(readme)
  expect(m, 'README lists the exceptions').not.toBeNull()
  return new Set(
    [...m![1]!.matchAll(/^- `([a-z ]+?) (--[a-z-]+)`/gm)].map((x) => `${x[1]} ${x[2]}`),
  )
}

function commandsOf(program: Command): { path: string; options: readonly Option[] }[] {
  const out: { path: string; options: readonly Option[] }[] = []
  const walk = (c: Command, path: string): void => {
    for (const s of c.commands) {
      const p = path ? `${path} ${s.name()}` : s.name()
      out.push({ path: p, options: s.options.filter((o) => !o.hidden) })
      walk(s, p)
    }
  }
  walk(program, '')
  return out
}

const longOf = (flags: string): string => /--[a-z-]+/.exec(flags)![0]

/** Every command module loaded, as for `trecscore --help`. */
const program = await buildProgram()

describe('the option vocabulary (README "Options across commands")', () => {
  const table = readmeTable()
  const exceptions = readmeExceptions()
  const all = commandsOf(program)
  const commands = all.map((c) => ({
    ...c,
    options: c.options.filter((o) => !exceptions.has(`${c.path} ${o.long}`)),
  }))

  it('every listed exception exists', () => {
    expect(exceptions.size).toBeGreaterThan(0)
    for (const e of exceptions)
      expect([e, all.some((c) => c.options.some((o) => `${c.path} ${o.long}` === e))]).toEqual([
        e,
        true,
      ])
  })

  it('lists the shared options', () => {
    expect(table.map((r) => longOf(r.flags))).toEqual(
      expect.arrayContaining([
        '--measure',
        '--format',
        '--out',
        '--digits',
        '--explain',
        '--name',
        '--names-from',
        '--qrels',
        '--per-query',
        '--preset',
      ]),
    )
  })
  for (const row of table) {
    it(`${row.flags}: the same spelling in exactly the commands listed`, () => {
      const long = longOf(row.flags)
      const having = commands.filter((c) => c.options.some((o) => o.long === long))
      expect(having.map((c) => c.path).sort()).toEqual(row.commands)
      for (const c of having)
        expect([c.path, c.options.find((o) => o.long === long)!.flags]).toEqual([c.path, row.flags])
    })
  }
  it('short flags mean one thing: -m measure, -f format, -o out, -q per-query', () => {
    const meaning: Record<string, string> = {
      '-m': '--measure',
      '-f': '--format',
      '-o': '--out',
      '-q': '--per-query',
    }
    for (const c of commands) {
      for (const o of c.options) {
        if (o.short !== undefined)
          expect([c.path, o.short, o.long]).toEqual([c.path, o.short, meaning[o.short]])
        if (o.long === '--format' || o.long === '--out')
          expect([c.path, o.long, o.short]).toEqual([
            c.path,
            o.long,
            o.long === '--format' ? '-f' : '-o',
          ])
      }
    }
  })
  it('every --format says table, never text, and still takes text for table', () => {
    for (const c of commands) {
      for (const o of c.options.filter((x) => x.long === '--format')) {
        expect([c.path, o.description]).not.toEqual([
          c.path,
          expect.stringMatching(/[:,] text(,|$)/),
        ])
        if (/[:,] table(,|$)/.test(o.description))
          expect([c.path, o.parseArg!('text', undefined)]).toEqual([c.path, 'table'])
      }
    }
  })
})
