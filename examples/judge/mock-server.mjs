#!/usr/bin/env node
// A stand-in OpenAI-compatible judge for trying `trecscore judge` without a model:
// POST /v1/chat/completions answers {"rationale", "score"} from a crude word-overlap heuristic
// (how many of the answer's content words appear in the evidence the prompt shows). It is NOT
// a judge; it only makes the pipeline, cache, reports and calibration runnable offline.
//
//   node examples/judge/mock-server.mjs [--port 8089] [--reject-json-schema]
//
// --reject-json-schema answers 400 to requests carrying response_format, as some servers do,
// so you can see the strict-parser fallback reported.
import { createServer } from 'node:http'

const args = process.argv.slice(2)
const port = Number(args[args.indexOf('--port') + 1] || 8089) || 8089
const rejectSchema = args.includes('--reject-json-schema')
let requests = 0

const STOP = new Set('a an the and or but of to in on at for with by from is are was were be been it its this that these those as not no yes so if then than you your i we they he she do does did can could should would will about into over more most some any all very also just only'.split(' '))
const words = (t) => (t.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 2 && !STOP.has(w))
const section = (text, start, end) => {
  const i = text.indexOf(start)
  if (i < 0) return ''
  const j = end ? text.indexOf(end, i + start.length) : -1
  return text.slice(i + start.length, j < 0 ? undefined : j)
}

function judge(user) {
  const dim = (/^Dimension: ([A-Z ]+)\./.exec(user)?.[1] ?? '').toLowerCase()
  const answer = section(user, 'Answer to judge:\n', '\n\nRubric')
  const evidence =
    dim === 'faithfulness' ? section(user, 'Passages:\n', '\n\nAnswer to judge:')
    : dim === 'correctness' || dim === 'completeness' ? section(user, 'Reference answer:\n', '\n\nAnswer to judge:')
    : section(user, 'Conversation so far:\n', '\n\nAnswer to judge:')
  const a = words(answer)
  const e = new Set(words(evidence))
  const ratio = a.length ? a.filter((w) => e.has(w)).length / a.length : 0
  const score = Math.max(1, Math.min(5, 1 + Math.round(4 * Math.min(1, ratio * 1.5))))
  return { rationale: `mock judge: ${Math.round(100 * ratio)}% of the answer's content words appear in the evidence for ${dim || 'this dimension'}`, score }
}

createServer((req, res) => {
  let raw = ''
  req.on('data', (c) => (raw += c))
  req.on('end', () => {
    requests++
    let body
    try {
      body = JSON.parse(raw)
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' })
      return res.end('{"error":{"message":"body is not JSON"}}')
    }
    if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      return res.end('{"error":{"message":"not found"}}')
    }
    if (rejectSchema && body.response_format) {
      res.writeHead(400, { 'content-type': 'application/json' })
      return res.end('{"error":{"message":"response_format is not supported"}}')
    }
    const user = (body.messages ?? []).find((m) => m.role === 'user')?.content ?? ''
    const content = JSON.stringify(judge(user))
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({
      id: `mock-${requests}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: `${body.model ?? 'mock'}-mock`, system_fingerprint: 'fp_mock',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: Math.ceil(raw.length / 4) + Math.ceil(content.length / 4) },
    }))
  })
}).listen(port, '127.0.0.1', () => process.stderr.write(`mock judge listening on http://127.0.0.1:${port}/v1\n`))
