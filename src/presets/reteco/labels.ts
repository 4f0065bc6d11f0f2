/**
 * Temporal label providers: where the temporal diagnostics (TP, TR, TC, nDCG|FC) get their
 * labels. One interface, two providers:
 *
 * - {@link offlineLabels}: RETECO's offline scorer (`scorer.py` + `ir_metrics.py`): a document is
 *   temporally relevant when it is in the topic's qrels (grade ≥ 1); a Track 1 query's required
 *   periods are its steps (`steps_<split>.jsonl`, ids `<qid>_step<n>`); a document covers a
 *   period when it is among that step's gold ids (as given, not restricted to the corpus).
 * - {@link judgeLabels}: a frozen judge-label file (JSONL, format below): how the hidden-test
 *   labels are consumed.
 *
 * **Judge-label file** (`trecscore.reteco-labels/1`), UTF-8 JSON Lines, one object per line, blank
 * lines ignored, in any order:
 *
 * ```jsonc
 * {"schema": "trecscore.reteco-labels/1", "judge": "gpt-4o-2024-08-06", "note": "…"}    // optional header
 * {"topic": "38520_46", "domain": "bitcoin", "required_periods": ["p1950", "p1966"]}    // per topic
 * {"topic": "38520_46", "domain": "bitcoin", "doc": "bitcoin/ab9d0c20_2821.txt",
 *  "temporally_relevant": true, "covered_periods": ["p1950"]}                          // per (topic, doc)
 * ```
 *
 * - A line with `doc` is a document label: `temporally_relevant` (boolean, required) and
 *   `covered_periods` (array of period ids, default `[]`).
 * - A line with `required_periods` and no `doc` is a topic record: the period ids the topic
 *   needs covered. A topic without one has no TC (undefined, left out of the means).
 * - `domain` is optional: without it the record applies to that topic id in every domain
 *   (Track 1 ids are unique); with it, only to (domain, topic). Track 2 files should give it.
 * - A (topic, doc) pair labelled twice, or a record of neither kind, is an error (`file:line`).
 * - A retrieved document with no label counts as not temporally relevant, covering nothing;
 *   scorers count such documents in the top k (`unlabelled`) so gaps in a label file show.
 */
import { encodeId } from '../../io/bytes.js'
import { RetecoInputError } from './errors.js'
import { forEachLine, isBlank } from './read-lines.js'
import type { RetecoDomainData } from './types.js'

/** The temporal labels of one topic. */
export interface TopicTemporalLabels {
  /** Period ids the topic must cover; `null` when it has none (TC undefined). */
  readonly requiredPeriods: readonly string[] | null
  /** Whether the document is temporally relevant for the topic; `undefined` when unlabelled. */
  relevance(docId: string): boolean | undefined
  /** The period ids the document covers for the topic (empty when none or unlabelled). */
  periods(docId: string): readonly string[]
}

/** A source of temporal labels, keyed by (domain, topic). */
export interface TemporalLabelProvider {
  /** Short name shown with the results (`offline-qrels-steps`, `judge-file:<path>`). */
  readonly name: string
  /** One sentence on where the labels come from. */
  readonly description: string
  /** Labels of a topic of a domain. */
  labelsFor(domain: RetecoDomainData, topicId: string): TopicTemporalLabels
}

const NO_PERIODS: readonly string[] = []

/**
 * The offline provider (RETECO `scorer.py`): temporal relevance = the topic's qrels (grade ≥ 1);
 * required periods = the query's steps from the steps file (Track 1 query topics only; `null`
 * for step and turn topics and for queries without a steps record or with no steps); a document
 * covers a step when it is one of the step's gold ids.
 */
export function offlineLabels(): TemporalLabelProvider {
  return {
    name: 'offline-qrels-steps',
    description:
      "qrels as temporal relevance; each query's steps as its required periods, covered by any of the step's gold documents (RETECO scorer.py)",
    labelsFor(domain, topicId) {
      const judged = domain.qrels.queries.get(topicId) ?? domain.stepQrels?.queries.get(topicId)
      const record =
        domain.track === 'track1_tempo' && domain.qrels.queries.has(topicId)
          ? domain.stepRecords.get(topicId)
          : undefined
      const steps = record && record.steps.length ? record.steps : null
      const cover = new Map<string, string[]>()
      if (steps) {
        for (const s of steps) {
          for (const g of s.goldIds) {
            const list = cover.get(g)
            if (list) list.push(s.stepId)
            else cover.set(g, [s.stepId])
          }
        }
      }
      return {
        requiredPeriods: steps ? steps.map((s) => s.stepId) : null,
        relevance: (docId) => (judged?.grades.get(docId) ?? 0) >= 1,
        periods: (docId) => cover.get(docId) ?? NO_PERIODS,
      }
    },
  }
}

interface DocLabel {
  readonly relevant: boolean
  readonly periods: readonly string[]
}

interface TopicEntry {
  required: readonly string[] | null
  readonly docs: Map<string, DocLabel>
}

/** Parsed judge labels (see the module comment for the file format). */
export interface JudgeLabelFile {
  readonly file: string
  /** The header line, when present. */
  readonly header: Readonly<Record<string, unknown>> | null
  /** Topic records and document labels read. */
  readonly topics: number
  readonly docLabels: number
}

function key(domain: string | null, topic: string): string {
  return `${domain ?? '*'}\u0000${topic}`
}

function periodList(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' && typeof x !== 'number'))
    throw new Error(`"${what}" must be an array of period ids`)
  return v.map((x) => encodeId(String(x)))
}

/**
 * Read a judge-label file (`trecscore.reteco-labels/1`, see the module comment) and return it as a
 * provider. Throws {@link RetecoInputError} listing every bad line (`file:line: …`).
 */
export async function judgeLabels(
  file: string,
): Promise<TemporalLabelProvider & { readonly info: JudgeLabelFile }> {
  const entries = new Map<string, TopicEntry>()
  const problems: string[] = []
  let header: Record<string, unknown> | null = null
  let topics = 0
  let docLabels = 0
  const entry = (domain: string | null, topic: string): TopicEntry => {
    const k = key(domain, topic)
    let e = entries.get(k)
    if (!e) {
      e = { required: null, docs: new Map() }
      entries.set(k, e)
    }
    return e
  }
  await forEachLine(file, (buf, start, end, line) => {
    if (isBlank(buf, start, end)) return
    try {
      const rec = JSON.parse(buf.toString('utf8', start, end)) as unknown
      if (rec === null || typeof rec !== 'object' || Array.isArray(rec))
        throw new Error('expected a JSON object')
      const o = rec as Record<string, unknown>
      if (typeof o['schema'] === 'string' && o['topic'] === undefined) {
        if (o['schema'] !== 'trecscore.reteco-labels/1')
          throw new Error(
            `unknown schema ${JSON.stringify(o['schema'])} (expected "trecscore.reteco-labels/1")`,
          )
        header = o
        return
      }
      if (typeof o['topic'] !== 'string' || o['topic'] === '')
        throw new Error('expected a string "topic"')
      const topic = encodeId(o['topic'])
      const dom =
        o['domain'] === undefined || o['domain'] === null
          ? null
          : typeof o['domain'] === 'string'
            ? o['domain']
            : null
      if (o['domain'] !== undefined && o['domain'] !== null && dom === null)
        throw new Error('"domain" must be a string')
      if (o['doc'] !== undefined) {
        if (typeof o['doc'] !== 'string') throw new Error('"doc" must be a string')
        if (typeof o['temporally_relevant'] !== 'boolean')
          throw new Error('"temporally_relevant" must be true or false')
        const doc = encodeId(o['doc'])
        const e = entry(dom, topic)
        if (e.docs.has(doc))
          throw new Error(
            `document ${JSON.stringify(o['doc'])} labelled twice for topic ${JSON.stringify(o['topic'])}`,
          )
        e.docs.set(doc, {
          relevant: o['temporally_relevant'],
          periods: periodList(o['covered_periods'], 'covered_periods'),
        })
        docLabels++
        return
      }
      if (o['required_periods'] !== undefined) {
        const e = entry(dom, topic)
        if (e.required)
          throw new Error(`required periods given twice for topic ${JSON.stringify(o['topic'])}`)
        e.required = periodList(o['required_periods'], 'required_periods')
        topics++
        return
      }
      throw new Error('expected "doc" (a document label) or "required_periods" (a topic record)')
    } catch (e) {
      if (problems.length < 50) problems.push(`${file}:${line}: ${(e as Error).message}`)
    }
  })
  if (problems.length) throw new RetecoInputError(problems)
  const info: JudgeLabelFile = { file, header, topics, docLabels }
  return {
    name: `judge-file:${file}`,
    description: `frozen judge labels from ${file}${header && typeof (header as Record<string, unknown>)['judge'] === 'string' ? ` (judge ${String((header as Record<string, unknown>)['judge'])})` : ''}`,
    info,
    labelsFor(domain, topicId) {
      const specific = entries.get(key(domain.domain, topicId))
      const general = entries.get(key(null, topicId))
      const required = specific?.required ?? general?.required ?? null
      const find = (docId: string): DocLabel | undefined =>
        specific?.docs.get(docId) ?? general?.docs.get(docId)
      return {
        requiredPeriods: required && required.length ? required : null,
        relevance: (docId) => find(docId)?.relevant,
        periods: (docId) => find(docId)?.periods ?? NO_PERIODS,
      }
    },
  }
}
