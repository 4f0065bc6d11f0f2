/**
 * The optional packages: the heavy parts of trecscore that only one feature uses, so a plain
 * `npm install trecscore` leaves them out (they are optional peer dependencies; this repository
 * installs them as devDependencies for its tests). They are loaded on first use; a missing one
 * is a {@link MissingPackageError} that says what to install, never a module-resolution trace.
 */
import { createRequire } from 'node:module'
import { MissingPackageError } from '../errors/missing-package-error.js'

/** Each optional package, the version trecscore is tested with, and the feature that needs it. */
export const OPTIONAL_PACKAGES = {
  'onnxruntime-node': { version: '1.30.0', feature: 'BERTScore' },
  '@huggingface/tokenizers': { version: '0.2.0', feature: 'BERTScore' },
  'better-sqlite3': { version: '12.11.1', feature: 'the judge cache' },
  pg: { version: '8.23.1', feature: 'the Postgres backend of trecscore serve' },
  'pg-boss': {
    version: '10.4.2',
    feature: 'the Postgres job queue (trecscore serve, trecscore worker)',
  },
} as const

/** Name of an optional package. */
export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES

/** One load to try: the package it needs and a loader (a dynamic `import()` of it, or of a module importing it). */
export type OptionalLoad<T> = readonly [OptionalPackage, () => Promise<T>]

/** True when `e` says that module `name` itself (not something inside it) cannot be found. */
function notFound(e: unknown, name: string): boolean {
  if (!(e instanceof Error)) return false
  const code = (e as { code?: unknown }).code
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    e.message.includes(`'${name}'`)
  )
}

function failure(
  failed: readonly { name: OptionalPackage; error: unknown }[],
): MissingPackageError {
  const feature = OPTIONAL_PACKAGES[failed[0]!.name].feature
  const specs = failed.map((f) => `${f.name}@${OPTIONAL_PACKAGES[f.name].version}`)
  const names = failed.map(({ name, error }) => {
    if (notFound(error, name)) return name
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    return `${name} (installed, but it does not load: ${why})`
  })
  return new MissingPackageError(
    `${feature} needs ${names.join(' and ')}: npm install ${specs.join(' ')}`,
    specs,
  )
}

/**
 * Runs the loads together and returns their modules in order; if any fails, throws one
 * {@link MissingPackageError} naming every package that is missing (or does not load) and the
 * feature of the first one.
 */
export async function importOptional<const T extends readonly unknown[]>(
  loads: { readonly [K in keyof T]: OptionalLoad<T[K]> },
): Promise<T> {
  const settled = await Promise.allSettled(loads.map(([, load]) => load()))
  const failed = settled.flatMap((s, i) =>
    s.status === 'rejected' ? [{ name: loads[i]![0], error: s.reason as unknown }] : [],
  )
  if (failed.length > 0) throw failure(failed)
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T
}

/** `require(name)` of a CommonJS optional package, with the same failure as {@link importOptional}. */
export function requireOptional<T>(name: OptionalPackage): T {
  try {
    return createRequire(import.meta.url)(name) as T
  } catch (error) {
    throw failure([{ name, error }])
  }
}
