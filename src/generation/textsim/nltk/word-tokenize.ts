/**
 * `nltk.word_tokenize(text)` of NLTK 3.8 (`language='english'`, `preserve_line=False`): Punkt
 * sentence splitting with the given trained parameters, then the improved Treebank word
 * tokenizer on each sentence, tokens concatenated. Case is kept; double quotes become
 * ``` `` ``` and `''`. This is the `nltk` tokenization of METEOR in HF `evaluate` and RECOR.
 */
import { type PunktParameters, sentTokenize } from './punkt.js'
import { treebankWordTokenize } from './treebank.js'

/** The tokens `nltk.word_tokenize(text)` returns. */
export function wordTokenize(text: string, params: PunktParameters): string[] {
  const out: string[] = []
  for (const sentence of sentTokenize(text, params)) {
    for (const token of treebankWordTokenize(sentence)) out.push(token)
  }
  return out
}
