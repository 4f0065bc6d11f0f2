/**
 * `loadBertScorer`: BERTScore (bert_score 0.3.13 semantics, see `bertscore.ts`) on a local model
 * folder, run by onnxruntime-node on the CPU. Never touches the network.
 *
 * The folder holds:
 * - `model.onnx` (required): inputs `input_ids`, `attention_mask` (and optionally
 *   `token_type_ids`), int64 `[batch, seq]`; output `last_hidden_state` `[batch, seq, hidden]`
 *   of the encoder truncated to the BERTScore layer (roberta-large: 17), or outputs named
 *   `hidden_states.<L>`;
 * - `tokenizer.json` (required): the Hugging Face fast-tokenizer file;
 * - `tokenizer_config.json`, `config.json` (optional): `model_max_length`, special tokens,
 *   `num_hidden_layers` (which layer `last_hidden_state` is), `model_type`, `_name_or_path`;
 * - `bertscore-manifest.json` (optional): `{"model", "revision", "layer", "model_sha256",
 *   "tokenizer_sha256"}`; when present, the hashes and the layer are checked.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import type { InputIssue } from '../../errors/issues.js'
import { InputError } from '../../errors/trecscore-error.js'
import { importOptional } from '../../io/optional-package.js'
import { type BaselineRow, baselineForLayer, parseBaselineTable } from './baseline.js'
import {
  type BertScoreValue,
  bertScoreFromEmbeddings,
  bestOverReferences,
  computeIdf,
  EMPTY_TEXT_LENGTH,
  rescale,
  type TokenWeights,
  uniformWeights,
} from './bertscore.js'
import type { OnnxEncoder } from './onnx-model.js'
import type { BertScoreTokenizer } from './tokenizer.js'

/** Options of {@link loadBertScorer}. */
export interface BertScorerOptions {
  /** Model folder with `model.onnx` and `tokenizer.json`. */
  modelDir: string
  /**
   * BERTScore layer L (hidden state L, 0 = embeddings). Default: the layer `last_hidden_state`
   * is, from `config.json` `num_hidden_layers`. With a `hidden_states.L` output that output is
   * used; otherwise `last_hidden_state` must be layer L.
   */
  layer?: number
  /** Idf weighting from the references (bert_score `idf=True`). Default false. */
  idf?: boolean
  /** Baseline file in bert_score's `rescale_baseline/<lang>/<model>.tsv` layout. */
  baselineFile?: string
  /** Rescale with the baseline row of the layer. Default: true when `baselineFile` is given. */
  rescale?: boolean
  /** Texts per onnxruntime run. Default 64 (bert_score's default batch size). */
  batchSize?: number
  /** onnxruntime intra-op threads. Default: onnxruntime's choice (all cores). */
  threads?: number
  /** Maximum tokens per text, specials included. Default: `model_max_length`, else 512. */
  maxLength?: number
}

/** A loaded BERTScore model. */
export interface BertScorer {
  /**
   * P, R and F1 per prediction against its references (best per measure over the references,
   * as bert_score). Idf, when on, is computed over all `references` of this call, flattened.
   * Every reference list must be non-empty.
   */
  score(
    predictions: string[],
    references: string[][],
  ): Promise<{ precision: number; recall: number; f1: number }[]>
  /** Model, layer, options, hashes, versions and running counts (truncated, empty, NaN). */
  describe(): Record<string, unknown>
  close(): Promise<void>
}

const MANIFEST = 'bertscore-manifest.json'

type Json = Record<string, unknown>

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256')
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer)
  return h.digest('hex')
}

async function readJson(path: string, issues: InputIssue[]): Promise<unknown> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (e) {
    issues.push({ code: 'cannot_read', file: path, reason: (e as Error).message })
    return undefined
  }
  try {
    return JSON.parse(text)
  } catch (e) {
    issues.push({
      code: 'cannot_read',
      file: path,
      reason: `not valid JSON: ${(e as Error).message}`,
    })
    return undefined
  }
}

function checkInteger(
  issues: InputIssue[],
  option: string,
  v: number | undefined,
  min: number,
): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min)) {
    issues.push({ code: 'bad_argument', option, found: String(v), expected: `an integer ≥ ${min}` })
  }
}

/** Token positions the model has: `max_position_embeddings` (RoBERTa-style models: minus 2). */
function maxPositions(config: unknown): number | undefined {
  if (!isObject(config) || typeof config['max_position_embeddings'] !== 'number') return undefined
  const offset = ['roberta', 'xlm-roberta', 'camembert'].includes(String(config['model_type']))
    ? 2
    : 0
  return config['max_position_embeddings'] - offset
}

/** Which graph output holds layer L, and how we know. */
function chooseOutput(
  outputs: readonly string[],
  layer: number | undefined,
  configLayers: number | undefined,
  file: string,
): { output: string; layer: number | undefined; source: string } {
  if (layer !== undefined && outputs.includes(`hidden_states.${layer}`)) {
    return { output: `hidden_states.${layer}`, layer, source: `output hidden_states.${layer}` }
  }
  const last = outputs.includes('last_hidden_state')
    ? 'last_hidden_state'
    : outputs.length === 1
      ? outputs[0]!
      : undefined
  if (last === undefined) {
    throw new InputError([
      {
        code: 'cannot_read',
        file,
        reason: `no output last_hidden_state${layer === undefined ? '' : ` or hidden_states.${layer}`} (outputs: ${outputs.join(', ')})`,
      },
    ])
  }
  if (layer === undefined) {
    return {
      output: last,
      layer: configLayers,
      source:
        configLayers === undefined
          ? `output ${last}; layer unknown (no num_hidden_layers in config.json)`
          : `output ${last} = layer ${configLayers} (config.json num_hidden_layers)`,
    }
  }
  if (configLayers !== undefined && configLayers !== layer) {
    throw new InputError([
      {
        code: 'bad_argument',
        option: 'layer',
        found: String(layer),
        expected: `${configLayers}: ${file}'s ${last} is layer ${configLayers} (config.json num_hidden_layers); export the encoder cut to ${layer} layers, or with hidden_states.${layer} outputs`,
      },
    ])
  }
  return {
    output: last,
    layer,
    source:
      configLayers === undefined
        ? `output ${last}, taken as layer ${layer} as given (not checked: no num_hidden_layers in config.json)`
        : `output ${last} = layer ${layer} (config.json num_hidden_layers)`,
  }
}

/**
 * Loads a BERTScore model folder. Problems are reported as an {@link InputError}, all those of
 * one step together (options and files; JSON; manifest; tokenizer; graph, layer and baseline):
 * missing `model.onnx`/`tokenizer.json`, unreadable JSON, a layer the model does not have,
 * rescaling without a baseline file or row, a manifest hash mismatch, a graph that cannot run.
 * Without onnxruntime-node or @huggingface/tokenizers (optional packages) it throws a
 * `MissingPackageError` naming what to install, before reading anything.
 */
export async function loadBertScorer(options: BertScorerOptions): Promise<BertScorer> {
  // The optional packages first: without them nothing else can be checked usefully.
  const [{ openOnnxEncoder }, { createBertScoreTokenizer }] = await importOptional([
    ['onnxruntime-node', () => import('./onnx-model.js')],
    ['@huggingface/tokenizers', () => import('./tokenizer.js')],
  ])
  const issues: InputIssue[] = []
  checkInteger(issues, 'layer', options.layer, 0)
  checkInteger(issues, 'batchSize', options.batchSize, 1)
  checkInteger(issues, 'threads', options.threads, 1)
  checkInteger(issues, 'maxLength', options.maxLength, 3)
  const dir = resolve(options.modelDir)
  const modelPath = join(dir, 'model.onnx')
  const tokenizerPath = join(dir, 'tokenizer.json')
  let dirOk = false
  try {
    dirOk = (await stat(dir)).isDirectory()
  } catch {
    dirOk = false
  }
  if (!dirOk) {
    issues.push({
      code: 'cannot_read',
      file: dir,
      reason: 'no such model folder (expected a folder with model.onnx and tokenizer.json)',
    })
  } else {
    if (!(await isFile(modelPath)))
      issues.push({
        code: 'cannot_read',
        file: modelPath,
        reason:
          'missing: the model folder needs model.onnx (the encoder exported to ONNX; see the README, BERTScore)',
      })
    if (!(await isFile(tokenizerPath)))
      issues.push({
        code: 'cannot_read',
        file: tokenizerPath,
        reason: "missing: the model folder needs the model's Hugging Face tokenizer.json",
      })
  }
  const doRescale = options.rescale ?? options.baselineFile !== undefined
  if (doRescale && options.baselineFile === undefined) {
    issues.push({
      code: 'bad_argument',
      option: 'rescale',
      found: 'true',
      expected:
        "a baseline file (bert_score's rescale_baseline/<lang>/<model>.tsv) to rescale with",
    })
  }
  let baselineText: string | undefined
  if (doRescale && options.baselineFile !== undefined) {
    try {
      baselineText = await readFile(options.baselineFile, 'utf8')
    } catch (e) {
      issues.push({ code: 'cannot_read', file: options.baselineFile, reason: (e as Error).message })
    }
  }
  if (issues.length > 0)
    throw new InputError(issues, `${issues.length} problem(s) with the BERTScore model or options`)

  const tokenizerJson = await readJson(tokenizerPath, issues)
  const tokenizerConfig = (await isFile(join(dir, 'tokenizer_config.json')))
    ? await readJson(join(dir, 'tokenizer_config.json'), issues)
    : undefined
  const modelConfig = (await isFile(join(dir, 'config.json')))
    ? await readJson(join(dir, 'config.json'), issues)
    : undefined
  const manifest = (await isFile(join(dir, MANIFEST)))
    ? await readJson(join(dir, MANIFEST), issues)
    : undefined
  if (issues.length > 0)
    throw new InputError(issues, `${issues.length} problem(s) with the BERTScore model folder`)

  const modelSha256 = await sha256File(modelPath)
  const tokenizerSha256 = await sha256File(tokenizerPath)
  const configLayers =
    isObject(modelConfig) && typeof modelConfig['num_hidden_layers'] === 'number'
      ? modelConfig['num_hidden_layers']
      : undefined
  if (isObject(manifest)) {
    const at = join(dir, MANIFEST)
    for (const [key, actual] of [
      ['model_sha256', modelSha256],
      ['tokenizer_sha256', tokenizerSha256],
    ] as const) {
      const want = manifest[key]
      if (typeof want === 'string' && want.toLowerCase() !== actual) {
        issues.push({
          code: 'bad_argument',
          option: `${at} ${key}`,
          found: actual,
          expected: `the manifest's ${want} (the file changed since the export)`,
        })
      }
    }
    const ml = manifest['layer']
    if (typeof ml === 'number' && options.layer !== undefined && ml !== options.layer) {
      issues.push({
        code: 'bad_argument',
        option: 'layer',
        found: String(options.layer),
        expected: `${ml}, the layer ${at} says the export is`,
      })
    }
    if (issues.length > 0)
      throw new InputError(
        issues,
        `${issues.length} problem(s): the model folder does not match its manifest`,
      )
  }
  const manifestLayer =
    isObject(manifest) && typeof manifest['layer'] === 'number' ? manifest['layer'] : undefined

  const tokenizer: BertScoreTokenizer = createBertScoreTokenizer(
    { tokenizer: tokenizerJson, tokenizerConfig, modelConfig, file: tokenizerPath },
    options.maxLength === undefined ? {} : { maxLength: options.maxLength },
  )

  let encoder: OnnxEncoder
  try {
    encoder = await openOnnxEncoder(modelPath, {
      padId: tokenizer.padId,
      ...(options.threads === undefined ? {} : { threads: options.threads }),
    })
  } catch (e) {
    throw new InputError([
      {
        code: 'cannot_read',
        file: modelPath,
        reason: `onnxruntime cannot load it: ${(e as Error).message}`,
      },
    ])
  }
  const missing = ['input_ids', 'attention_mask'].filter((n) => !encoder.inputNames.includes(n))
  if (missing.length > 0) {
    await encoder.close()
    throw new InputError([
      {
        code: 'cannot_read',
        file: modelPath,
        reason: `the graph lacks input(s) ${missing.join(', ')} (inputs: ${encoder.inputNames.join(', ')})`,
      },
    ])
  }
  let chosen: ReturnType<typeof chooseOutput>
  let baseline: BaselineRow | undefined
  try {
    chosen = chooseOutput(
      encoder.outputNames,
      options.layer ?? manifestLayer,
      configLayers,
      modelPath,
    )
    if (doRescale && baselineText !== undefined) {
      if (chosen.layer === undefined) {
        throw new InputError([
          {
            code: 'bad_argument',
            option: 'layer',
            found: '(none)',
            expected:
              'the layer number, to pick the baseline row (config.json has no num_hidden_layers)',
          },
        ])
      }
      baseline = baselineForLayer(
        parseBaselineTable(baselineText, options.baselineFile!),
        chosen.layer,
      )
    }
    const positions = maxPositions(modelConfig)
    if (positions !== undefined && tokenizer.maxLength > positions) {
      throw new InputError([
        {
          code: 'bad_argument',
          option: 'maxLength',
          found: String(tokenizer.maxLength),
          expected: `at most ${positions}, the positions the model has (config.json max_position_embeddings)`,
        },
      ])
    }
    // One probe run, so a graph that cannot run or returns something else fails at load.
    try {
      await encoder.embed([[tokenizer.clsId, tokenizer.sepId]], chosen.output)
    } catch (e) {
      throw new InputError([
        {
          code: 'cannot_read',
          file: modelPath,
          reason: `onnxruntime cannot run it on [CLS] [SEP]: ${(e as Error).message}`,
        },
      ])
    }
  } catch (e) {
    await encoder.close()
    throw e
  }

  const batchSize = options.batchSize ?? 64
  const idf = options.idf ?? false
  const specials = [tokenizer.clsId, tokenizer.sepId]
  const modelName =
    (isObject(manifest) && typeof manifest['model'] === 'string' ? manifest['model'] : undefined) ??
    (isObject(modelConfig) &&
    typeof modelConfig['_name_or_path'] === 'string' &&
    modelConfig['_name_or_path'] !== ''
      ? modelConfig['_name_or_path']
      : basename(dir))
  const counts = {
    calls: 0,
    predictions: 0,
    referenceTexts: 0,
    truncatedTexts: 0,
    emptyPredictions: 0,
    emptyReferences: 0,
    nanValues: 0,
  }
  const lastIdf: { documents?: number } = {}
  let closed = false

  async function embedAll(
    texts: readonly (readonly number[])[],
  ): Promise<{ dim: number; vectors: Float32Array[] }> {
    const order = texts
      .map((_, i) => i)
      .sort((a, b) => texts[b]!.length - texts[a]!.length || a - b)
    const vectors = new Array<Float32Array>(texts.length)
    let dim = 0
    for (let k = 0; k < order.length; k += batchSize) {
      const idx = order.slice(k, k + batchSize)
      let out: Awaited<ReturnType<OnnxEncoder['embed']>>
      try {
        out = await encoder.embed(
          idx.map((i) => texts[i]!),
          chosen.output,
        )
      } catch (e) {
        throw new InputError([
          {
            code: 'cannot_read',
            file: modelPath,
            reason: `onnxruntime failed on a batch of ${idx.length} text(s) of up to ${texts[idx[0]!]!.length} tokens: ${(e as Error).message}`,
          },
        ])
      }
      dim = out.dim
      idx.forEach((i, n) => {
        vectors[i] = out.vectors[n]!
      })
    }
    return { dim, vectors }
  }

  return {
    async score(predictions, references) {
      if (closed) throw new Error('BertScorer.score called after close()')
      const bad: InputIssue[] = []
      if (predictions.length !== references.length) {
        bad.push({
          code: 'bad_argument',
          option: 'references',
          found: `${references.length} reference lists`,
          expected: `one list per prediction (${predictions.length})`,
        })
      } else {
        const empty = references.flatMap((r, i) => (r.length === 0 ? [i] : []))
        if (empty.length > 0) {
          bad.push({
            code: 'bad_argument',
            option: 'references',
            found: `no reference for prediction(s) at index ${empty.slice(0, 20).join(', ')}${empty.length > 20 ? ` and ${empty.length - 20} more` : ''}`,
            expected: 'at least one reference per prediction (bert_score raises on an empty list)',
          })
        }
      }
      if (bad.length > 0) throw new InputError(bad)

      const encoded = new Map<string, readonly number[]>()
      let truncated = 0
      const ids = (text: string): readonly number[] => {
        let e = encoded.get(text)
        if (e === undefined) {
          const r = tokenizer.encode(text)
          if (r.truncated) truncated++
          e = r.ids
          encoded.set(text, e)
        }
        return e
      }
      const predIds = predictions.map(ids)
      const refIds = references.map((rs) => rs.map(ids))
      const weights: TokenWeights = idf
        ? computeIdf(refIds.flat(), specials)
        : uniformWeights(specials)
      if (idf) lastIdf.documents = refIds.flat().length

      const results: BertScoreValue[] = []
      for (let start = 0; start < predictions.length; start += batchSize) {
        const end = Math.min(predictions.length, start + batchSize)
        const unique = new Map<readonly number[], number>()
        for (let i = start; i < end; i++)
          for (const t of [predIds[i]!, ...refIds[i]!])
            if (!unique.has(t)) unique.set(t, unique.size)
        const { dim, vectors } = await embedAll([...unique.keys()])
        for (let i = start; i < end; i++) {
          const cand = { ids: predIds[i]!, dim, vectors: vectors[unique.get(predIds[i]!)!]! }
          const per = refIds[i]!.map((r) =>
            bertScoreFromEmbeddings(
              cand,
              { ids: r, dim, vectors: vectors[unique.get(r)!]! },
              weights,
            ),
          )
          const best = bestOverReferences(per)
          results.push(baseline === undefined ? best : rescale(best, baseline))
        }
      }
      counts.calls++
      counts.predictions += predictions.length
      counts.referenceTexts += refIds.flat().length
      counts.truncatedTexts += truncated
      counts.emptyPredictions += predIds.filter((p) => p.length === EMPTY_TEXT_LENGTH).length
      counts.emptyReferences += refIds.flat().filter((r) => r.length === EMPTY_TEXT_LENGTH).length
      counts.nanValues += results.reduce(
        (n, r) => n + [r.precision, r.recall, r.f1].filter(Number.isNaN).length,
        0,
      )
      return results.map((r) => ({ precision: r.precision, recall: r.recall, f1: r.f1 }))
    },
    describe() {
      const layer = chosen.layer === undefined ? '?' : String(chosen.layer)
      return {
        metric: 'bertscore',
        semantics:
          'bert_score 0.3.13 (greedy cosine matching, idf from the references, max over references per P/R/F, baseline rescaling)',
        hash: `${modelName}_L${layer}_${idf ? 'idf' : 'no-idf'}_version=bert_score-0.3.13-compatible(trecscore,onnxruntime-node=${encoder.runtimeVersion},onnx-sha256=${modelSha256.slice(0, 12)})${baseline ? '-rescaled' : ''}`,
        model: modelName,
        modelDir: dir,
        modelSha256,
        tokenizerSha256,
        manifest: isObject(manifest) ? manifest : null,
        layer: chosen.layer ?? null,
        layerSource: chosen.source,
        output: chosen.output,
        idf,
        idfDocuments: idf ? (lastIdf.documents ?? 0) : null,
        rescale: baseline !== undefined,
        baseline:
          baseline === undefined
            ? null
            : {
                file: options.baselineFile,
                layer: baseline.layer,
                precision: baseline.precision,
                recall: baseline.recall,
                f1: baseline.f1,
              },
        tokenizer: {
          kind: tokenizer.kind,
          addPrefixSpace: tokenizer.addPrefixSpace,
          maxLength: tokenizer.maxLength,
          clsId: tokenizer.clsId,
          sepId: tokenizer.sepId,
          padId: tokenizer.padId,
        },
        batchSize,
        runtime: `onnxruntime-node ${encoder.runtimeVersion} (CPU)`,
        counts: { ...counts },
      }
    },
    async close() {
      if (!closed) {
        closed = true
        await encoder.close()
      }
    },
  }
}
