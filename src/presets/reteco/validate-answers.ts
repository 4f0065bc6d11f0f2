/**
 * `validate --preset reteco-2b|reteco-2c ANSWERS --data DIR`: the generation answer files of a
 * RETECO Track 2 submission checked against the target turns of the RECOR data (every turn
 * `<conv_id>_turn_<turn_id>` of the split, as the 2a retrieval validation expects), through the
 * RETECO loader. Turn ids repeat across domains, so answers come as a directory with one
 * `<domain>.jsonl` per domain (a single file only when the data has one Track 2 domain). For 2c
 * the retrieval run of the same submission is required and validated as `--preset reteco-2c`
 * validates runs: its top-5 passages per turn are what the Faithfulness judge sees.
 */
import { promises as fsp } from 'node:fs'
import { join } from 'node:path'
import {
  type AnswerFileReport,
  checkAnswerFile,
  DEFAULT_MAX_ANSWER_CHARS,
} from '../../generation/submission/answers.js'
import { readAll, SourceError } from '../../io/source.js'
import { loadRetecoData } from './data.js'
import { RetecoInputError } from './errors.js'
import { expectedTopics, type RetecoValidation, validateRetecoRun } from './validate.js'
import { loadRetecoTopicIndex } from './validate-topics.js'

export type GenerationSubtrack = '2b' | '2c'

export interface ValidateRetecoAnswersOptions {
  readonly subtrack: GenerationSubtrack
  /** The RETECO data folder (release layout or the pilot sample). */
  readonly data: string
  /** Split whose turns are the targets. @default 'dev' */
  readonly split?: string
  /** 2c: the retrieval run (file or per-domain directory). Required for 2c, refused for 2b. */
  readonly retrieval?: string
  /** Longest answer in code points. @default 4000 */
  readonly maxAnswerChars?: number
  /** Longest line in bytes. @default 16 MiB */
  readonly maxLineBytes?: number
  /** Problems listed per code by the retrieval validation. @default 20 */
  readonly maxListed?: number
  /** Warnings fail the verdict too. */
  readonly strict?: boolean
}

/** One domain's answer file, or a domain without one. */
export interface DomainAnswers {
  readonly domain: string
  /** null when the directory has no file for the domain (every turn then scores zero). */
  readonly file: string | null
  readonly targetTurns: number
  readonly report: AnswerFileReport | null
  /** A file that could not be read. */
  readonly unreadable: string | null
}

export interface RetecoAnswersValidation {
  readonly answers: string
  readonly subtrack: GenerationSubtrack
  readonly split: string
  readonly layout: 'single-file' | 'per-domain'
  readonly maxAnswerChars: number
  readonly domains: readonly DomainAnswers[]
  /** Files in the answers directory named after no domain (ignored; a warning). */
  readonly strayFiles: readonly string[]
  /** 2c: the retrieval run's validation. */
  readonly retrieval: RetecoValidation | null
  readonly errors: number
  readonly warnings: number
  readonly ok: boolean
  readonly strict: boolean
}

function stem(name: string): string {
  const dot = name.indexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}

/** Validates a 2b/2c answers file or directory (and, for 2c, the retrieval run). */
export async function validateRetecoAnswers(
  answers: string,
  options: ValidateRetecoAnswersOptions,
): Promise<RetecoAnswersValidation> {
  const { subtrack } = options
  if (subtrack === '2c' && options.retrieval === undefined) {
    throw new RetecoInputError([
      `--preset reteco-2c needs the retrieval run of the same submission (--retrieval RUN): its top-5 passages per turn are what the Faithfulness judge sees`,
    ])
  }
  if (subtrack === '2b' && options.retrieval !== undefined) {
    throw new RetecoInputError([
      `--retrieval is for reteco-2c; 2b answers are generated from the gold passages`,
    ])
  }
  const data = await loadRetecoData(options.data, {
    split: options.split ?? 'dev',
    tracks: ['track2_recor'],
  })
  const domains = data.track2
  if (domains.size === 0)
    throw new RetecoInputError([
      `${options.data}: no track2_recor domain (RECOR) for sub-track ${subtrack}`,
    ])
  const turnsOf = new Map<string, string[]>()
  for (const [d, dd] of domains) turnsOf.set(d, expectedTopics(dd, '2a'))
  // hints for turn ids of other domains (same split) and other splits (release layout)
  const index = data.layout === 'release' ? await loadRetecoTopicIndex(options.data) : new Map()
  const elsewhereFor = (domain: string): Map<string, string> => {
    const m = new Map<string, string>()
    const targets = new Set(turnsOf.get(domain))
    for (const c of domains.get(domain)!.conversations) {
      for (const t of c.turns)
        if (!targets.has(t.topicId))
          m.set(
            t.topicId,
            'a turn of this domain with no gold passages in the qrels, so not a target turn',
          )
    }
    for (const [d, ids] of turnsOf)
      if (d !== domain) for (const t of ids) if (!m.has(t)) m.set(t, `a turn of domain ${d}`)
    for (const [t, places] of index) {
      if (m.has(t)) continue
      const p = places.find(
        (x: { kind: string; split: string; domain: string }) =>
          x.kind === '2a' && !(x.split === data.split && x.domain === domain),
      )
      if (p)
        m.set(
          t,
          `a turn of the ${p.split} split${p.domain !== domain ? ` of domain ${p.domain}` : ''}`,
        )
    }
    return m
  }
  const maxAnswerChars = options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS
  const check = async (file: string, domain: string): Promise<DomainAnswers> => {
    const turns = turnsOf.get(domain)!
    let bytes: Buffer
    try {
      bytes = await readAll(file)
    } catch (e) {
      if (!(e instanceof SourceError)) throw e
      return { domain, file, targetTurns: turns.length, report: null, unreadable: e.reason }
    }
    const report = checkAnswerFile(bytes, file, {
      turns,
      maxAnswerChars,
      elsewhere: elsewhereFor(domain),
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    })
    return { domain, file, targetTurns: turns.length, report, unreadable: null }
  }
  const st = await fsp.stat(answers).catch(() => null)
  if (!st) throw new RetecoInputError([`${answers}: cannot read: no such file or directory`])
  const results: DomainAnswers[] = []
  const strayFiles: string[] = []
  if (st.isDirectory()) {
    const names = [...domains.keys()]
    const entries = (await fsp.readdir(answers, { withFileTypes: true }))
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
    const byDomain = new Map<string, string>()
    for (const name of entries) {
      const d = names.find((n) => n.toLowerCase() === stem(name).toLowerCase())
      if (!d) strayFiles.push(join(answers, name))
      else if (byDomain.has(d))
        throw new RetecoInputError([
          `${answers}: two answer files for domain ${d}: ${byDomain.get(d)} and ${name}`,
        ])
      else byDomain.set(d, name)
    }
    if (byDomain.size === 0) {
      throw new RetecoInputError([
        `${answers}: no answer file named after a domain (expected ${names
          .slice(0, 3)
          .map((n) => `${n}.jsonl`)
          .join(', ')}${names.length > 3 ? ', …' : ''})`,
      ])
    }
    for (const d of names) {
      const name = byDomain.get(d)
      results.push(
        name
          ? await check(join(answers, name), d)
          : {
              domain: d,
              file: null,
              targetTurns: turnsOf.get(d)!.length,
              report: null,
              unreadable: null,
            },
      )
    }
  } else {
    if (domains.size > 1) {
      throw new RetecoInputError([
        `${answers}: RETECO Track 2 answers must be a directory with one file per domain (${[
          ...domains.keys(),
        ]
          .slice(0, 3)
          .map((d) => `${d}.jsonl`)
          .join(', ')}, …): turn ids such as "2_turn_1" repeat across domains`,
      ])
    }
    results.push(await check(answers, [...domains.keys()][0]!))
  }
  const retrieval =
    subtrack === '2c'
      ? await validateRetecoRun(options.retrieval!, {
          subtrack: '2c',
          data: options.data,
          split: options.split ?? 'dev',
          ...(options.maxListed === undefined ? {} : { maxListed: options.maxListed }),
          ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
          strict: options.strict ?? false,
        })
      : null
  let errors = 0
  let warnings = strayFiles.length
  for (const r of results) {
    if (r.unreadable !== null) errors++
    else if (r.report) (errors += r.report.errors), (warnings += r.report.warnings)
    else warnings += r.targetTurns // a domain without a file: every turn is missing
  }
  if (retrieval) (errors += retrieval.errors), (warnings += retrieval.warnings)
  const strict = options.strict ?? false
  return {
    answers,
    subtrack,
    split: data.split,
    layout: st.isDirectory() ? 'per-domain' : 'single-file',
    maxAnswerChars,
    domains: results,
    strayFiles,
    retrieval,
    errors,
    warnings,
    ok: errors === 0 && !(strict && warnings > 0),
    strict,
  }
}
