// The rater page's script (served as /static/rate.js; the CSP allows only same-origin scripts).
// Each 1-5 choice is saved at once (autosave, POST /rate/:id/score with the page's CSRF token).
// Keys: 1-5 choose for the highlighted dimension and highlight the next, j / ArrowDown and
// k / ArrowUp move between dimensions, n / p go to the next / previous item, s focuses the skip
// reason. Without this script the page's form posts every choice at once.
const form = document.getElementById('rate-form')
if (form) {
  const csrf = form.querySelector('input[name="_csrf"]').value
  const status = document.getElementById('autosave')
  const done = document.getElementById('done-count')
  const dims = [...form.querySelectorAll('fieldset.dimension')]
  let current = Math.max(
    0,
    dims.findIndex((f) => !f.querySelector('input:checked')),
  )
  const pending = new Set()
  const highlight = (i) => {
    current = Math.min(Math.max(i, 0), dims.length - 1)
    dims.forEach((f, k) => {
      f.classList.toggle('current', k === current)
    })
    dims[current].scrollIntoView({ block: 'nearest' })
  }
  const save = (dimension, score) => {
    status.textContent = `Saving ${dimension} = ${score}…`
    const p = fetch(`${form.action}/score`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrf },
      body: new URLSearchParams({ dimension, score: String(score) }),
    })
      .then(async (r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status}`)
        const j = await r.json()
        status.textContent = `Saved ${dimension} = ${score} (${j.rated} of ${dims.length} dimensions of this item)`
        status.dataset.saved = String(j.rated)
        if (done) done.textContent = String(j.done)
      })
      .catch((e) => {
        status.textContent = `Not saved (${e.message}): choose again or use the Save button`
      })
      .finally(() => pending.delete(p))
    pending.add(p)
  }
  form.addEventListener('change', (e) => {
    const input = e.target
    if (input instanceof HTMLInputElement && input.type === 'radio') {
      save(input.name, input.value)
      highlight(dims.findIndex((f) => f.contains(input)))
    }
  })
  const go = (id) => {
    const a = document.getElementById(id)
    if (a instanceof HTMLAnchorElement)
      Promise.allSettled([...pending]).then(() => {
        window.location.href = a.href
      })
  }
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return
    const t = e.target
    if (t instanceof HTMLInputElement && t.type !== 'radio') return
    if (t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return
    const k = e.key
    if (k >= '1' && k <= '5') {
      const input = dims[current].querySelector(`input[value="${k}"]`)
      if (input && !input.checked) {
        input.checked = true
        save(input.name, input.value)
      }
      highlight(current + 1)
    } else if (k === 'j' || k === 'ArrowDown') highlight(current + 1)
    else if (k === 'k' || k === 'ArrowUp') highlight(current - 1)
    else if (k === 'n') go('next-item')
    else if (k === 'p') go('prev-item')
    else if (k === 's') document.getElementById('skip-reason').focus()
    else return
    e.preventDefault()
  })
  highlight(current)
}
