/**
 * A sliding-window rate limiter keyed by a string (`login:IP`, `upload:TEAM`, `api:TOKEN`).
 * One instance per server (no module state); the clock is injected for tests.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>()

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Record one request under `key` and say whether it is allowed: at most `limit` requests in
   * the last `windowMs` milliseconds. Refused requests are not recorded.
   */
  allow(key: string, limit: number, windowMs = 60_000): boolean {
    const t = this.now()
    const kept = (this.hits.get(key) ?? []).filter((x) => x > t - windowMs)
    if (kept.length >= limit) {
      this.hits.set(key, kept)
      return false
    }
    kept.push(t)
    this.hits.set(key, kept)
    if (this.hits.size > 10_000) this.prune(t - windowMs)
    return true
  }

  private prune(before: number): void {
    for (const [k, v] of this.hits) if (v.every((x) => x <= before)) this.hits.delete(k)
  }
}
