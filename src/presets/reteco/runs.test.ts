import { describe, expect, it } from 'vitest'
import { domainOfRunFile } from './runs.js'

describe('domainOfRunFile', () => {
  const domains = ['bitcoin', 'earth.science', 'earth', 'Law']
  it('matches <domain> plus any extension, .gz too, case insensitive', () => {
    expect(domainOfRunFile('bitcoin.trec', domains)).toBe('bitcoin')
    expect(domainOfRunFile('BITCOIN.txt.gz', domains)).toBe('bitcoin')
    expect(domainOfRunFile('bitcoin', domains)).toBe('bitcoin')
    expect(domainOfRunFile('law.trec', domains)).toBe('Law')
  })
  it('a domain name with dots matches its file (issue 10: it never could); the longest domain wins', () => {
    expect(domainOfRunFile('earth.science.trec', domains)).toBe('earth.science')
    expect(domainOfRunFile('earth.science.trec.gz', domains)).toBe('earth.science')
    expect(domainOfRunFile('earth.science', domains)).toBe('earth.science')
    expect(domainOfRunFile('earth.trec', domains)).toBe('earth')
  })
  it('a name that only starts like a domain matches none', () => {
    expect(domainOfRunFile('bitcoins.trec', domains)).toBeUndefined()
    expect(domainOfRunFile('earth_science.trec', domains)).toBeUndefined()
    expect(domainOfRunFile('.trec', domains)).toBeUndefined()
  })
})
