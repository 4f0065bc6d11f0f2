/** Readers for the copied generation conformance files (from shared/conformance/generation; see its README). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'generation')

interface Prf {
  precision: number
  recall: number
  fmeasure: number
}
type RougeTypes = { rougeL: Prf; rougeLsum: Prf }
export interface RougeRecord {
  id: string
  category: string
  note: string
  prediction: string
  references: string[]
  tokens: Record<'nostem' | 'stem', { prediction: string[]; references: string[][] }>
  scores: Record<
    'nostem' | 'stem',
    {
      per_reference: RougeTypes[]
      multi: RougeTypes | null
      multi_index?: { rougeL: number; rougeLsum: number }
      multi_error?: string
    }
  >
}

export interface MeteorVariant {
  hypothesis_tokens: string[]
  reference_tokens: string[][]
  per_reference: {
    score: number
    hyp_len: number
    ref_len: number
    matches: [number, number][]
    chunks: number
  }[]
  meteor: number | null
  meteor_error: string | null
  nltk39_morphy_changes_score: boolean
}
export interface MeteorRecord {
  id: string
  category: string
  note: string
  prediction: string
  references: string[]
  params: { alpha: number; beta: number; gamma: number }
  variants: Record<'split' | 'word_tokenize', MeteorVariant>
}

function jsonl<T>(name: string): T[] {
  return readFileSync(join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T)
}

export const ROUGE_RECORDS: RougeRecord[] = jsonl<RougeRecord>('rouge.jsonl')
export const METEOR_RECORDS: MeteorRecord[] = jsonl<MeteorRecord>('meteor.jsonl')
