import { type Command, InvalidArgumentError, Option } from 'commander'
import { renderTable } from '../../entries/report.js'
import {
  type BertScorer,
  formatTextsimIssue,
  loadBertScorer,
  loadPunktParameters,
  loadWordNet,
  type MeteorTokenizer,
  openTextsimSink,
  readTextsimPairs,
  scoreTextsim,
  summarizeTextsim,
  TEXTSIM_METRICS,
  type TextsimConfig,
  type TextsimIssue,
  type TextsimMetric,
  type TextsimPair,
  type TextsimRow,
  type TextsimSink,
  type TextsimSummary,
  wordTokenize,
} from '../../entries/textsim.js'
import { formatOption, outOption } from './shared-options.js'

const FORMATS = ['jsonl', 'table', 'markdown', 'csv', 'tsv', 'json'] as const
type TextsimFormat = (typeof FORMATS)[number]

interface TextsimFlags {
  metric: TextsimMetric[]
  stemmer?: boolean
  tokenize: 'split' | 'nltk'
  punkt?: string
  alpha: number
  beta: number
  gamma: number
  morphy: 'nltk38' | 'nltk39'
  wordnet?: string
  model?: string
  layer?: number
  idf?: boolean
  baseline?: string
  out?: string
  format: TextsimFormat
  items?: string
}

function metrics(text: string): TextsimMetric[] {
  const names = text.split(',').map((s) => s.trim())
  const bad = names.filter((n) => !(TEXTSIM_METRICS as readonly string[]).includes(n))
  if (bad.length > 0 || names.length === 0)
    throw new InvalidArgumentError(
      `expected a comma-separated list of ${TEXTSIM_METRICS.join(', ')}; unknown: ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    )
  return [...new Set(names)] as TextsimMetric[]
}

function finite(text: string): number {
  const n = Number(text)
  if (text.trim() === '' || !Number.isFinite(n))
    throw new InvalidArgumentError('expected a finite number')
  return n
}

function layer(text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError('expected a non-negative integer')
  return n
}

/** The output line of one row: id, then the metrics in the order asked for. */
function rowJson(row: TextsimRow, order: readonly TextsimMetric[]): string {
  const out: Record<string, unknown> = { id: row.id }
  for (const m of order) out[m] = row[m]
  return JSON.stringify(out)
}

/** The summary as a table: one row per metric, P / R / F (METEOR's score in F), and the pairs in the mean. */
function renderSummary(
  summary: TextsimSummary,
  format: Exclude<TextsimFormat, 'jsonl'>,
  stemmer: boolean,
): string {
  if (format === 'json') return `${JSON.stringify(summary)}\n`
  const metrics = [...new Set(summary.means.map((m) => m.metric))]
  const mean = (metric: string, c: string): number | null =>
    summary.means.find((m) => m.metric === metric && m.component === c)?.mean ?? null
  const rows = metrics.map((metric) => {
    const f = metric === 'meteor' ? 'score' : metric === 'bertscore' ? 'f1' : 'fmeasure'
    const n = summary.means.find((m) => m.metric === metric && m.component === f)?.n ?? 0
    return [
      metric,
      metric === 'meteor' ? null : mean(metric, 'precision'),
      metric === 'meteor' ? null : mean(metric, 'recall'),
      mean(metric, f),
      n,
    ]
  })
  return renderTable(
    {
      columns: [
        { key: 'metric', header: 'metric', align: 'left' },
        { key: 'precision', header: 'P', align: 'right' },
        { key: 'recall', header: 'R', align: 'right' },
        { key: 'f', header: 'F', align: 'right' },
        { key: 'n', header: 'n', align: 'right', digits: 0 },
      ],
      rows,
      notes: [
        `means over ${summary.scored} scored pair(s) (numpy np.mean of the per-pair values); ${summary.notScored} line(s) not scored; ROUGE stemmer ${stemmer ? 'on' : 'off'}; METEOR's score is in F`,
      ],
    },
    format,
  )
}

/**
 * `trecscore textsim --metric rouge1,rouge2,rougeL,rougeLsum,meteor,bertscore [--stemmer] [--tokenize split|nltk]
 * [--punkt DIR] [--out FILE] PAIRS.jsonl`: ROUGE-L/ROUGE-Lsum (rouge-score 0.1.2), METEOR (NLTK 3.8,
 * WordNet 3.0) and BERTScore per pair, as JSONL.
 */
export function registerTextsim(program: Command): void {
  program
    .command('textsim')
    .description(
      'text similarity of predictions to references: ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum as rouge-score 0.1.2, METEOR as NLTK 3.8 (WordNet 3.0), BERTScore on a local ONNX model; JSONL, one line per id',
    )
    .argument(
      '<pairs>',
      'JSONL file, one {"id", "prediction", "references": [...]} per line (- for standard input; .gz accepted)',
    )
    .addOption(
      new Option('--metric <list>', `comma-separated metrics: ${TEXTSIM_METRICS.join(', ')}`)
        .argParser(metrics)
        .default(['rougeL', 'rougeLsum', 'meteor'], 'rougeL,rougeLsum,meteor'),
    )
    .option(
      '--stemmer',
      "ROUGE: stem tokens longer than 3 characters with NLTK's Porter stemmer (rouge-score use_stemmer=True); METEOR always stems",
    )
    .addOption(
      new Option(
        '--tokenize <how>',
        'METEOR tokenization: split (text.lower().split()) or nltk (nltk.word_tokenize: Punkt + Treebank, as HF evaluate; needs --punkt)',
      )
        .choices(['split', 'nltk'])
        .default('split'),
    )
    .option(
      '--punkt <dir>',
      "folder with NLTK's English Punkt parameters (punkt_tab/english files) for --tokenize nltk",
    )
    .option('--alpha <x>', 'METEOR alpha', finite, 0.9)
    .option('--beta <x>', 'METEOR beta', finite, 3)
    .option('--gamma <x>', 'METEOR gamma', finite, 0.5)
    .addOption(
      new Option(
        '--morphy <mode>',
        'WordNet morphy: nltk38 (repeated suffix rules, the NLTK 3.8 reference) or nltk39 (one round, NLTK >= 3.9)',
      )
        .choices(['nltk38', 'nltk39'])
        .default('nltk38'),
    )
    .option(
      '--wordnet <file>',
      'compact WordNet index (default: the bundled WordNet 3.0 one, data/wordnet/)',
    )
    .option(
      '--model <dir>',
      'BERTScore: local model folder with model.onnx and tokenizer.json (required for bertscore)',
    )
    .option('--layer <n>', 'BERTScore: hidden layer (e.g. 17 for roberta-large)', layer)
    .option('--idf', 'BERTScore: idf weights from all references of the file')
    .option(
      '--baseline <file>',
      "BERTScore: rescale with this baseline file (bert_score's rescale_baseline TSV)",
    )
    .addOption(
      outOption(
        'write the output (JSONL, or the summary with --format) here instead of standard output',
      ),
    )
    .addOption(
      formatOption(
        FORMATS,
        'jsonl is one line per id; table, markdown, csv, tsv and json are the summary (mean of every metric over the scored pairs)',
        'jsonl',
      ),
    )
    .option('--items <file>', 'with a summary --format: also write the per-id JSONL to this file')
    .addHelpText(
      'after',
      `
Output: one JSON line per scored id (default --format jsonl), e.g.
  {"id":"q1","rouge1":{"precision":…,"recall":…,"fmeasure":…,"reference":0},"rougeL":{"precision":…,"recall":…,"fmeasure":…,"reference":0},"rougeLsum":{…},"meteor":{"score":…,"reference":0}}
ROUGE: the reference with the highest F per type (first on ties; rouge-score score_multi); METEOR: the
max over the references (NLTK meteor_score); "reference" is the 0-based index of the one chosen.
--format table|markdown|csv|tsv|json prints the summary instead: per metric the mean P, R and F
(numpy np.mean of the per-pair values) and the number of pairs; --items FILE keeps the per-id JSONL.
BERTScore: {"precision","recall","f1"}, each the max over the references (bert_score).
A bad line (invalid JSON or UTF-8, wrong types, missing fields, an empty reference list, a duplicate
id, a text too long to score) is reported on standard error with file:line and id; the other lines
are still scored. Exit codes: 0 every line scored; 2 a line could not be scored, bad options, or an
unreadable file.`,
    )
    .action(async (pairsFile: string, flags: TextsimFlags, cmd: Command) => {
      const wants = (m: TextsimMetric): boolean => flags.metric.includes(m)
      if (flags.tokenize === 'nltk' && flags.punkt === undefined) {
        cmd.error(
          "error: --tokenize nltk needs --punkt <dir> (NLTK's punkt_tab/english parameters)",
          { exitCode: 2, code: 'trecscore.missingPunkt' },
        )
      }
      if (wants('bertscore') && flags.model === undefined) {
        cmd.error(
          'error: --metric bertscore needs --model <dir> (a local ONNX model folder; see the README)',
          { exitCode: 2, code: 'trecscore.missingModel' },
        )
      }
      const bertOnly = ['layer', 'idf', 'baseline'].filter(
        (o) => cmd.getOptionValueSource(o) === 'cli',
      )
      if (!wants('bertscore') && (bertOnly.length > 0 || flags.model !== undefined)) {
        const given = [
          ...(flags.model !== undefined ? ['--model'] : []),
          ...bertOnly.map((o) => `--${o}`),
        ]
        cmd.error(
          `error: ${given.join(', ')} only appl${given.length === 1 ? 'ies' : 'y'} to --metric bertscore`,
          { exitCode: 2, code: 'trecscore.bertscoreOption' },
        )
      }
      if (flags.items !== undefined && flags.format === 'jsonl') {
        cmd.error(
          'error: --items only applies to a summary --format (table, markdown, csv, tsv, json)',
          { exitCode: 2, code: 'trecscore.itemsOption' },
        )
      }
      if (flags.punkt !== undefined && flags.tokenize !== 'nltk') {
        cmd.error('error: --punkt only applies to --tokenize nltk', {
          exitCode: 2,
          code: 'trecscore.punktOption',
        })
      }

      let tokenize: MeteorTokenizer | undefined
      if (wants('meteor') && flags.tokenize === 'nltk') {
        const params = await loadPunktParameters(flags.punkt!)
        tokenize = (text) => wordTokenize(text, params)
      }
      const wordnet = wants('meteor')
        ? await loadWordNet({
            ...(flags.wordnet !== undefined ? { path: flags.wordnet } : {}),
            morphy: flags.morphy,
          })
        : undefined
      let bert: BertScorer | undefined
      if (wants('bertscore')) {
        bert = await loadBertScorer({
          modelDir: flags.model!,
          ...(flags.layer !== undefined ? { layer: flags.layer } : {}),
          ...(flags.idf ? { idf: true } : {}),
          ...(flags.baseline !== undefined ? { baselineFile: flags.baseline } : {}),
        })
      }
      const config: TextsimConfig = {
        metrics: flags.metric,
        stemmer: flags.stemmer === true,
        ...(tokenize !== undefined ? { tokenize } : {}),
        meteorParams: { alpha: flags.alpha, beta: flags.beta, gamma: flags.gamma },
        ...(wordnet !== undefined ? { wordnet } : {}),
        ...(bert !== undefined ? { bertScorer: bert } : {}),
      }

      const summaryFormat = flags.format === 'jsonl' ? undefined : flags.format
      const sink: TextsimSink | undefined =
        summaryFormat === undefined
          ? openTextsimSink(flags.out)
          : flags.items !== undefined
            ? openTextsimSink(flags.items)
            : undefined
      const kept: TextsimRow[] = []
      const tty = process.stderr.isTTY === true
      let failed = 0
      let scored = 0
      let read = 0
      const report = (issue: TextsimIssue): void => {
        failed++
        if (tty) process.stderr.write('\r\x1b[K')
        process.stderr.write(`trecscore: ${formatTextsimIssue(issue)}\n`)
      }
      const seen = new Map<string, number>()
      const lineOf = new Map<TextsimPair, { file: string; line: number }>()
      const pending: TextsimPair[] = []
      const flush = async (): Promise<void> => {
        const batch = pending.splice(0)
        const result = await scoreTextsim(batch, config, (p) => lineOf.get(p)!)
        result.issues.forEach(report)
        for (const row of result.rows) {
          if (sink !== undefined) await sink.write(rowJson(row, flags.metric))
          if (summaryFormat !== undefined) kept.push(row)
        }
        scored += result.rows.length
        for (const p of batch) lineOf.delete(p)
        if (tty)
          process.stderr.write(`\rtextsim: ${read} lines read, ${scored} scored, ${failed} failed`)
      }
      try {
        for await (const item of readTextsimPairs(pairsFile)) {
          read++
          if (!item.ok) {
            report(item.issue)
            continue
          }
          const { pair, file, line } = item
          const first = seen.get(pair.id)
          if (first !== undefined) {
            report({
              file,
              line,
              id: pair.id,
              code: 'duplicate_id',
              firstLine: first,
              text: pair.prediction,
            })
            continue
          }
          seen.set(pair.id, line)
          pending.push(pair)
          lineOf.set(pair, { file, line })
          // BERTScore idf is computed over every reference of one call: keep the whole file then.
          if (!wants('bertscore') && pending.length >= 64) await flush()
        }
        await flush()
      } finally {
        await sink?.close()
        // What BERTScore ran with and what it had to cut or could not score: never silent.
        if (bert !== undefined) {
          const d = bert.describe()
          const c = (d.counts ?? {}) as Record<string, number>
          process.stderr.write(
            `textsim: bertscore ${String(d.hash)}; model sha256 ${String(d.modelSha256)}; ${c.truncatedTexts ?? 0} truncated text(s), ${c.emptyPredictions ?? 0} empty prediction(s), ${c.emptyReferences ?? 0} empty reference(s), ${c.nanValues ?? 0} NaN value(s) (written as null)\n`,
          )
        }
        await bert?.close()
      }
      if (summaryFormat !== undefined) {
        const out = openTextsimSink(flags.out)
        try {
          await out.write(
            renderSummary(
              summarizeTextsim(kept, flags.metric, failed),
              summaryFormat,
              flags.stemmer === true,
            ).replace(/\n$/, ''),
          )
        } finally {
          await out.close()
        }
      }
      if (tty) process.stderr.write('\r\x1b[K')
      process.stderr.write(
        `textsim: ${scored} scored, ${failed} line(s) not scored${failed > 0 ? ' (exit 2)' : ''}\n`,
      )
      if (failed > 0) process.exitCode = 2
    })
}
