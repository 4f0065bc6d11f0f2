/**
 * The optional packages' loader: the one-line message for a missing package (and for one that
 * is installed but does not load), and the table kept in step with package.json.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MissingPackageError } from '../errors/missing-package-error.js'
import { isTrecscoreError } from '../errors/trecscore-error.js'
import { importOptional, OPTIONAL_PACKAGES, requireOptional } from './optional-package.js'

/** The error Node gives for `import('<name>')` when the package is not installed. */
function notFound(name: string, code = 'ERR_MODULE_NOT_FOUND'): Error {
  return Object.assign(
    new Error(
      `Cannot find package '${name}' imported from /x/dist/generation/bertscore/tokenizer.js`,
    ),
    { code },
  )
}

async function failureOf(p: Promise<unknown>): Promise<MissingPackageError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  )
  expect(e).toBeInstanceOf(MissingPackageError)
  return e as MissingPackageError
}

describe('importOptional', () => {
  it('returns the modules in order when every load succeeds', async () => {
    const r = await importOptional([
      ['onnxruntime-node', () => Promise.resolve({ a: 1 })],
      ['@huggingface/tokenizers', () => Promise.resolve('b')],
    ])
    expect(r).toEqual([{ a: 1 }, 'b'])
  })

  it('names every missing package in one line with the command that installs them (exit 2)', async () => {
    const e = await failureOf(
      importOptional([
        ['onnxruntime-node', () => Promise.reject(notFound('onnxruntime-node'))],
        ['@huggingface/tokenizers', () => Promise.reject(notFound('@huggingface/tokenizers'))],
      ]),
    )
    expect(e.message).toBe(
      'BERTScore needs onnxruntime-node and @huggingface/tokenizers: npm install onnxruntime-node@1.30.0 @huggingface/tokenizers@0.2.0',
    )
    expect(e.packages).toEqual(['onnxruntime-node@1.30.0', '@huggingface/tokenizers@0.2.0'])
    expect(e.exitCode).toBe(2)
    expect(isTrecscoreError(e)).toBe(true)
  })

  it('names only the missing one', async () => {
    const e = await failureOf(
      importOptional([
        ['onnxruntime-node', () => Promise.resolve({})],
        ['@huggingface/tokenizers', () => Promise.reject(notFound('@huggingface/tokenizers'))],
      ]),
    )
    expect(e.message).toBe(
      'BERTScore needs @huggingface/tokenizers: npm install @huggingface/tokenizers@0.2.0',
    )
  })

  it('says when a package is installed but does not load (a missing dependency of it, a native build for another Node)', async () => {
    const inner = notFound('onnxruntime-common')
    const e = await failureOf(importOptional([['onnxruntime-node', () => Promise.reject(inner)]]))
    expect(e.message).toBe(
      "BERTScore needs onnxruntime-node (installed, but it does not load: Cannot find package 'onnxruntime-common' imported from /x/dist/generation/bertscore/tokenizer.js): npm install onnxruntime-node@1.30.0",
    )
    const abi = new Error(
      'The module was compiled against a different Node.js version\nusing NODE_MODULE_VERSION 115.',
    )
    const e2 = await failureOf(importOptional([['onnxruntime-node', () => Promise.reject(abi)]]))
    expect(e2.message).toBe(
      'BERTScore needs onnxruntime-node (installed, but it does not load: The module was compiled against a different Node.js version): npm install onnxruntime-node@1.30.0',
    )
  })
})

describe('requireOptional', () => {
  it('loads an installed CommonJS package', () => {
    expect(typeof requireOptional<unknown>('better-sqlite3')).toBe('function')
  })
})

describe('OPTIONAL_PACKAGES', () => {
  const pkg = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
  ) as Record<string, Record<string, unknown> | undefined>
  it('are optional peer dependencies at ^version, devDependencies at the exact version, and never plain dependencies', () => {
    for (const [name, { version }] of Object.entries(OPTIONAL_PACKAGES)) {
      expect(pkg['devDependencies']?.[name], name).toBe(version)
      expect(pkg['peerDependencies']?.[name], name).toBe(`^${version}`)
      expect(pkg['peerDependenciesMeta']?.[name], name).toEqual({ optional: true })
      expect(pkg['dependencies']?.[name], name).toBeUndefined()
    }
    expect(Object.keys(pkg['peerDependencies'] ?? {}).sort()).toEqual(
      Object.keys(OPTIONAL_PACKAGES).sort(),
    )
  })
})
