/**
 * NLTK 3.8 `word_tokenize` for METEOR's `nltk` tokenization: Punkt sentence splitting with
 * NLTK's trained parameters (read from `punkt_tab` files) and the improved Treebank tokenizer.
 */

export { loadPunktParameters } from './load-punkt.js'
export { type PunktParameters, parsePunktParameters, sentTokenize } from './punkt.js'
export { treebankWordTokenize } from './treebank.js'
export { wordTokenize } from './word-tokenize.js'
