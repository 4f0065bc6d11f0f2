/**
 * The internal barrel: every family's public names (the union of `src/entries/*`), for the
 * server (`src/server`) and the project's tests. The CLI imports the entries themselves, so a
 * command loads only its families (README "Performance": start-up). Users
 * import the root (`src/index.ts`, the verbs and data types) or one subpath
 * (`trecscore/<family>`, a file of `src/entries`); this file is not in `package.json` `exports`.
 *
 * A name belongs to exactly one entry, so these star exports cannot shadow one another silently:
 * `test/exports.test.ts` checks that no two entries export different things under one name. A
 * new public name goes into its family's entry file, and reaches the server through here.
 *
 * @module
 */

export * from './entries/compare.js'
export * from './entries/conventions.js'
export * from './entries/errors.js'
export * from './entries/evaluate.js'
export * from './entries/fuse.js'
export * from './entries/io.js'
export * from './entries/judge.js'
export * from './entries/measures.js'
export * from './entries/presets.js'
export * from './entries/report.js'
export * from './entries/reteco.js'
export * from './entries/stats.js'
export * from './entries/textsim.js'
export * from './entries/trec-eval.js'
export * from './entries/validate.js'
