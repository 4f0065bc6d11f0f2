/**
 * `trecscore/measures`: the measure registry and the measure-name language (`nDCG@10`,
 * `P(rel=2)@5`): parsing, canonical names, suggestions.
 *
 * @example
 * import { parseMeasure } from 'trecscore/measures'
 * parseMeasure('nDCG@10')
 *
 * @module
 */

export {
  type Measure,
  type MeasureSpec,
  type ParamRange,
  type ParamSpec,
  type ParamValue,
  rangeText,
} from '../measures/measure.js'
export {
  canonicalName,
  parseMeasure,
  parseMeasures,
  suggestMeasures,
} from '../measures/name.js'
export {
  findMeasureSpec,
  MEASURES,
} from '../measures/registry.js'
export {
  temporalCoverage,
  temporalPrecisionReteco,
  temporalPrecisionTempo,
  temporalRelevance,
} from '../measures/temporal.js'
