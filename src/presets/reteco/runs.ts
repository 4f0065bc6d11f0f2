/**
 * RETECO run files: the plan's strict six-column parser, and the two ways a submission's run is
 * laid out.
 *
 * **Parsing** (conformance README §5(d)): lines are split on ASCII whitespace; whitespace-only
 * lines are skipped; every other line must have exactly 6 columns `query_id Q0 doc_id rank score
 * run_id`, a rank matching `[+-]?[0-9]+` and a score that is a finite decimal
 * (`[+-]?(d+[.d*]|.d+)[e[+-]d+]`: no `nan`, `inf`, `_` or `,`). Any such violation is a *parse
 * error*: the file cannot be scored. A rank ≤ 0 or a rank repeated within a topic is a
 * *validation error*: reported, but the file is still scored (the rank column is not used). Q0
 * and the tag are not checked.
 *
 * **Layouts** ({@link readRetecoRun}):
 * - a directory with one file per domain, named `<domain>` plus any extension (`law.trec`,
 *   `biology.txt.gz`; see {@link domainOfRunFile}): required for Track 2, whose topic ids collide across domains
 *   (`2_turn_1` is in biology and in earth_science);
 * - one file for all domains: each topic goes to the domain whose qrels hold it (Track 1 ids are
 *   unique). A topic held by two scored domains is an error that asks for a directory.
 */
import { promises as fsp } from 'node:fs'
import { join } from 'node:path'
import { wordIssue } from '../../errors/format-issue.js'
import { decodeId } from '../../io/bytes.js'
import { splitFields } from '../../io/lines.js'
import { isIntegerText, readScore } from '../../io/numbers.js'
import { RetecoInputError } from './errors.js'
import { forEachLine } from './read-lines.js'
import {
  type RetecoDomainData,
  type RetecoRun,
  type RetecoRunFile,
  type RetecoRunProblem,
  type RetecoRunTopic,
  type RetecoSubtrack,
  topicQrels,
} from './types.js'

/** Python-style quoting of a field for messages: `'3.0'`. */
function quote(text: string): string {
  return `'${decodeId(text).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/** Builds a {@link RetecoRunFile} line by line (used for files and for routed parts of a file). */
class RunBuilder {
  readonly topics = new Map<string, RetecoRunTopic & { rankSet: Set<number> }>()
  readonly parseErrors: RetecoRunProblem[] = []
  readonly validationErrors: RetecoRunProblem[] = []
  readonly tags = new Map<string, number>()
  lines = 0
  blankLines = 0

  constructor(readonly file: string) {}

  add(
    topicId: string,
    docId: string,
    rank: number,
    score: number,
    tag: string,
    line: number,
  ): void {
    let t = this.topics.get(topicId)
    if (!t) {
      t = { topicId, docIds: [], scores: [], ranks: [], lines: [], rankSet: new Set() }
      this.topics.set(topicId, t)
    }
    t.docIds.push(docId)
    t.scores.push(score)
    t.ranks.push(rank)
    t.lines.push(line)
    this.tags.set(tag, (this.tags.get(tag) ?? 0) + 1)
    if (rank <= 0) {
      this.validationErrors.push({
        file: this.file,
        line,
        code: 'nonpositive_rank',
        rank,
        topic: topicId,
        text: '',
      })
    } else if (t.rankSet.has(rank)) {
      this.validationErrors.push({
        file: this.file,
        line,
        code: 'duplicate_rank',
        rank,
        topic: topicId,
        text: '',
      })
    }
    t.rankSet.add(rank)
  }

  /** A topic seen only on lines that failed to parse still counts as a topic of the file. */
  touch(topicId: string): void {
    if (!this.topics.has(topicId))
      this.topics.set(topicId, {
        topicId,
        docIds: [],
        scores: [],
        ranks: [],
        lines: [],
        rankSet: new Set(),
      })
  }

  build(): RetecoRunFile {
    const topics = new Map<string, RetecoRunTopic>()
    for (const [id, t] of this.topics)
      topics.set(id, {
        topicId: t.topicId,
        docIds: t.docIds,
        scores: t.scores,
        ranks: t.ranks,
        lines: t.lines,
      })
    return {
      file: this.file,
      topics,
      parseErrors: this.parseErrors,
      validationErrors: this.validationErrors,
      lines: this.lines,
      blankLines: this.blankLines,
      tags: [...this.tags],
    }
  }
}

/**
 * Parse one RETECO run file with the plan's rules (see the module comment). Never throws for bad
 * lines: they are returned as `parseErrors` / `validationErrors` with their physical line. Ids
 * are binary strings; scores are doubles as written (ordering rounds them to float32).
 */
export async function parseRetecoRunFile(file: string): Promise<RetecoRunFile> {
  const b = new RunBuilder(file)
  // Field k is bytes [f[2k], f[2k + 1]), split on ASCII (C) white space.
  const f: number[] = []
  await forEachLine(file, (buf, start, end, line) => {
    const count = splitFields(buf, start, end, f)
    if (count === 0) {
      b.blankLines++
      return
    }
    b.lines++
    const field = (k: number): string => buf.toString('latin1', f[2 * k]!, f[2 * k + 1]!)
    const text = buf.toString('latin1', start, Math.min(end, start + 400)).replace(/\r$/, '')
    b.touch(field(0))
    if (count !== 6) {
      b.parseErrors.push({
        file,
        line,
        code: 'columns',
        found: count,
        text,
      })
      return
    }
    const rankText = field(3)
    if (!isIntegerText(rankText)) {
      b.parseErrors.push({
        file,
        line,
        code: 'rank',
        found: rankText,
        text,
      })
      return
    }
    const score = readScore(buf, f[8]!, f[9]!)
    if (!score.ok) {
      b.parseErrors.push({
        file,
        line,
        code: 'score',
        found: field(4),
        text,
      })
      return
    }
    b.add(field(0), field(2), Number(rankText), score.value, field(5), line)
  })
  return b.build()
}

/** `file:line: message` for a run problem (line 0: `file: message`). */
export function formatRunProblem(p: RetecoRunProblem): string {
  return `${p.file}${p.line ? `:${p.line}` : ''}: ${wordIssue('retecoPlan', p)}${p.text ? `: ${JSON.stringify(decodeId(p.text))}` : ''}`
}

/** Options of {@link readRetecoRun}. */
export interface ReadRetecoRunOptions {
  /** The scored domains (their topic qrels route a single file's topics). */
  readonly domains: ReadonlyMap<string, RetecoDomainData>
  /** The sub-track: which qrels hold the topics (1b: step qrels). */
  readonly subtrack: RetecoSubtrack
}

/**
 * The domain a per-domain run file is named after: `<domain>` plus any extension (`law.trec`,
 * `biology.txt.gz`, `earth.science.trec` for a domain `earth.science`), case insensitive. A
 * domain name may hold dots, so the name is matched whole or up to a dot after the domain; where
 * several domains match (`a` and `a.b` for `a.b.trec`) the longest wins. `undefined`: no domain.
 */
export function domainOfRunFile(name: string, domains: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  const base = lower.endsWith('.gz') ? lower.slice(0, -3) : lower
  let best: string | undefined
  for (const d of domains) {
    const dl = d.toLowerCase()
    if (
      (base === dl || base.startsWith(`${dl}.`)) &&
      (best === undefined || d.length > best.length)
    )
      best = d
  }
  return best
}

/**
 * Read a submission's run: a directory with one file per domain, or one file for all domains
 * (detected from the path). Per-domain files are matched by name (`<domain>.<ext>`, case
 * insensitive); domains without a file are listed in `missingDomainFiles` (their topics are then
 * missing, i.e. scored 0 by the plan), files matching no domain in `strayFiles`. A single file is
 * split by topic: each topic goes to the domain whose qrels hold it; topics in no domain are
 * `unroutedTopics`; a topic in two domains throws {@link RetecoInputError} (use a directory).
 *
 * @example
 * const run = await readRetecoRun('runs/bm25', { domains: data.track2, subtrack: '2a' })
 */
export async function readRetecoRun(
  path: string,
  options: ReadRetecoRunOptions,
): Promise<RetecoRun> {
  let st
  try {
    st = await fsp.stat(path)
  } catch {
    throw new RetecoInputError([`${path}: cannot read: no such file or directory`])
  }
  const names = [...options.domains.keys()]
  if (st.isDirectory()) {
    const files = (await fsp.readdir(path, { withFileTypes: true }))
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
    const byDomain = new Map<string, string>()
    const stray: string[] = []
    const problems: string[] = []
    for (const name of files) {
      const d = domainOfRunFile(name, names)
      if (!d) {
        stray.push(join(path, name))
        continue
      }
      const prev = byDomain.get(d)
      if (prev) problems.push(`${path}: two run files for domain ${d}: ${prev} and ${name}`)
      else byDomain.set(d, name)
    }
    if (problems.length) throw new RetecoInputError(problems)
    if (byDomain.size === 0) {
      throw new RetecoInputError([
        `${path}: no run file named after a domain (expected e.g. ${names
          .slice(0, 3)
          .map((n) => `${n}.trec`)
          .join(', ')})`,
      ])
    }
    const domains = new Map<string, RetecoRunFile>()
    for (const d of names) {
      const name = byDomain.get(d)
      if (name) domains.set(d, await parseRetecoRunFile(join(path, name)))
    }
    return {
      path,
      layout: 'per-domain',
      domains,
      missingDomainFiles: names.filter((d) => !byDomain.has(d)),
      strayFiles: stray,
      unroutedTopics: new Map(),
      whole: null,
    }
  }
  const whole = await parseRetecoRunFile(path)
  const owner = new Map<string, string[]>()
  for (const [d, data] of options.domains) {
    const q = topicQrels(data, options.subtrack)
    if (!q) continue
    for (const t of q.queries.keys()) {
      const list = owner.get(t)
      if (list) list.push(d)
      else owner.set(t, [d])
    }
  }
  const builders = new Map<string, RunBuilder>(names.map((d) => [d, new RunBuilder(path)]))
  const unrouted = new Map<string, number>()
  const problems: string[] = []
  for (const [topicId, t] of whole.topics) {
    const doms = owner.get(topicId)
    if (!doms) {
      if (t.lines.length) unrouted.set(topicId, t.lines.length)
      continue
    }
    if (doms.length > 1) {
      problems.push(
        `${path}:${t.lines[0] ?? 0}: topic ${quote(topicId)} is in the qrels of ${doms.join(' and ')}: a single run file cannot say which; give a directory with one file per domain (${doms.map((d) => `${d}.trec`).join(', ')})`,
      )
      continue
    }
    const b = builders.get(doms[0]!)!
    for (let i = 0; i < t.docIds.length; i++)
      b.add(topicId, t.docIds[i]!, t.ranks[i]!, t.scores[i]!, '', t.lines[i]!)
  }
  if (problems.length) throw new RetecoInputError(problems)
  const domains = new Map<string, RetecoRunFile>()
  for (const [d, b] of builders) {
    const part = b.build()
    // Routed parts carry their lines; tags and problems stay with the whole file (`whole`).
    domains.set(d, {
      ...part,
      tags: [],
      lines: [...part.topics.values()].reduce((n, t) => n + t.lines.length, 0),
      validationErrors: [],
    })
  }
  return {
    path,
    layout: 'single-file',
    domains,
    missingDomainFiles: [],
    strayFiles: [],
    unroutedTopics: unrouted,
    whole,
  }
}
