/**
 * The spot-validation pages: the rater's item page (conversation, passages, response, the
 * rubric of each dimension with a 1–5 choice), and the organizer's pages (raters, samples,
 * agreement, downloads, disclosure). Every value is escaped by `h`; no inline script or style.
 * The rater page never shows judge scores, teams, submissions or other raters' choices.
 */
import {
  AGREEMENT_STATISTIC_LABELS,
  AGREEMENT_STATISTICS,
  type AgreementStatistic,
  formatFixed,
  type JudgeAgreementResult,
  type JudgeConfig,
  type JudgeItem,
} from '../../internal.js'
import type { Competition } from '../config/load.js'
import { h, type SafeHtml } from '../web/html.js'
import type { AgreementOutcome } from './results.js'
import { FILES } from './results.js'
import type { SampleData } from './store.js'

const f4 = (v: number | null): string => (v === null ? '-' : formatFixed(v === 0 ? 0 : v, 4))
const signed = (v: number | null): string => (v === null ? '-' : `${v >= 0 ? '+' : ''}${f4(v)}`)

/** A statistic's value as `judge agreement` prints it (4 decimals; nan / undefined spelled out). */
export function statText(name: string, s: AgreementStatistic): string {
  if (s.status !== 'ok') return s.status
  return name === 'meanBias' ? signed(s.value) : f4(s.value)
}

/** A statistic's CI as `judge agreement` prints it. */
export function ciText(name: string, s: AgreementStatistic): string {
  if (!s.ci) return ''
  if (s.ci.lower === null) return 'none (every resample undefined)'
  const fmt = name === 'meanBias' ? signed : f4
  return `[${fmt(s.ci.lower)}, ${fmt(s.ci.upper)}]`
}

/** The rater's page for one item. */
export function rateBody(o: {
  assignmentId: string
  item: JudgeItem
  config: JudgeConfig
  scores: Readonly<Record<string, number>>
  skipReason: string | null
  index: number
  total: number
  done: number
  prev: string | null
  next: string | null
  csrf: string
}): SafeHtml {
  const maxP = o.config.limits.maxPassages
  const passages = maxP > 0 ? o.item.passages.slice(0, maxP) : o.item.passages
  const roleName = (r: string): string =>
    r === 'user' ? 'User' : r === 'assistant' ? 'Assistant' : 'System'
  const history = o.item.history.length
    ? h`<ol class="history">${o.item.history.map((m) => h`<li><strong>${roleName(m.role)}:</strong> <span class="text">${m.content}</span></li>`)}</ol>`
    : h`<p>(no earlier turns)</p>`
  const passageList = passages.length
    ? h`<ol class="passages">${passages.map((p) => h`<li>${p.id ? h`<span class="tag">${p.id}</span> ` : ''}<span class="text">${p.text}</span></li>`)}</ol>`
    : h`<p>(no passages)</p>`
  const action = `/rate/${encodeURIComponent(o.assignmentId)}`
  const dims = o.config.dimensions.map(
    (d, i) =>
      h`<fieldset class="dimension" data-dimension="${d.name}" id="dim-${d.name}"><legend>${i + 1}. ${d.name}: ${d.question}</legend><ol class="rubric">${d.rubric.map(
        (anchor, k) =>
          h`<li><label><input type="radio" name="${d.name}" value="${k + 1}"${o.scores[d.name] === k + 1 ? h` checked` : ''}> <strong>${k + 1}</strong> ${anchor}</label></li>`,
      )}</ol></fieldset>`,
  )
  const link = (id: string | null, label: string, rel: string) =>
    id
      ? h`<a href="/rate/${encodeURIComponent(id)}" rel="${rel}" id="${rel}-item">${label}</a>`
      : h`<span>${label}</span>`
  return h`<p class="progress" id="progress">Item ${o.index + 1} of ${o.total} · <span id="done-count">${o.done}</span> done</p><p>${link(o.prev, '← Previous item (p)', 'prev')} · ${link(o.next, 'Next item (n) →', 'next')}</p>${o.skipReason !== null ? h`<p class="notice">You skipped this item: ${o.skipReason}. Choosing a score un-skips it.</p>` : ''}<h2>Conversation so far</h2>${history}<h2>Question</h2><p class="text">${o.item.question}</p><h2>Passages</h2>${passageList}<h2>Response</h2><div class="response text">${o.item.answer ?? ''}</div><h2>Your ratings</h2><p class="keys">Keys: <kbd>1</kbd>–<kbd>5</kbd> choose for the highlighted dimension (then the next one is highlighted), <kbd>j</kbd>/<kbd>↓</kbd> and <kbd>k</kbd>/<kbd>↑</kbd> next and previous dimension, <kbd>n</kbd>/<kbd>p</kbd> next and previous item, <kbd>s</kbd> skip with a reason. Each choice is saved at once.</p><form method="post" action="${action}" id="rate-form"><input type="hidden" name="_csrf" value="${o.csrf}">${dims}<p><button type="submit">Save and go to the next item</button></p></form><p id="autosave" role="status" aria-live="polite"></p><form method="post" action="${action}/skip" id="skip-form"><input type="hidden" name="_csrf" value="${o.csrf}"><p><label for="skip-reason">Skip this item, because</label> <input id="skip-reason" name="reason" required maxlength="500" size="40"> <button type="submit">Skip</button></p></form>`
}

/** The rater's page once every item is done (or none is assigned). */
export function rateDoneBody(total: number, first: string | null): SafeHtml {
  return total === 0
    ? h`<p>No items are assigned to you yet.</p>`
    : h`<p>All ${total} of your items are done. Thank you.</p>${first ? h`<p><a href="/rate/${encodeURIComponent(first)}">Review your items from the first one</a>.</p>` : ''}`
}

/** The rater invite form. */
export function raterInviteBody(action: string, csrf: string, error?: string): SafeHtml {
  return h`<p>You are invited to rate generated answers for human spot validation of the LLM judge.</p>${error ? h`<p class="error" role="alert">${error}</p>` : ''}<form method="post" action="${action}"><input type="hidden" name="_csrf" value="${csrf}"><p><label for="name">Your name</label> <input id="name" name="name" autocomplete="username" required></p><p><label for="password">Password (at least 10 characters)</label> <input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required></p><p><button type="submit">Become a rater</button></p></form>`
}

/** The organizer's spot-validation overview. */
export function validationBody(o: {
  competition: Competition
  csrf: string
  raters: { id: string; name: string; assigned: number; done: number }[]
  pools: { track: string; phase: string; configHash: string; items: number }[]
  samples: {
    id: string
    track: string
    phase: string
    size: number
    seed: number
    doubleShare: number
    createdAt: string
    assignments: number
    done: number
  }[]
  invite?: string
  notice?: string
}): SafeHtml {
  const csrf = h`<input type="hidden" name="_csrf" value="${o.csrf}">`
  return h`${o.notice ? h`<p class="notice" role="status">${o.notice}</p>` : ''}<p>Human spot validation of the LLM judge: draw a stratified sample of judged (turn, submission) items, have raters rate them on the judge's rubric, and compare (<code>trecscore judge agreement</code>).</p><h2>Raters</h2>${o.invite ? h`<p class="notice" role="status">Rater invite link (single use, shown once): <code id="rater-invite">${o.invite}</code></p>` : ''}<table><thead><tr><th scope="col">Rater</th><th scope="col">Assigned</th><th scope="col">Done</th></tr></thead><tbody>${o.raters.length ? o.raters.map((r) => h`<tr><td>${r.name}</td><td class="num">${r.assigned}</td><td class="num">${r.done}</td></tr>`) : h`<tr><td colspan="3">No raters yet.</td></tr>`}</tbody></table><form method="post" action="/org/validation/raters">${csrf}<p><button type="submit">Invite a rater</button></p></form><h2>Judged items</h2><table><thead><tr><th scope="col">Track</th><th scope="col">Phase</th><th scope="col">Judge config</th><th scope="col">Items</th></tr></thead><tbody>${o.pools.length ? o.pools.map((p) => h`<tr><td>${p.track}</td><td>${p.phase}</td><td><code>${p.configHash.slice(0, 12)}</code></td><td class="num">${p.items}</td></tr>`) : h`<tr><td colspan="4">No judged items yet.</td></tr>`}</tbody></table><h2>Draw a sample</h2><form method="post" action="/org/validation/samples">${csrf}<p><label for="s-track">Track</label> <select id="s-track" name="track">${o.competition.tracks.map((t) => h`<option value="${t.id}">${t.title}</option>`)}</select> <label for="s-phase">Phase</label> <select id="s-phase" name="phase">${o.competition.phases.map((p) => h`<option value="${p.id}">${p.id}</option>`)}</select></p><p><label for="s-size">Sample size</label> <input id="s-size" name="size" type="number" min="1" required value="50"> <label for="s-seed">Seed</label> <input id="s-seed" name="seed" type="number" min="0" max="4294967295" required value="42"> <label for="s-double">Double-annotated share</label> <input id="s-double" name="doubleShare" type="number" min="0" max="1" step="0.05" required value="0.2"></p><p><button type="submit">Draw the sample</button></p></form><h2>Samples</h2><table><thead><tr><th scope="col">Sample</th><th scope="col">Track</th><th scope="col">Phase</th><th scope="col">Size</th><th scope="col">Seed</th><th scope="col">Double share</th><th scope="col">Assignments done</th><th scope="col">Drawn (UTC)</th></tr></thead><tbody>${o.samples.length ? o.samples.map((s) => h`<tr><td><a href="/org/validation/samples/${encodeURIComponent(s.id)}">${s.id}</a></td><td>${s.track}</td><td>${s.phase}</td><td class="num">${s.size}</td><td class="num">${s.seed}</td><td class="num">${s.doubleShare}</td><td class="num">${s.done} / ${s.assignments}</td><td><time>${s.createdAt}</time></td></tr>`) : h`<tr><td colspan="8">No samples yet.</td></tr>`}</tbody></table>`
}

function agreementTable(id: string, r: JudgeAgreementResult): SafeHtml {
  const dims = r.report.dimensions
  const pairing = h`<table id="${id}-pairs"><thead><tr><th scope="col">Dimension</th><th scope="col">Pairs</th><th scope="col">Turns</th><th scope="col">Invalid</th><th scope="col">Missing</th><th scope="col">No judgment</th></tr></thead><tbody>${r.pairing.dimensions.map((p) => h`<tr><td>${p.dimension}</td><td class="num">${p.pairs}</td><td class="num">${p.pairedTurns}</td><td class="num">${p.unpairedInvalid}</td><td class="num">${p.unpairedMissing}</td><td class="num">${p.unpairedNoJudgment}</td></tr>`)}</tbody></table>`
  if (!dims.length) return h`${pairing}<p>No pairs yet.</p>`
  const b = r.report.bootstrap
  return h`${pairing}<table class="board" id="${id}"><thead><tr><th scope="col">Statistic</th>${dims.map((d) => h`<th scope="col" colspan="2">${d.dimension} (n = ${d.n})</th>`)}</tr></thead><tbody>${AGREEMENT_STATISTICS.map(
    (name) =>
      h`<tr data-statistic="${name}"><th scope="row">${AGREEMENT_STATISTIC_LABELS[name]}</th>${dims.map((d) => h`<td class="num" data-dimension="${d.dimension}" data-part="value">${statText(name, d.statistics[name])}</td><td class="num" data-dimension="${d.dimension}" data-part="ci">${ciText(name, d.statistics[name])}</td>`)}</tr>`,
  )}</tbody></table><p>Intervals: ${Number((b.confidence * 100).toPrecision(12))}% ${b.method}; ${b.resamples} resamples, seed ${b.seed}.</p>`
}

function outcome(id: string, a: AgreementOutcome): SafeHtml {
  return a.ok ? agreementTable(id, a.result) : h`<p id="${id}">No agreement yet: ${a.why}</p>`
}

/** One sample's page: design, strata, progress, agreement, downloads. */
export function sampleBody(o: {
  d: SampleData
  model: string
  strata: {
    domain: string | null
    depth: string
    submission: string
    drawn: number
    pool: number
  }[]
  judgeHuman: AgreementOutcome
  humanHuman: AgreementOutcome
}): SafeHtml {
  const s = o.d.sample
  const base = `/org/validation/samples/${encodeURIComponent(s.id)}`
  const items = new Set(o.d.assignments.map((a) => a.item_id)).size
  const doubled = new Set(o.d.assignments.filter((a) => a.slot === 2).map((a) => a.item_id)).size
  const perRater = o.d.raters
    .map((r) => {
      const mine = o.d.assignments.filter((a) => a.rater_id === r.id)
      return {
        ...r,
        assigned: mine.length,
        rated: mine.filter((a) => a.skip_reason === null && a.scores.length === 5).length,
        skipped: mine.filter((a) => a.skip_reason !== null).length,
      }
    })
    .filter((r) => r.assigned > 0)
  const skips = o.d.assignments.filter((a) => a.skip_reason !== null)
  const dl = (file: string, label: string) => h`<a href="${base}/${file}" download>${label}</a>`
  return h`<p>Track ${s.track}, phase ${s.phase}: ${items} items drawn (size ${s.size}, seed ${s.seed}), stratified by domain, turn depth and submission (largest-remainder allocation); ${doubled} item(s) (share ${s.double_share}) double-annotated. Judge config <code>${s.config_hash}</code> (${o.model}).</p><h2>Downloads</h2><ul><li>${dl(FILES.humanLabels, 'Human labels')} (<code>judge agreement --human</code>)</li><li>${dl(FILES.judgments, 'Judge judgments of the sampled items')} (<code>--judgments</code>)</li><li>${dl(FILES.humanA, 'First raters of the double-annotated share')} and ${dl(FILES.humanB, 'second raters, as judgments')}</li><li>${dl(FILES.config, 'The frozen judge config')}</li><li><a href="${base}/disclosure">Disclosure report</a> (${dl(FILES.disclosureMd, 'markdown')}, ${dl(FILES.disclosureJson, 'JSON')})</li></ul><h2>Agreement: judge against human</h2>${outcome('judge-human', o.judgeHuman)}<h2>Agreement: human against human (double-annotated share)</h2>${outcome('human-human', o.humanHuman)}<h2>Progress</h2><table id="progress-table"><thead><tr><th scope="col">Rater</th><th scope="col">Assigned</th><th scope="col">Rated</th><th scope="col">Skipped</th></tr></thead><tbody>${perRater.map((r) => h`<tr><td>${r.name} (${r.alias})</td><td class="num">${r.assigned}</td><td class="num">${r.rated}</td><td class="num">${r.skipped}</td></tr>`)}</tbody></table>${skips.length ? h`<h3>Skipped items</h3><ul>${skips.map((a) => h`<li><code>${a.exportedTurn}</code> by ${a.alias}: ${a.skip_reason}</li>`)}</ul>` : ''}<h2>Strata</h2><table id="strata"><thead><tr><th scope="col">Domain</th><th scope="col">Turn depth</th><th scope="col">Submission</th><th scope="col">Drawn</th><th scope="col">Judged items now</th></tr></thead><tbody>${o.strata.map((x) => h`<tr><td>${x.domain ?? '—'}</td><td>${x.depth}</td><td><code>${x.submission}</code></td><td class="num">${x.drawn}</td><td class="num">${x.pool}</td></tr>`)}</tbody></table>`
}

/** The disclosure report page: the markdown `judge report` writes, shown as text. */
export function disclosureBody(base: string, markdown: string): SafeHtml {
  return h`<p>The disclosure report of this sample, as <code>trecscore judge report ${FILES.judgments} --human ${FILES.humanLabels} --config ${FILES.config}</code> writes it on the downloads, followed by the sample's design, strata, raters, skips and human-against-human agreement: <a href="${base}/${FILES.disclosureMd}" download>markdown</a> · <a href="${base}/${FILES.disclosureJson}" download>JSON</a> · <a href="${base}">back to the sample</a>.</p><pre class="report" id="disclosure">${markdown}</pre>`
}
