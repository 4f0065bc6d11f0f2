/**
 * Where a topic id belongs in a RETECO release folder, for the hints of `validate --preset
 * reteco-*` ("a 1b step id in a 1a run", "a topic of the train split", "a topic of biology"):
 * the topic ids of every `qrels_<split>.txt` (1a, 2a) and `qrels_steps_<split>.txt` (1b) of
 * every domain and split. Qrels are small; corpora are not read here.
 */
import { promises as fsp } from 'node:fs'
import { join } from 'node:path'
import { readAll } from '../../io/source.js'

/** Which qrels a topic comes from: 1a queries, 1b steps, 2a turns (2c retrieval uses 2a's). */
export type TopicKind = '1a' | '1b' | '2a'

/** One place a topic id occurs: its kind, split and domain. */
export interface TopicPlace {
  readonly kind: TopicKind
  readonly split: string
  readonly domain: string
}

/** Every place each topic id (binary string) occurs in a release folder. */
export type RetecoTopicIndex = ReadonlyMap<string, readonly TopicPlace[]>

async function subdirs(dir: string): Promise<string[]> {
  try {
    const entries = await fsp.readdir(dir, { withFileTypes: true })
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
  } catch {
    return []
  }
}

/** First whitespace-separated field of every non-blank line (binary strings), deduplicated. */
function qrelsTopics(bytes: Buffer): Set<string> {
  const seen = new Set<string>()
  for (const line of bytes.toString('latin1').split('\n')) {
    const m = /^[ \t\r\v\f]*([^ \t\r\v\f]+)/.exec(line)
    if (m) seen.add(m[1]!)
  }
  return seen
}

/**
 * Index the topic ids of every qrels file of a release-layout folder (any split). Returns an
 * empty index for other layouts (the pilot sample has one split and no step qrels).
 */
export async function loadRetecoTopicIndex(root: string): Promise<RetecoTopicIndex> {
  const places = new Map<string, TopicPlace[]>()
  for (const track of ['track1_tempo', 'track2_recor'] as const) {
    for (const domain of await subdirs(join(root, track))) {
      const dir = join(root, track, domain)
      for (const name of (await fsp.readdir(dir)).sort()) {
        const m = /^qrels_(steps_)?(.+)\.txt$/.exec(name)
        if (!m || (track === 'track2_recor' && m[1])) continue
        const kind: TopicKind = track === 'track2_recor' ? '2a' : m[1] ? '1b' : '1a'
        for (const id of qrelsTopics(await readAll(join(dir, name)))) {
          let list = places.get(id)
          if (!list) places.set(id, (list = []))
          list.push({ kind, split: m[2]!, domain })
        }
      }
    }
  }
  return places
}
