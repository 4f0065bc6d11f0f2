/**
 * Middleware every request passes: security headers (CSP without inline script, no framing),
 * who the viewer is (session cookie, or a Bearer token on /api), and the CSRF check on every
 * state-changing request that is not authenticated by a token.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { viewerOfSession, viewerOfToken } from '../auth/accounts.js'
import type { ServerContext, Viewer } from '../context.js'

/** Hono's typing of our context variables. */
export interface Env {
  Variables: {
    viewer: Viewer
    csrf: string
    tokenId: string | null
    requestId: string
    /** The client's address and the origin it sees (see {@link clientView}). */
    client: { readonly ip: string; readonly origin: string }
  }
}

export const SESSION_COOKIE = 'trecscore_session'
/** The CSRF token of a visitor without a session (double-submit cookie for sign-in and invite forms). */
export const PRE_CSRF_COOKIE = 'trecscore_csrf'

export const CSP =
  "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

/** Security headers on every response. */
export function securityHeaders(): MiddlewareHandler<Env> {
  return async (c, next) => {
    await next()
    c.res.headers.set('Content-Security-Policy', CSP)
    c.res.headers.set('X-Content-Type-Options', 'nosniff')
    c.res.headers.set('X-Frame-Options', 'DENY')
    // same-origin, not no-referrer: under no-referrer browsers send `Origin: null` on every form post, which the CSRF check refuses (found by the browser test).
    c.res.headers.set('Referrer-Policy', 'same-origin')
    c.res.headers.set('Cache-Control', 'no-store')
  }
}

/** Cookie options: HttpOnly, SameSite=Strict, Path=/ (Secure behind HTTPS). */
export function cookieOptions(
  ctx: ServerContext,
  maxAgeSeconds: number,
): Parameters<typeof setCookie>[3] {
  return {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure: ctx.secureCookies,
    maxAge: maxAgeSeconds,
  }
}

function socketAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)
    ?.incoming
  return incoming?.socket?.remoteAddress ?? 'local'
}

/**
 * Who the client is, set once per request: its address (per-IP rate limits, /metrics) and the
 * origin its browser sees (the CSRF Origin check). Without `trustProxy` both come from the
 * connection (the socket's address; the scheme and Host of the request). With it (behind a
 * reverse proxy that sets these headers, `serve --trust-proxy`) the address is the last entry of
 * `X-Forwarded-For` (the one the proxy saw; entries a client sent come before it) and the scheme
 * is `X-Forwarded-Proto`'s. Only for a server that nothing but the proxy can reach.
 */
export function clientView(trustProxy: boolean): MiddlewareHandler<Env> {
  return async (c, next) => {
    const url = new URL(c.req.url)
    let ip = socketAddress(c)
    let origin = url.origin
    if (trustProxy) {
      const forwarded = (c.req.header('x-forwarded-for') ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
      ip = forwarded.at(-1) ?? ip
      const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim()
      if (proto === 'https' || proto === 'http') origin = `${proto}://${url.host}`
    }
    c.set('client', { ip, origin })
    await next()
  }
}

/** The client's address, for per-IP rate limits ('local' for in-process requests). */
export function clientIp(c: Context<Env>): string {
  return c.get('client')?.ip ?? socketAddress(c)
}

/** Resolve the viewer and the CSRF token of this request. */
export function identify(ctx: ServerContext): MiddlewareHandler<Env> {
  return async (c, next) => {
    let viewer: Viewer = { kind: 'anonymous' }
    let tokenId: string | null = null
    const auth = c.req.header('authorization')
    if (auth !== undefined && c.req.path.startsWith('/api/')) {
      const m = /^Bearer\s+(\S+)$/.exec(auth)
      const v = m ? await viewerOfToken(ctx.db, m[1]!) : { kind: 'anonymous' as const }
      if (v.kind === 'anonymous') return c.json({ error: 'invalid or revoked API token' }, 401)
      tokenId = v.tokenId ?? null
      viewer = v
    } else {
      const cookie = getCookie(c, SESSION_COOKIE)
      if (cookie) viewer = await viewerOfSession(ctx.db, cookie, ctx.now())
    }
    let csrf =
      viewer.kind !== 'anonymous' && viewer.csrf !== null
        ? viewer.csrf
        : (getCookie(c, PRE_CSRF_COOKIE) ?? '')
    if (
      viewer.kind === 'anonymous' &&
      !csrf &&
      (c.req.method === 'GET' || c.req.method === 'HEAD')
    ) {
      csrf = randomBytes(24).toString('base64url')
      setCookie(c, PRE_CSRF_COOKIE, csrf, cookieOptions(ctx, 3600 * 12))
    }
    c.set('viewer', viewer)
    c.set('csrf', csrf)
    c.set('tokenId', tokenId)
    await next()
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * Refuse a state-changing request (anything but GET/HEAD) that is not authenticated by an
 * API token unless it carries the CSRF token (header `x-csrf-token`, query `_csrf`, or form
 * field `_csrf`) and, when it sends an Origin, comes from this origin.
 */
export function csrfCheck(): MiddlewareHandler<Env> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
    const v = c.get('viewer')
    if (v.kind === 'member' && v.via === 'token') return next()
    const origin = c.req.header('origin')
    const refused = (): Response =>
      c.text('refused: missing or wrong CSRF token (reload the page and try again)', 403)
    const own = c.get('client')?.origin ?? new URL(c.req.url).origin
    if (origin !== undefined && origin !== own) return refused()
    const expected = c.get('csrf')
    let given = c.req.header('x-csrf-token') ?? c.req.query('_csrf')
    if (
      given === undefined &&
      (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')
    ) {
      const body = await c.req.parseBody()
      given = typeof body['_csrf'] === 'string' ? body['_csrf'] : undefined
    }
    if (!expected || given === undefined || !same(given, expected)) return refused()
    return next()
  }
}
