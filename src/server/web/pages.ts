/**
 * The server-rendered pages: readable without JavaScript, no inline script or style (the CSP
 * forbids both), every value escaped by `h`. Each function returns a whole page or a fragment.
 */

import { formatP } from '../../internal.js'
import type { Board, BoardDiff, DiffSide } from '../board.js'
import type { Competition } from '../config/load.js'
import type { Viewer } from '../context.js'
import { h, num, type SafeHtml, when } from './html.js'

/** A whole page. */
export function layout(opts: {
  title: string
  competition: Competition
  viewer: Viewer
  csrf: string | null
  now: Date
  body: SafeHtml /** Pages with upload forms: load the browser check. */
  uploadScript?: boolean
  /** Another page script of /static (e.g. `rate.js`). */
  script?: string
}): string {
  const v = opts.viewer
  // A rater sees only the rating pages: no overview (it links the boards).
  const nav = h`<nav aria-label="main">${v.kind === 'rater' ? h`<a href="/rate">Rate</a>` : h`<a href="/">Overview</a>`}${v.kind === 'member' ? h` · <a href="/team">My team</a>` : ''}${v.kind === 'organizer' ? h` · <a href="/org">Organizer</a> · <a href="/org/validation">Spot validation</a>` : ''}${
    v.kind === 'anonymous'
      ? h` · <a href="/login">Sign in</a>`
      : h` · <form class="inline" method="post" action="/logout"><input type="hidden" name="_csrf" value="${opts.csrf ?? ''}"><button type="submit">Sign out ${v.name}</button></form>`
  }</nav>`
  return (
    '<!doctype html>' +
    h`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${opts.title} · ${opts.competition.name}</title><link rel="stylesheet" href="/static/style.css">${opts.uploadScript ? h`<script src="/static/upload.js" defer></script>` : ''}${opts.script ? h`<script src="/static/${opts.script}" defer></script>` : ''}</head><body><header><p class="site">${opts.competition.name}</p>${nav}<p class="clock">Server time: ${when(opts.now.toISOString(), opts.competition.timeDisplay)}</p></header><main><h1>${opts.title}</h1>${opts.body}</main></body></html>`
      .value
  )
}

/** The overview: tracks, phases with their windows, board links. */
export function overviewBody(c: Competition): SafeHtml {
  const phases = c.phases.map(
    (p) =>
      h`<tr><td>${p.title ?? p.id}</td><td>${when(p.start, c.timeDisplay)}</td><td>${when(p.end, c.timeDisplay)}</td><td>${p.hidden ? (p.release ? h`hidden until ${when(p.release, c.timeDisplay)} or release` : 'hidden until release') : 'live'}</td></tr>`,
  )
  const tracks = c.tracks.map(
    (t) =>
      h`<li><strong>${t.title}</strong> (${t.id}; ${t.preset ?? 'measures: ' + (t.measures ?? []).join(', ')}; ranked by ${t.primary}): ${c.phases.map((p) => h`<a href="/boards/${encodeURIComponent(t.id)}/${encodeURIComponent(p.id)}">${p.id} board</a> `)}</li>`,
  )
  return h`${c.description ? h`<p>${c.description}</p>` : ''}<h2>Phases</h2><table><thead><tr><th scope="col">Phase</th><th scope="col">Opens</th><th scope="col">Closes (submissions until before)</th><th scope="col">Scores</th></tr></thead><tbody>${phases}</tbody></table><h2>Tracks</h2><ul>${tracks}</ul>`
}

/** A board table. */
export function boardBody(b: Board, title: string): SafeHtml {
  if (!b.released)
    return h`<p>${title}: the ${b.phase} phase is hidden; its board is published when the organizers release it.</p>`
  const tiers = b.tierPolicy !== null
  const head = h`<tr><th scope="col">Rank</th><th scope="col">Team</th><th scope="col">Run</th>${b.columns.map((c) => h`<th scope="col">${c}${c === b.primary ? ' (primary)' : ''}</th>`)}${tiers ? h`<th scope="col">Tier</th><th scope="col">p vs above</th>` : ''}<th scope="col">Submitted (UTC)</th></tr>`
  const rows = b.entries.map(
    (e) =>
      h`<tr${e.baseline ? h` class="baseline"` : ''}><td>${e.rank}</td><td>${e.team}${e.baseline ? h` <span class="tag">baseline</span>` : ''}${e.anonymous ? h` <span class="tag">anonymous</span>` : ''}</td><td>${e.run ?? '—'}</td>${b.columns.map((c) => h`<td class="num">${num(e.columns[c])}</td>`)}${tiers ? h`<td>${tierCell(e.tier)}</td><td class="num">${pCell(e.pAbove)}</td>` : ''}<td><time>${e.submittedAt}</time></td></tr>`,
  )
  const api = `/api/v1/boards/${encodeURIComponent(b.track)}/${encodeURIComponent(b.phase)}`
  const counts =
    b.counts === 'best'
      ? "each team's best scored run counts"
      : b.counts === 'latest'
        ? "each team's latest scored run counts"
        : 'the run each team selected counts (its latest scored run until it selects one)'
  const qrels =
    b.qrelsVersion > 1
      ? h`<p>Scored against qrels version ${b.qrelsVersion}. <a href="/boards/${encodeURIComponent(b.track)}/${encodeURIComponent(b.phase)}/diff">Rank changes from version ${b.qrelsVersion - 1}</a>.</p>`
      : ''
  const pending =
    b.rescoring > 0
      ? h`<p class="notice" role="status">Re-scoring against the new qrels version: ${b.rescoring} submission(s) to go; until then some rows still show their previous score.</p>`
      : ''
  return h`<p>${title}, phase ${b.phase}. ${b.tiePolicy} One entry per team: ${counts}; anonymous teams are listed by an alias.</p>${qrels}${pending}<p>Export: <a href="${api}">JSON</a> · <a href="${api}/csv">CSV</a> · <a href="${api}/markdown">Markdown</a> · <a href="${api}/latex">LaTeX</a></p>${tiers ? h`<p>${b.tierPolicy}</p>` : ''}<table class="board"><thead>${head}</thead><tbody>${rows.length ? rows : h`<tr><td colspan="${b.columns.length + (tiers ? 6 : 4)}">No scored submissions yet.</td></tr>`}</tbody></table>${judgeTable(b)}${domainTable(b)}${turnDepthTable(b)}`
}

/** Judged tracks: the judge in force and each entry's tokens, cost, cache hits, invalid and missing judgments. */
function judgeTable(b: Board): SafeHtml | string {
  const j = b.judge
  if (!j) return ''
  const cell = (v: number | null | undefined): string =>
    typeof v === 'number' && Number.isInteger(v) ? String(v) : num(v, 6)
  const head = h`<tr><th scope="col">Rank</th><th scope="col">Team</th>${j.columns.map((c) => h`<th scope="col">${c}</th>`)}</tr>`
  const rows = b.entries.map(
    (e) =>
      h`<tr><td>${e.rank}</td><td>${e.team}</td>${j.columns.map((c) => h`<td class="num">${cell(e.columns[c])}</td>`)}</tr>`,
  )
  const policy =
    j.invalidPolicy === 'exclude'
      ? 'invalid and missing judgments are left out of the means (never averaged in silently: they are counted here)'
      : 'invalid and missing judgments count as the minimum score 1 (normalised 0), and are counted here'
  return h`<h2>Judge</h2><p>Judged by <code>${j.model}</code> under judge config ${j.configName} (judge_config_id <code>${j.configHash}</code>). Invalid policy: ${j.invalidPolicy}: ${policy}. Tokens and cost (${j.currency}) are those of the requests each submission sent; cache hits cost nothing.</p>${b.entries.length ? h`<table class="board"><thead>${head}</thead><tbody>${rows}</tbody></table>` : ''}`
}

/** RETECO Track 2: the primary measure per turn-depth bucket, one row per board entry. */
function turnDepthTable(b: Board): SafeHtml | string {
  if (!b.turnDepths.length || !b.entries.length) return ''
  const head = h`<tr><th scope="col">Rank</th><th scope="col">Team</th>${b.turnDepths.map((d) => h`<th scope="col">${d}</th>`)}</tr>`
  const rows = b.entries.map(
    (e) =>
      h`<tr><td>${e.rank}</td><td>${e.team}</td>${b.turnDepths.map((d) => h`<td class="num">${num(e.turnDepth?.[d] ?? null)}</td>`)}</tr>`,
  )
  return h`<h2>By turn depth</h2><p>${b.primary} by turn depth: the mean of the per-turn values of turns 1, 2, 3, 4 and 5 or later (T5+), pooled over domains, as <code>trecscore score</code> prints them.</p><table class="board"><thead>${head}</thead><tbody>${rows}</tbody></table>`
}

/** RETECO tracks: the primary measure per domain, one row per board entry. */
function domainTable(b: Board): SafeHtml | string {
  if (!b.domains.length || !b.entries.length) return ''
  const head = h`<tr><th scope="col">Rank</th><th scope="col">Team</th>${b.domains.map((d) => h`<th scope="col">${d}</th>`)}</tr>`
  const rows = b.entries.map(
    (e) =>
      h`<tr><td>${e.rank}</td><td>${e.team}</td>${b.domains.map((d) => h`<td class="num">${num(e.domains?.[d] ?? null)}</td>`)}</tr>`,
  )
  return h`<h2>Per domain</h2><p>${b.primary} per domain: the mean of the per-query values of the domain's topics (the board's own column may aggregate otherwise, e.g. a macro over domains).</p><table class="board"><thead>${head}</thead><tbody>${rows}</tbody></table>`
}

function tierCell(t: number | null): string {
  return t === null ? '—' : t === 1 ? '1 (tied with #1)' : String(t)
}

/** A corrected p-value as `compare` prints it (4 decimals, or 2 significant digits below 0.001). */
function pCell(p: number | null): string {
  return p === null ? '—' : formatP(p)
}

/** A sign-in form. */
export function loginBody(csrf: string, error?: string): SafeHtml {
  return h`${error ? h`<p class="error" role="alert">${error}</p>` : ''}<form method="post" action="/login"><input type="hidden" name="_csrf" value="${csrf}"><p><label for="name">Name</label> <input id="name" name="name" autocomplete="username" required></p><p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required></p><p><button type="submit">Sign in</button></p></form>`
}

/** The invite form (choose a name and a password). */
export function inviteBody(
  teamName: string,
  action: string,
  csrf: string,
  error?: string,
): SafeHtml {
  return h`<p>You are invited to join team <strong>${teamName}</strong>.</p>${error ? h`<p class="error" role="alert">${error}</p>` : ''}<form method="post" action="${action}"><input type="hidden" name="_csrf" value="${csrf}"><p><label for="name">Your name</label> <input id="name" name="name" autocomplete="username" required></p><p><label for="password">Password (at least 10 characters)</label> <input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required></p><p><button type="submit">Join the team</button></p></form>`
}

/** A simple message page body. */
export function messageBody(text: string, extra?: SafeHtml): SafeHtml {
  return h`<p>${text}</p>${extra ?? ''}`
}

function diffCells(x: DiffSide | null): SafeHtml {
  return x
    ? h`<td>${x.rank}</td><td class="num">${num(x.primary)}</td>`
    : h`<td>—</td><td class="num">—</td>`
}

/** Rank changes between two qrels versions. */
export function diffBody(d: BoardDiff, title: string): SafeHtml {
  if (!d.released)
    return h`<p>${title}: the ${d.phase} phase is hidden; its board and its rank changes are published when the organizers release it.</p>`
  const rows = d.rows.map((r) => {
    const change =
      r.rankChange === null
        ? r.to
          ? 'new'
          : 'gone'
        : r.rankChange > 0
          ? `▲ ${r.rankChange}`
          : r.rankChange < 0
            ? `▼ ${-r.rankChange}`
            : '='
    return h`<tr${r.baseline ? h` class="baseline"` : ''}><td>${r.team}${r.baseline ? h` <span class="tag">baseline</span>` : ''}</td><td>${(r.to ?? r.from)?.run ?? '—'}</td>${diffCells(r.from)}${diffCells(r.to)}<td>${change}</td></tr>`
  })
  const api = `/api/v1/boards/${encodeURIComponent(d.track)}/${encodeURIComponent(d.phase)}/diff?from=${d.from}&to=${d.to}`
  return h`<p>${title}, phase ${d.phase}: ranks by ${d.primary} under qrels version ${d.from} and version ${d.to} (each submission by its newest score against each version; earlier score versions are kept). <a href="${api}">JSON</a> · <a href="/boards/${encodeURIComponent(d.track)}/${encodeURIComponent(d.phase)}">Board</a></p><table class="board"><thead><tr><th scope="col">Team</th><th scope="col">Run</th><th scope="col">Rank (v${d.from})</th><th scope="col">${d.primary} (v${d.from})</th><th scope="col">Rank (v${d.to})</th><th scope="col">${d.primary} (v${d.to})</th><th scope="col">Change</th></tr></thead><tbody>${rows.length ? rows : h`<tr><td colspan="7">No scored submissions.</td></tr>`}</tbody></table>`
}
