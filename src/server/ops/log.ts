/**
 * Structured logs: one JSON object per line on stderr (`ts`, `level`, `msg`, then fields such as
 * `requestId`, `method`, `path`, `status`, `ms`), or the same as one readable text line
 * (`--log-format text`). Each request gets a request id (a sane incoming `X-Request-Id`, else a
 * new one), returned in the `X-Request-Id` header and kept in an AsyncLocalStorage for the
 * request's duration, so code deeper down (storing a submission) can record it and the scoring
 * job's log lines carry it.
 *
 * Never logged: passwords, tokens, cookies, keys, authorization headers (fields so named are
 * replaced by `[redacted]`) and query strings (only the path is logged).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'

export type LogFormat = 'json' | 'text'
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

/** Field names whose values are never written. */
const SECRET = /pass(word)?|token|cookie|secret|key|authori[sz]ation|csrf|session/i

/** A sane incoming request id: 1 to 64 of letters, digits and `._:-`. */
export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/

/** The request id of the request being handled (undefined outside a request). */
const current = new AsyncLocalStorage<{ readonly requestId: string }>()

/** The request id of the request this code runs for, if any. */
export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId
}

/** A request id for a header value: the value when sane, else a new random one. */
export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && REQUEST_ID.test(header) ? header : randomUUID()
}

/** Writes log lines (to stderr unless told otherwise). */
export class Logger {
  constructor(
    readonly format: LogFormat = 'json',
    private readonly out: (line: string) => void = (l) => {
      process.stderr.write(l)
    },
  ) {}

  log(level: LogLevel, msg: string, fields: Readonly<Record<string, unknown>> = {}): void {
    const safe: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(fields)) {
      if (v === undefined) continue
      safe[k] = SECRET.test(k) ? '[redacted]' : v
    }
    const requestId = safe.requestId ?? currentRequestId()
    const record = {
      ts: new Date().toISOString(),
      level,
      msg,
      ...(requestId !== undefined ? { requestId } : {}),
      ...safe,
    }
    if (this.format === 'json') {
      this.out(`${JSON.stringify(record)}\n`)
      return
    }
    const rest = Object.entries(record)
      .filter(([k]) => k !== 'ts' && k !== 'level' && k !== 'msg')
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ')
    this.out(`${record.ts} ${level} ${msg}${rest ? ` ${rest}` : ''}\n`)
  }

  info(msg: string, fields?: Readonly<Record<string, unknown>>): void {
    this.log('info', msg, fields)
  }

  warn(msg: string, fields?: Readonly<Record<string, unknown>>): void {
    this.log('warn', msg, fields)
  }

  error(msg: string, fields?: Readonly<Record<string, unknown>>): void {
    this.log('error', msg, fields)
  }
}

/** Parse a `--log-format` value (undefined: json, whatever the terminal). */
export function parseLogFormat(value: string | undefined): LogFormat {
  if (value === undefined || value === 'json') return 'json'
  if (value === 'text') return 'text'
  throw new Error(`--log-format: expected json or text, not '${value}'`)
}

/**
 * The request-id middleware (first of all): sets `X-Request-Id` on the response, runs the rest of
 * the request with its id in {@link currentRequestId}, and writes one `request` line when done
 * (method, path without the query string, status, milliseconds).
 */
export function requestLog<E extends { Variables: { requestId: string } }>(
  log: Logger,
): MiddlewareHandler<E> {
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'))
    c.set('requestId', requestId)
    const started = performance.now()
    await current.run({ requestId }, () => next())
    c.res.headers.set('X-Request-Id', requestId)
    const status = c.res.status
    log.log(status >= 500 ? 'error' : 'info', 'request', {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    })
  }
}
