import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { COMMANDS, commandModulesFor } from './index.js'

describe('the command table (modules loaded on demand)', () => {
  it('each module registers exactly the top-level commands it is listed under', async () => {
    for (const m of COMMANDS) {
      const program = new Command('trecscore')
      ;(await m.load())(program)
      expect(program.commands.map((c) => c.name())).toEqual(m.names)
    }
  })
  it('lists every module that exports a register function, once', () => {
    const dir = import.meta.dirname
    const registering = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts')
      .filter((f) =>
        /^export function register[A-Z]\w*\(program: Command\)/m.test(
          readFileSync(join(dir, f), 'utf8'),
        ),
      )
      .map((f) => `./${f.replace(/\.ts$/, '.js')}`)
      .sort()
    const table = [
      ...readFileSync(join(dir, 'index.ts'), 'utf8').matchAll(/import\('(\.\/[a-z-]+\.js)'\)/g),
    ]
      .map((x) => x[1])
      .sort()
    expect(table).toEqual(registering)
  })
  it('loads one module for a known command, every module otherwise', () => {
    expect(commandModulesFor(['evaluate', 'q', 'r']).map((m) => m.names)).toEqual([['evaluate']])
    expect(commandModulesFor(['board', '--server', 'x']).map((m) => m.names)).toEqual([
      ['submit', 'board'],
    ])
    for (const argv of [[], ['--help'], ['evalute'], ['-V']])
      expect(commandModulesFor(argv)).toBe(COMMANDS)
  })
})
