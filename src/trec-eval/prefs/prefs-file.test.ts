import { describe, expect, it } from 'vitest'
import { parsePrefs } from './prefs-file.js'
import { parseQrelsJg } from './qrels-jg-file.js'

const buf = (s: string): Buffer => Buffer.from(s, 'latin1')

describe('parsePrefs', () => {
  it('reads prefs lines by query, levels like C atof', () => {
    const r = parsePrefs(buf('q1 g s d1 2.5x\n# comment\nq2\tg\ts\td2\t1e1\r\nq1 g t d3 .5'), {
      file: 'p',
      format: 'prefs',
      comments: true,
    })
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value.get('q1')).toEqual([
      { jg: 'g', jsg: 's', docId: 'd1', relLevel: 2.5 },
      { jg: 'g', jsg: 't', docId: 'd3', relLevel: 0.5 },
    ])
    expect(r.value.get('q2')).toEqual([{ jg: 'g', jsg: 's', docId: 'd2', relLevel: 10 }])
  })

  it('reads qrels_prefs with the iter field as judgment group and one subgroup', () => {
    const r = parsePrefs(buf('301 0 doc-a 1\n301 0 doc-b 0\n'), {
      file: 'q',
      format: 'qrels_prefs',
      comments: true,
    })
    expect(r.ok && r.value.get('301')).toEqual([
      { jg: '0', jsg: '0', docId: 'doc-a', relLevel: 1 },
      { jg: '0', jsg: '0', docId: 'doc-b', relLevel: 0 },
    ])
  })

  it('numbers a malformed line as trec_eval does (comments not counted)', () => {
    const r = parsePrefs(buf('# c\nq g s d 1\n# c\nq g s d\n'), {
      file: 'p',
      format: 'prefs',
      comments: true,
    })
    expect(r).toMatchObject({
      ok: false,
      malformedLine: 2,
      issue: { code: 'field_count', line: 4, found: 4 },
    })
  })

  it('rejects blank lines, NUL bytes, extra fields and indented comments', () => {
    const line = (s: string): unknown => {
      const r = parsePrefs(buf(s), { file: 'p', format: 'prefs', comments: true })
      return r.ok ? 'ok' : r.issue.code
    }
    expect(line('q g s d 1\n\nq g s e 1\n')).toBe('field_count')
    expect(line('q g s d\u00001 1\n')).toBe('nul_byte')
    expect(line('q g s d 1 extra\n')).toBe('field_count')
    expect(line('  # not a comment\n')).toBe('field_count')
    expect(line('# a # in a docno is data\nq g s d#1 1\n')).toBe('ok')
  })

  it('reads # lines as data without comment support (trec_eval 9)', () => {
    const r = parsePrefs(buf('# g s d 1\n'), { file: 'p', format: 'prefs', comments: false })
    expect(r.ok && [...r.value.keys()]).toEqual(['#'])
  })
})

describe('parseQrelsJg', () => {
  it('groups judgments by query and judgment group (groups in byte order)', () => {
    const r = parseQrelsJg(buf('q1 b d1 2\nq1 a d1 0\nq1 a d2 1x\nq1 b d3 -1\n'), {
      file: 'j',
      comments: true,
    })
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const groups = r.value.get('q1')!
    expect(groups.map((g) => [...g.grades])).toEqual([
      [
        ['d1', 0],
        ['d2', 1],
      ],
      [
        ['d1', 2],
        ['d3', -1],
      ],
    ])
    expect(groups.map((g) => [g.relLevels, g.maxJudgment])).toEqual([
      [[1, 1], 1],
      [[0, 0, 1], 2],
    ])
  })

  it('reports the smallest duplicate (qid, jg, docno)', () => {
    const r = parseQrelsJg(buf('q2 a x 1\nq2 a x 1\nq1 b y 1\nq1 b y 0\nq1 b a 1\nq1 b a 1\n'), {
      file: 'j',
      comments: true,
    })
    expect(r).toMatchObject({
      ok: false,
      duplicateDoc: 'a',
      issue: { code: 'duplicate_judgment', line: 6, firstLine: 5 },
    })
  })

  it('numbers malformed lines without comments', () => {
    const r = parseQrelsJg(buf('# c\nq a d 1\nq a d\n'), { file: 'j', comments: true })
    expect(r).toMatchObject({ ok: false, malformedLine: 2 })
  })
})
