import { describe, expect, it } from 'vitest'
import { TextsimItemError } from '../generation/textsim/errors.js'
import { OutputError } from '../io/output.js'
import { SourceError } from '../io/source.js'
import { MissingPackageError } from './missing-package-error.js'
import {
  InputError,
  isTrecscoreError,
  ProblemListError,
  TrecscoreError,
} from './trecscore-error.js'

describe('TrecscoreError', () => {
  it('each class keeps its own name', () => {
    expect(new TrecscoreError('x', 2).name).toBe('TrecscoreError')
    expect(new InputError([]).name).toBe('InputError')
    expect(new ProblemListError(['a']).name).toBe('ProblemListError')
    const tooLong = new TextsimItemError({ code: 'lcs_too_large', rows: 3, columns: 4, limit: 10 })
    expect(tooLong.name).toBe('TextsimItemError')
    expect(tooLong.message).toBe('LCS table of 3 × 4 tokens exceeds the limit of 10 cells')
    expect(tooLong.problem.code).toBe('lcs_too_large')
    class Mine extends ProblemListError {}
    expect(new Mine(['a']).name).toBe('Mine')
    expect(String(new InputError([], 'bad'))).toBe('InputError: bad')
  })

  it('is recognised by its brand, not by its name', () => {
    for (const e of [
      new TrecscoreError('x', 2),
      new InputError([]),
      new ProblemListError(['a']),
      new TextsimItemError({ code: 'no_references', scorer: 'METEOR' }),
    ])
      expect(isTrecscoreError(e)).toBe(true)
    const named = new Error('fake')
    named.name = 'TrecscoreError'
    expect(isTrecscoreError(named), 'a plain Error named like one').toBe(false)
    expect(isTrecscoreError(new Error('x'))).toBe(false)
    expect(isTrecscoreError(null)).toBe(false)
    expect(isTrecscoreError('TrecscoreError')).toBe(false)
    // Another copy of the package (or realm) brands its errors with the same registered symbol.
    const foreign = Object.assign(new Error('other copy'), {
      exitCode: 2,
      [Symbol.for('trecscore.error')]: true,
    })
    expect(isTrecscoreError(foreign)).toBe(true)
  })

  it('the I/O and package errors are branded too', () => {
    expect(SourceError.prototype instanceof TrecscoreError).toBe(true)
    expect(OutputError.prototype instanceof TrecscoreError).toBe(true)
    expect(MissingPackageError.prototype instanceof TrecscoreError).toBe(true)
  })
})
