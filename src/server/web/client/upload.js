// The upload forms' script (no inline script: the CSP forbids it). For each form marked
// data-validate, choosing a file runs the server's own validator in a Web Worker
// (/static/validate-worker.js) and lists every problem, with its line number, exactly as the
// server and `trecscore validate` word it; the submit button stays disabled while a run has
// errors, so nothing is sent and no quota is spent. Without JavaScript the form works as before
// and the server validates (it always validates again).
import { formatFixed } from '../../../report/printf.ts'

for (const form of document.querySelectorAll('form[data-validate]')) {
  const input = form.querySelector('input[type=file]')
  const button = form.querySelector('button[type=submit]')
  const out = document.createElement('div')
  out.className = 'validation'
  out.setAttribute('role', 'status')
  out.setAttribute('aria-live', 'polite')
  form.append(out)
  let worker = null
  const show = (text, kind) => {
    out.replaceChildren()
    const p = document.createElement('p')
    p.className = kind
    p.textContent = text
    out.append(p)
    return p
  }
  input.addEventListener('change', () => {
    worker?.terminate()
    worker = null
    const file = input.files?.[0]
    if (!file) {
      out.replaceChildren()
      button.disabled = false
      return
    }
    button.disabled = true
    show(`Checking ${file.name} in your browser (nothing is sent yet)…`, 'notice')
    worker = new Worker('/static/validate-worker.js', { type: 'module' })
    worker.addEventListener('message', (event) => {
      const m = event.data
      if (m.type === 'progress') {
        show(
          `Checking ${file.name}: ${Math.round(m.bytes / 1048576)} MiB of ${Math.round(m.total / 1048576)} MiB read…`,
          'notice',
        )
        return
      }
      worker?.terminate()
      worker = null
      if (m.type === 'error') {
        // The check itself failed (an old browser): the server still validates on upload.
        show(
          `Could not check the file in the browser (${m.message}); the server will check it on upload.`,
          'notice',
        )
        button.disabled = false
        return
      }
      const p = show(
        m.ok
          ? `No errors in ${file.name}${m.warnings ? ` (${m.warnings} warning(s), listed below)` : ''}: you can submit it.`
          : `${m.errors} error(s) in ${file.name}: fix them before submitting; nothing was sent and no quota was spent.`,
        m.ok ? 'notice' : 'error',
      )
      p.dataset.errors = String(m.errors)
      const pre = document.createElement('pre')
      pre.className = 'report'
      pre.textContent = m.text
      out.append(pre)
      button.disabled = !m.ok
    })
    worker.postMessage({
      file,
      name: file.name,
      maxLineBytes: Number(form.dataset.maxLineBytes),
      maxDecompressedBytes: Number(form.dataset.maxDecompressedBytes),
      topics: form.dataset.topics ? JSON.parse(form.dataset.topics) : undefined,
    })
  })
}

// Live states on the team page: while a submission is queued or scoring, poll the team's own
// submissions (GET /api/v1/submissions, this session) every 3 s and update its state, reason
// and primary value in place; stop once nothing is pending. Without JavaScript: reload.
const pending = () =>
  [...document.querySelectorAll('td[data-submission]')].filter((td) =>
    /^(queued|scoring)/.test(td.textContent ?? ''),
  )
// As the server prints it (printf rounding, ties to even), not toFixed.
const fixed = (v) => (typeof v === 'number' && Number.isFinite(v) ? formatFixed(v, 4) : '—')
async function poll() {
  if (!pending().length) return
  try {
    const r = await fetch('/api/v1/submissions', {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    })
    if (r.ok) {
      const { submissions } = await r.json()
      for (const s of submissions) {
        const td = document.querySelector(`td[data-submission="${CSS.escape(s.id)}"]`)
        if (!td) continue
        const text = s.reason ? `${s.state}: ${s.reason}` : s.state
        if (td.textContent !== text) {
          td.textContent = text
          td.className = `state-${s.state}`
        }
        const p = document.querySelector(`td[data-primary="${CSS.escape(s.id)}"]`)
        if (p && s.primary !== null) p.textContent = fixed(s.primary)
      }
    }
  } catch {
    // offline for a moment: try again at the next tick
  }
  if (pending().length) setTimeout(poll, 3000)
}
if (pending().length) setTimeout(poll, 3000)
