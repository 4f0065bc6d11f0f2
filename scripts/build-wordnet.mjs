#!/usr/bin/env node
// Builds the compact WordNet 3.0 index that trecscore's METEOR reads (data/wordnet/wordnet-3.0.txt.gz)
// from the WordNet 3.0 database files of Debian's `wordnet-base` package (index.*, data.*, *.exc).
// It keeps exactly what NLTK 3.8's METEOR synonym stage needs:
//   - every lemma of index.<pos> with its synsets (morphy checks that a form is a lemma of the POS);
//   - for every synset, its lemma names without "_" (METEOR drops the others), syntactic markers
//     such as "(a)", "(p)", "(ip)" stripped as NLTK does, case kept;
//   - the exception lists <pos>.exc (a later line for the same form replaces an earlier one,
//     as NLTK's dict does).
// Deterministic: the same input gives byte-identical output (gzip without a timestamp).
// Usage: node scripts/build-wordnet.mjs [WORDNET_DIR=/usr/share/wordnet] [OUT_DIR=data/wordnet]
//        node scripts/build-wordnet.mjs --check [WORDNET_DIR] [OUT_DIR]   (exit 1 if the committed index differs)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync, gzipSync } from 'node:zlib'

const args = process.argv.slice(2)
const check = args[0] === '--check'
if (check) args.shift()
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const wnDir = args[0] ?? '/usr/share/wordnet'
const outDir = args[1] ?? join(root, 'data', 'wordnet')
const OUT_NAME = 'wordnet-3.0.txt.gz'

// NLTK's POS order for synsets(word) with no POS: noun, verb, adjective, adverb.
const POS = [
  ['n', 'noun'],
  ['v', 'verb'],
  ['a', 'adj'],
  ['r', 'adv'],
]

for (const [, f] of POS) {
  for (const kind of ['index', 'data']) {
    if (!existsSync(join(wnDir, `${kind}.${f}`))) {
      console.error(
        `build-wordnet: ${join(wnDir, `${kind}.${f}`)} not found (apt-get install wordnet-base)`,
      )
      process.exit(2)
    }
  }
}

const lines = (file) => readFileSync(file, 'latin1').split('\n')

const synsetIds = new Map() // "pos offset" -> id, for synsets that have a name without "_"
const synsetNames = [] // id -> names
const indexOut = []
const excOut = []

for (const [p, f] of POS) {
  // Synsets of data.<pos>: "offset lex_filenum ss_type w_cnt(hex) word lex_id ..."
  for (const line of lines(join(wnDir, `data.${f}`))) {
    if (line === '' || line.startsWith(' ')) continue
    const tok = line.split(' ')
    const offset = Number(tok[0])
    const count = parseInt(tok[3], 16)
    const names = []
    for (let k = 0; k < count; k++) {
      const raw = tok[4 + 2 * k]
      const name = /^(.*?)(\((.*)\))?$/.exec(raw)[1]
      if (!name.includes('_') && !names.includes(name)) names.push(name)
    }
    if (names.length === 0) continue
    synsetIds.set(`${p} ${offset}`, synsetNames.length)
    synsetNames.push(names)
  }
}

for (const [p, f] of POS) {
  // index.<pos>: "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset..."
  const rows = []
  for (const line of lines(join(wnDir, `index.${f}`))) {
    if (line === '' || line.startsWith(' ')) continue
    const tok = line.trim().split(/\s+/)
    const lemma = tok[0]
    const nSynsets = Number(tok[2])
    const nPointers = Number(tok[3])
    const offsets = tok.slice(4 + nPointers + 2, 4 + nPointers + 2 + nSynsets).map(Number)
    const ids = offsets.map((o) => synsetIds.get(`${p} ${o}`)).filter((id) => id !== undefined)
    rows.push(`${lemma}\t${ids.map((id) => id.toString(36)).join(',')}`)
  }
  indexOut.push(`@index ${p} ${rows.length}`, ...rows)

  const exc = new Map()
  const excFile = join(wnDir, `${f}.exc`)
  if (existsSync(excFile)) {
    for (const line of lines(excFile)) {
      const terms = line.trim().split(/\s+/)
      if (terms[0] === '') continue
      exc.set(terms[0], terms.slice(1))
    }
  }
  excOut.push(
    `@exc ${p} ${exc.size}`,
    ...[...exc].map(([form, bases]) => [form, ...bases].join(' ')),
  )
}

const text = [
  'trecscore-wordnet/1 WordNet 3.0 (Princeton University; see LICENSE), built by scripts/build-wordnet.mjs for NLTK 3.8 METEOR',
  `@synsets ${synsetNames.length}`,
  ...synsetNames.map((n) => n.join(' ')),
  ...indexOut,
  ...excOut,
  '',
].join('\n')

const gz = gzipSync(Buffer.from(text, 'latin1'), { level: 9 })
const outFile = join(outDir, OUT_NAME)
if (check) {
  // Compare the text, not the gzip bytes (another zlib may compress differently).
  const same = existsSync(outFile) && gunzipSync(readFileSync(outFile)).toString('latin1') === text
  console.log(
    same
      ? `build-wordnet: ${outFile} is up to date`
      : `build-wordnet: ${outFile} differs from what ${wnDir} gives`,
  )
  process.exit(same ? 0 : 1)
}
mkdirSync(outDir, { recursive: true })
writeFileSync(outFile, gz)
console.log(`build-wordnet: wrote ${outFile} (${gz.length} bytes; ${synsetNames.length} synsets)`)
