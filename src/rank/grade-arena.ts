/**
 * Where prepared rankings' grade arrays come from. One evaluation (a `RunEvaluator`, a trec_eval
 * drop-in's relevance information) creates a {@link GradeArena} and passes it to every
 * `prepareQuery` it makes: each query's grades are a small view carved from a shared block (up
 * to 1 MiB), instead of a fresh buffer each (each with its own off-heap allocation and clean-up).
 * The arena lives as long as its owner; nothing is allocated at module level.
 */

/** Int32 slots of the largest block (1 MiB); blocks double up to it from {@link FIRST_BLOCK}. */
const GRADE_BLOCK = 1 << 18
/** Int32 slots of an arena's first block (4 KiB): a small evaluation takes no more. */
const FIRST_BLOCK = 1 << 10

/**
 * Hands out zeroed `Int32Array`s from blocks of 4 KiB doubling up to 1 MiB. Views never overlap and a block is never
 * reused (rankings keep their grades), so each starts zeroed as a new array would; a request
 * over a quarter of a block gets its own buffer. Not shared across threads.
 */
export class GradeArena {
  private block = new Int32Array(0)
  private used = 0

  /** A zeroed array of `n` grades. */
  take(n: number): Int32Array {
    if (n > GRADE_BLOCK >> 2) return new Int32Array(n)
    if (this.used + n > this.block.length) {
      let size = Math.min(GRADE_BLOCK, Math.max(FIRST_BLOCK, this.block.length * 2))
      while (size < n) size *= 2
      this.block = new Int32Array(size)
      this.used = 0
    }
    const out = new Int32Array(this.block.buffer, this.used << 2, n)
    this.used += n
    return out
  }
}
