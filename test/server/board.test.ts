/**
 * Board ranking (pure): the never-rank-the-unscored invariant, best/latest per team, baselines,
 * and the tie policy, on hand-built cases and as fast-check properties.
 */

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  anonymousAlias,
  type Board,
  type BoardCandidate,
  domainBreakdown,
  publish,
  rankBoard,
} from '../../src/server/board.js'
import { boardCsv, boardLatex, boardMarkdown } from '../../src/server/web/exports.js'

function cand(
  over: Partial<BoardCandidate> & Pick<BoardCandidate, 'submissionId' | 'teamId'>,
): BoardCandidate {
  return {
    teamName: over.teamId,
    baseline: false,
    anonymous: false,
    state: 'scored',
    primary: 0.5,
    columns: {},
    createdAt: '2027-01-01T00:00:00.000Z',
    runName: 'r',
    ...over,
  }
}

describe('rankBoard', () => {
  it('ranks the best scored submission per team; ties share a rank (1, 1, 3), earlier first', () => {
    const board = rankBoard(
      [
        cand({ submissionId: 'a1', teamId: 'A', primary: 0.4 }),
        cand({
          submissionId: 'a2',
          teamId: 'A',
          primary: 0.6,
          createdAt: '2027-01-02T00:00:00.000Z',
        }),
        cand({
          submissionId: 'b1',
          teamId: 'B',
          primary: 0.6,
          createdAt: '2027-01-01T12:00:00.000Z',
        }),
        cand({ submissionId: 'c1', teamId: 'C', primary: 0.3 }),
        cand({ submissionId: 'd1', teamId: 'D', primary: 0.6 + 1e-13 }),
      ],
      'best',
    )
    expect(board.map((e) => [e.submissionId, e.rank])).toEqual([
      ['d1', 1],
      ['b1', 1],
      ['a2', 1],
      ['c1', 4],
    ])
  })
  it('latest: the newest scored submission counts even when it is worse', () => {
    const board = rankBoard(
      [
        cand({ submissionId: 'a1', teamId: 'A', primary: 0.9 }),
        cand({
          submissionId: 'a2',
          teamId: 'A',
          primary: 0.1,
          createdAt: '2027-02-01T00:00:00.000Z',
        }),
      ],
      'latest',
    )
    expect(board.map((e) => e.submissionId)).toEqual(['a2'])
  })
  it('selected: the selected submission counts, even when worse; without one (or while it is unscored) the latest', () => {
    const a1 = cand({ submissionId: 'a1', teamId: 'A', primary: 0.9 })
    const a2 = cand({
      submissionId: 'a2',
      teamId: 'A',
      primary: 0.1,
      createdAt: '2027-02-01T00:00:00.000Z',
    })
    const a3 = cand({
      submissionId: 'a3',
      teamId: 'A',
      primary: 0.5,
      createdAt: '2027-01-15T00:00:00.000Z',
    })
    const b1 = cand({ submissionId: 'b1', teamId: 'B', primary: 0.3 })
    const b2 = cand({
      submissionId: 'b2',
      teamId: 'B',
      state: 'queued',
      primary: null,
      createdAt: '2027-03-01T00:00:00.000Z',
    })
    for (const order of [
      [a1, a2, a3, b1, b2],
      [b2, a3, b1, a2, a1],
    ]) {
      expect(
        rankBoard(order, 'selected', new Set(['a3', 'b2'])).map((e) => e.submissionId),
      ).toEqual(['a3', 'b1'])
      expect(rankBoard(order, 'selected').map((e) => e.submissionId)).toEqual(['b1', 'a2'])
    }
  })
  it('never ranks queued, scoring, failed or unscorable entries, even with a value', () => {
    const board = rankBoard(
      [
        cand({ submissionId: 'f', teamId: 'F', state: 'failed', primary: 1 }),
        cand({ submissionId: 'q', teamId: 'Q', state: 'queued', primary: null }),
        cand({ submissionId: 's', teamId: 'S', state: 'scoring', primary: 0.99 }),
        cand({ submissionId: 'n', teamId: 'N', primary: null }),
        cand({ submissionId: 'x', teamId: 'X', primary: Number.NaN }),
        cand({ submissionId: 'ok', teamId: 'OK', primary: 0.01 }),
      ],
      'best',
    )
    expect(board.map((e) => [e.submissionId, e.rank])).toEqual([['ok', 1]])
  })
  it('each baseline run is its own marked entry', () => {
    const board = rankBoard(
      [
        cand({ submissionId: 'b1', teamId: 'base', baseline: true, primary: 0.2 }),
        cand({ submissionId: 'b2', teamId: 'base', baseline: true, primary: 0.3 }),
        cand({ submissionId: 't', teamId: 'T', primary: 0.25 }),
      ],
      'best',
    )
    expect(board.map((e) => [e.submissionId, e.rank, e.baseline])).toEqual([
      ['b2', 1, true],
      ['t', 2, false],
      ['b1', 3, true],
    ])
  })

  const candidates = fc.array(
    fc.record({
      submissionId: fc.string({ minLength: 1, maxLength: 4 }),
      teamId: fc.constantFrom('A', 'B', 'C', 'D'),
      baseline: fc.boolean(),
      state: fc.constantFrom('queued', 'scoring', 'scored', 'failed'),
      primary: fc.option(
        fc.oneof(
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.constantFrom(0.5, 0.25, Number.NaN),
        ),
        { nil: null },
      ),
      createdAt: fc
        .integer({ min: 0, max: 1e6 })
        .map((t) => new Date(1.8e12 + t * 1000).toISOString()),
    }),
    { maxLength: 30 },
  )
  it('invariant: every entry is scored with a finite value; ranks follow the values; one entry per team', () => {
    fc.assert(
      fc.property(
        candidates,
        fc.constantFrom('best' as const, 'latest' as const, 'selected' as const),
        fc.array(fc.string({ minLength: 1, maxLength: 4 })),
        (raw, counts, picked) => {
          const cs = raw.map((r) => cand({ ...r, state: r.state as BoardCandidate['state'] }))
          const board = rankBoard(cs, counts, new Set(picked))
          for (const e of board) {
            expect(e.state).toBe('scored')
            expect(Number.isFinite(e.primary)).toBe(true)
          }
          const teams = board.filter((e) => !e.baseline).map((e) => e.teamId)
          expect(new Set(teams).size).toBe(teams.length)
          const scoredTeams = new Set(
            cs
              .filter((c) => !c.baseline && c.state === 'scored' && Number.isFinite(c.primary))
              .map((c) => c.teamId),
          )
          expect(new Set(teams)).toEqual(scoredTeams)
          board.forEach((e, i) => {
            if (i === 0) return expect(e.rank).toBe(1)
            const prev = board[i - 1]!
            expect(e.primary!).toBeLessThanOrEqual(prev.primary! + 1e-10)
            expect(e.rank).toBe(
              Math.round(e.primary! * 1e10) === Math.round(prev.primary! * 1e10)
                ? prev.rank
                : i + 1,
            )
          })
          if (counts === 'best') {
            for (const e of board.filter((x) => !x.baseline)) {
              const best = Math.max(
                ...cs
                  .filter(
                    (c) =>
                      c.teamId === e.teamId &&
                      !c.baseline &&
                      c.state === 'scored' &&
                      Number.isFinite(c.primary),
                  )
                  .map((c) => c.primary!),
              )
              expect(Math.round(e.primary! * 1e10)).toBe(Math.round(best * 1e10))
            }
          }
        },
      ),
    )
  })
})

describe('boardCsv', () => {
  it('quotes cells with commas, quotes or newlines and keeps formula-like names as text', () => {
    const entries = rankBoard(
      [
        cand({
          submissionId: 'a',
          teamId: 'A',
          teamName: '=HYPERLINK("x"),1',
          primary: 0.25,
          columns: { 'nDCG@10': 0.25 },
        }),
        cand({
          submissionId: 'b',
          teamId: 'B',
          teamName: 'line\nbreak',
          primary: 0.125,
          columns: { 'nDCG@10': null },
        }),
      ],
      'best',
    )
    const csv = boardCsv({
      judge: null,
      track: 't',
      phase: 'dev',
      primary: 'nDCG@10',
      columns: ['nDCG@10'],
      released: true,
      counts: 'best',
      tiePolicy: '',
      tierPolicy: null,
      domains: [],
      turnDepths: [],
      qrelsVersion: 1,
      rescoring: 0,
      entries: entries.map(publish),
    })
    expect(csv).toBe(
      'rank,team,baseline,run,submitted,nDCG@10\r\n1,"\'=HYPERLINK(""x""),1",false,r,2027-01-01T00:00:00.000Z,0.25\r\n2,"line\nbreak",false,r,2027-01-01T00:00:00.000Z,\r\n',
    )
  })
})

describe('exports with significance tiers', () => {
  it('CSV gives the tier and both corrected p-values after the measures; Markdown and LaTeX the tier', () => {
    const entries = rankBoard(
      [
        cand({
          submissionId: 'a',
          teamId: 'A',
          teamName: 'A',
          primary: 0.5,
          columns: { 'nDCG@10': 0.5 },
        }),
        cand({
          submissionId: 'b',
          teamId: 'B',
          teamName: 'B',
          primary: 0.25,
          columns: { 'nDCG@10': 0.25 },
        }),
      ],
      'best',
    ).map(publish)
    const withTiers = [
      { ...entries[0]!, tier: 1 },
      { ...entries[1]!, tier: 2, pTierHead: null, pAbove: 0.0125 },
    ]
    const b: Board = {
      judge: null,
      track: 't',
      phase: 'dev',
      primary: 'nDCG@10',
      columns: ['nDCG@10'],
      released: true,
      counts: 'best',
      tiePolicy: '',
      tierPolicy: 'Tiers: …',
      domains: [],
      turnDepths: [],
      qrelsVersion: 1,
      rescoring: 0,
      entries: withTiers,
    }
    expect(boardCsv(b)).toBe(
      'rank,team,baseline,run,submitted,nDCG@10,tier,p_vs_tier_head,p_vs_above\r\n1,A,false,r,2027-01-01T00:00:00.000Z,0.5,1,,\r\n2,B,false,r,2027-01-01T00:00:00.000Z,0.25,2,,0.0125\r\n',
    )
    expect(boardMarkdown(b).split('\n')[0]).toBe(
      '| rank | team | baseline | run | submitted | nDCG\\@10 | tier |',
    )
    expect(boardMarkdown(b).split('\n')[3]).toBe(
      '| 2 | B | false | r | 2027-01-01T00:00:00.000Z | 0.2500 | 2 |',
    )
    expect(boardLatex(b).split('\n')[0]).toBe('\\begin{tabular}{rllllrr}')
  })
})

describe('domainBreakdown', () => {
  it('per entry, the mean of its per-query values in each domain (ids domain/topic), domains in natural order', () => {
    const a = new Map([
      ['law/1', 0.5],
      ['law/2', 0.25],
      ['bitcoin/7', 1],
      ['history10/3', 0],
      ['history2/1', 0.5],
    ])
    const b = new Map([['law/1', 1]])
    const { domains, means } = domainBreakdown([a, null, b])
    expect(domains).toEqual(['bitcoin', 'history2', 'history10', 'law'])
    expect(means).toEqual([
      { bitcoin: 1, history2: 0.5, history10: 0, law: 0.375 },
      null,
      { bitcoin: null, history2: null, history10: null, law: 1 },
    ])
  })
  it('ids without a domain are left out', () => {
    expect(domainBreakdown([new Map([['q1', 1]])])).toEqual({ domains: [], means: [{}] })
  })
})

function board(entries: BoardCandidate[], released = true): Board {
  return {
    judge: null,
    track: 't',
    phase: 'test',
    primary: 'nDCG@10',
    columns: ['nDCG@10', 'AP'],
    released,
    counts: 'best',
    tiePolicy: '',
    tierPolicy: null,
    domains: [],
    turnDepths: [],
    qrelsVersion: 1,
    rescoring: 0,
    entries: rankBoard(entries, 'best').map(publish),
  }
}

describe('exports (Markdown, LaTeX) and anonymity', () => {
  const hostile = cand({
    submissionId: 'h1',
    teamId: 'H',
    teamName: '<img src=x onerror=alert(1)> [a](javascript:x) | *b* \\ $x$ & 50% ~_^#{}',
    runName: 'run|1.txt',
    primary: 0.5,
    columns: { 'nDCG@10': 0.5, AP: 0.123456 },
  })
  const anon = cand({
    submissionId: 'secret-sub',
    teamId: 'team-anon-id',
    teamName: 'Secret Lab',
    runName: 'secretlab-bm25.run',
    anonymous: true,
    primary: 0.25,
    columns: { 'nDCG@10': 0.25, AP: null },
  })
  it('an anonymous team is published by its alias, without run name or submission id; the alias is stable and says nothing', () => {
    const b = board([hostile, anon])
    const e = b.entries.find((x) => x.anonymous)!
    expect(e).toMatchObject({
      team: anonymousAlias('team-anon-id'),
      run: null,
      submissionId: null,
      rank: 2,
    })
    expect(anonymousAlias('team-anon-id')).toMatch(/^Anonymous team [0-9a-f]{6}$/)
    expect(anonymousAlias('team-anon-id')).toBe(anonymousAlias('team-anon-id'))
    expect(anonymousAlias('team-anon-id')).not.toBe(anonymousAlias('other'))
    for (const out of [boardCsv(b), boardMarkdown(b), boardLatex(b), JSON.stringify(b)]) {
      for (const leak of ['Secret', 'secretlab', 'secret-sub', 'team-anon-id'])
        expect(out).not.toContain(leak)
    }
  })
  it('Markdown: a GFM table, 4 decimals, every punctuation of names escaped (no markup from a name)', () => {
    const md = boardMarkdown(board([hostile, anon]))
    const lines = md.trimEnd().split('\n')
    expect(lines[0]).toBe('| rank | team | baseline | run | submitted | nDCG\\@10 | AP |')
    expect(lines[1]).toBe('| ---: | --- | --- | --- | --- | ---: | ---: |')
    expect(lines[2]).toBe(
      '| 1 | \\<img src\\=x onerror\\=alert\\(1\\)\\> \\[a\\]\\(javascript\\:x\\) \\| \\*b\\* \\\\ \\$x\\$ \\& 50\\% \\~\\_\\^\\#\\{\\} | false | run\\|1\\.txt | 2027-01-01T00:00:00.000Z | 0.5000 | 0.1235 |',
    )
    expect(lines[3]).toBe(
      `| 2 | ${anonymousAlias('team-anon-id')} | false |  | 2027-01-01T00:00:00.000Z | 0.2500 | — |`,
    )
    // Outside escapes, no cell separator or markup character is left from the name.
    expect(lines[2]!.replace(/\\./g, '').split('|').length).toBe(lines[0]!.split('|').length)
  })
  it('LaTeX: special characters become commands; values to 4 decimals, -- for none', () => {
    const tex = boardLatex(board([hostile, anon]))
    expect(tex.split('\n')).toEqual([
      '\\begin{tabular}{rllllrr}',
      '\\hline',
      'rank & team & baseline & run & submitted & nDCG@10 & AP \\\\',
      '\\hline',
      '1 & \\textless{}img src=x onerror=alert(1)\\textgreater{} [a](javascript:x) \\textbar{} *b* \\textbackslash{} \\$x\\$ \\& 50\\% \\textasciitilde{}\\_\\textasciicircum{}\\#\\{\\} & false & run\\textbar{}1.txt & 2027-01-01T00:00:00.000Z & 0.5000 & 0.1235 \\\\',
      `2 & ${anonymousAlias('team-anon-id')} & false &  & 2027-01-01T00:00:00.000Z & 0.2500 & -- \\\\`,
      '\\hline',
      '\\end{tabular}',
      '',
    ])
  })
  it('a board not yet released exports the header only, in every format', () => {
    const b = { ...board([hostile]), released: false, entries: [] }
    expect(boardCsv(b)).toBe('rank,team,baseline,run,submitted,nDCG@10,AP\r\n')
    expect(boardMarkdown(b).trimEnd().split('\n')).toHaveLength(2)
    expect(boardLatex(b)).not.toContain('false')
  })
})
