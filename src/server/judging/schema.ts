/**
 * The `judge` block of a track: a RETECO generation track (`reteco-2b`, or `reteco-2c` with
 * answers and their retrieval run) scored by the frozen LLM judge of `trecscore judge run`.
 * The endpoint's key is read from the environment variable the organizer names here, in the
 * scoring worker only: it is never in the config file, a page, an API answer or a log.
 */
import { z } from 'zod'

/** Cost budgets, in the judge config's currency (its `prices`). */
export const judgeBudgetSchema = z.strictObject({
  /** The most all teams together may spend on this track in one phase. */
  perPhase: z.number().min(0).optional(),
  /** The most one team may spend on this track in one phase. */
  perTeam: z.number().min(0).optional(),
})

export const judgeTrackSchema = z.strictObject({
  /** Judge config JSON, relative to the config file (default: the shipped reteco-judge-v1.json). */
  config: z.string().min(1).optional(),
  /** OpenAI-compatible base URL, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: z.url(),
  /** Name of the environment variable holding the API key (none: no Authorization header). */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
    .optional(),
  /** Requests in flight at once, and per minute (0 = unlimited); default: the judge config's. */
  concurrency: z.number().int().min(1).optional(),
  requestsPerMinute: z.number().min(0).optional(),
  /**
   * A submission fails (not charged) when more than this share of the judgments that needed the
   * judge ended missing or invalid, as `judge run --max-failed` (default 0.1).
   */
  maxFailedShare: z.number().min(0).max(1).default(0.1),
  /**
   * BERTScore as a diagnostic column (`BERTScore`, F1 against the reference answers): a local
   * ONNX model folder (model.onnx, tokenizer.json; relative to the config file) and its layer.
   */
  bertscore: z
    .strictObject({
      model: z.string().min(1),
      layer: z.number().int().min(0).optional(),
    })
    .optional(),
  budget: judgeBudgetSchema.prefault({}),
})

export type JudgeTrackConfig = z.output<typeof judgeTrackSchema>
