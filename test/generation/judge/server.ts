/**
 * A scripted OpenAI-compatible Chat Completions server on 127.0.0.1 for the judge tests. Each
 * request is answered by `script(request)`, which sees the parsed body, the user message, how
 * many times this exact body was received before (`seen`) and the request number. It counts
 * requests per sha256 of the exact body, so tests can assert that nothing finished is re-asked.
 */
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the server does with one request. */
export type Action =
  | { kind: 'score'; score: unknown; rationale?: string; finish?: string }
  | { kind: 'content'; content: string | null; finish?: string; refusal?: string }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'destroy' }
  | { kind: 'delay'; ms: number; then: Action }
  | { kind: 'hang' }

/** One request as the script sees it. */
export interface ScriptRequest {
  readonly body: Record<string, unknown>
  readonly user: string
  readonly hash: string
  /** Times this exact body arrived before this one. */
  readonly seen: number
  /** 1-based number of this request. */
  readonly n: number
}

export interface ScriptedServer {
  readonly url: string
  readonly counts: Map<string, number>
  /** Bodies of requests that got a 200 answer, by hash, with how many times. */
  readonly answered: Map<string, number>
  readonly log: ScriptRequest[]
  total(): number
  close(): Promise<void>
  /** Call `f` on every request as it arrives (before it is answered). */
  setOnRequest(f: ((r: ScriptRequest) => void) | null): void
}

function completion(content: string | null, finish = 'stop', refusal?: string): string {
  return JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 0,
    model: 'scripted-judge-2026-01-01',
    system_fingerprint: 'fp_test',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, ...(refusal ? { refusal } : {}) },
        finish_reason: finish,
      },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  })
}

/** Start a server answering with `script`. */
export async function startServer(script: (r: ScriptRequest) => Action): Promise<ScriptedServer> {
  const counts = new Map<string, number>()
  const answered = new Map<string, number>()
  const log: ScriptRequest[] = []
  let n = 0
  const state: { onRequest?: (r: ScriptRequest) => void } = {}
  const act = (a: Action, res: ServerResponse, req: IncomingMessage, hash: string): void => {
    switch (a.kind) {
      case 'delay': {
        const t = setTimeout(() => act(a.then, res, req, hash), a.ms)
        res.on('close', () => clearTimeout(t))
        return
      }
      case 'hang':
        return
      case 'destroy':
        req.socket.destroy()
        return
      case 'status':
        res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) })
        res.end(a.body ?? JSON.stringify({ error: { message: `scripted ${a.status}` } }))
        return
      case 'score':
        answered.set(hash, (answered.get(hash) ?? 0) + 1)
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          completion(
            JSON.stringify({ rationale: a.rationale ?? 'scripted', score: a.score }),
            a.finish,
          ),
        )
        return
      case 'content':
        answered.set(hash, (answered.get(hash) ?? 0) + 1)
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(completion(a.content, a.finish, a.refusal))
        return
    }
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const hash = createHash('sha256').update(raw).digest('hex')
      const seen = counts.get(hash) ?? 0
      counts.set(hash, seen + 1)
      let body: Record<string, unknown> = {}
      try {
        body = JSON.parse(raw) as Record<string, unknown>
      } catch {
        body = {}
      }
      const messages = (body['messages'] as { role: string; content: string }[] | undefined) ?? []
      const user = messages.find((m) => m.role === 'user')?.content ?? ''
      const r: ScriptRequest = { body, user, hash, seen, n: ++n }
      log.push(r)
      state.onRequest?.(r)
      act(script(r), res, req, hash)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const s: ScriptedServer = {
    url: `http://127.0.0.1:${port}/v1`,
    counts,
    answered,
    log,
    total: () => n,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    setOnRequest(f) {
      if (f) state.onRequest = f
      else delete state.onRequest
    },
  }
  return s
}

/** The answer shown to the judge in a user message (the text after "Answer to judge:"). */
export function answerOf(user: string): string {
  const m = /Answer to judge:\n([\s\S]*?)\n\nRubric/.exec(user)
  return m ? m[1]! : ''
}

/** The dimension a request asks about (the shipped prompts start "Dimension: NAME."). */
export function dimOf(user: string): string {
  return (
    /^Dimension: ([A-Z ]+)\./.exec(user)?.[1]?.toLowerCase().replace('conversational ', '') ?? '?'
  )
}
