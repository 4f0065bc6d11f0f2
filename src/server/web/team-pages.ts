/**
 * Pages of a team (its submissions, upload forms, API tokens), of one submission, and of the
 * organizers (teams, invites, releases).
 */
import { type Competition, runIsDirectory } from '../config/load.js'
import type { MetadataField } from '../config/schema.js'
import type { SubmissionState } from '../db/schema.js'
import { isCountColumn } from '../judging/columns.js'
import { h, num, type SafeHtml, when } from './html.js'

/** A submission row as the team page lists it. */
export interface SubmissionRow {
  readonly id: string
  readonly track: string
  readonly phase: string
  readonly state: SubmissionState
  readonly reason: string | null
  readonly name: string
  readonly createdAt: string
  /** Null while hidden or unscored. */
  readonly primary: number | null
  /** The team selected it as the one that counts (`limits.counts: "selected"`). */
  readonly selected: boolean
}

/** Everything one submission page shows. */
export interface SubmissionView extends SubmissionRow {
  readonly teamName: string
  readonly sha256: string
  readonly bytes: number
  readonly charged: boolean
  readonly attempts: number
  readonly metadata: Readonly<Record<string, unknown>>
  /** False while the phase is hidden (no scores shown). */
  readonly scoresVisible: boolean
  readonly versions: readonly {
    readonly version: number
    readonly qrelsVersion: number
    readonly createdAt: string
    readonly columns: Readonly<Record<string, number | null>>
    readonly notes: {
      readonly warnings: readonly string[]
      readonly counts: Readonly<Record<string, number>>
    }
    readonly provenance: Readonly<Record<string, unknown>>
  }[]
  /** Per-query values (dev phases only), else null. */
  readonly perQuery:
    | readonly {
        readonly query: string
        readonly values: Readonly<Record<string, number | null>>
      }[]
    | null
}

function field(f: MetadataField, idPrefix: string): SafeHtml {
  const id = `${idPrefix}-${f.name}`
  const label = f.label ?? f.name
  const req = f.required ? h` required` : ''
  switch (f.type) {
    case 'boolean':
      return h`<p><input type="checkbox" id="${id}" name="meta.${f.name}" value="true"> <label for="${id}">${label}</label></p>`
    case 'string':
      return h`<p><label for="${id}">${label}</label> <input id="${id}" name="meta.${f.name}" maxlength="${f.maxLength}"${req}></p>`
    case 'integer':
      return h`<p><label for="${id}">${label}</label> <input id="${id}" type="number" name="meta.${f.name}"${f.min !== undefined ? h` min="${f.min}"` : ''}${f.max !== undefined ? h` max="${f.max}"` : ''}${req}></p>`
    case 'enum':
      return h`<p><label for="${id}">${label}</label> <select id="${id}" name="meta.${f.name}"${req}>${f.required ? '' : h`<option value="">(none)</option>`}${f.values.map((v) => h`<option>${v}</option>`)}</select></p>`
  }
}

/**
 * The run's file inputs, last in the form: the server reads the fields first and then streams
 * the files to disk. A per-domain run (RETECO Track 2) takes one file per domain and a name.
 */
function fileInputs(t: Competition['tracks'][number], fid: string): SafeHtml {
  if (!runIsDirectory(t))
    return h`<p><label for="${fid}">Run file (TREC format, optionally .gz)</label> <input id="${fid}" type="file" name="run" required></p>`
  if (t.judging)
    return h`<p><label for="${fid}-name">Run name</label> <input id="${fid}-name" name="runName" required maxlength="100"></p><p><label for="${fid}">Answers: one <code>&lt;domain&gt;.jsonl</code> of <code>{"turn_id", "answer"}</code> lines per domain${t.preset === 'reteco-2c' ? h`, and the retrieval run: one TREC file per domain (<code>biology.trec</code>, …)` : ''}; checked as <code>trecscore validate --preset ${t.preset}</code> does</label> <input id="${fid}" type="file" name="run" multiple required></p>`
  return h`<p><label for="${fid}-name">Run name</label> <input id="${fid}-name" name="runName" required maxlength="100"></p><p><label for="${fid}">Run files: one per domain, each named after its domain (<code>biology.trec</code>, …; optionally .gz)</label> <input id="${fid}" type="file" name="run" multiple required></p>`
}

/** The team page. */
export function teamBody(opts: {
  competition: Competition
  teamName: string
  csrf: string
  submissions: readonly SubmissionRow[]
  tokens: readonly { id: string; label: string; createdAt: string; revokedAt: string | null }[]
  newToken?: string
  remaining: readonly { track: string; phase: string; day: number; phase_: number }[]
  anonymous: boolean
  now: Date
  /** Per `track\u0000phase`: the topic ids the upload check knows (dev phases of qrels tracks), for the browser check. */
  topics?: ReadonlyMap<string, readonly string[]>
}): SafeHtml {
  const c = opts.competition
  const selecting = c.limits.counts === 'selected'
  const subs = opts.submissions.map(
    (s) =>
      h`<tr><td><a href="/submissions/${s.id}">${s.id}</a></td><td>${s.track}</td><td>${s.phase}</td><td>${s.name}</td><td class="state-${s.state}" data-submission="${s.id}">${s.state}${s.reason ? h`: ${s.reason}` : ''}</td><td class="num" data-primary="${s.id}">${num(s.primary)}</td><td><time>${s.createdAt}</time></td>${selecting ? h`<td>${selectControl(c, s, opts.csrf, opts.now)}</td>` : ''}</tr>`,
  )
  const forms = c.tracks.flatMap((t) =>
    c.phases.map((p) => {
      const left = opts.remaining.find((r) => r.track === t.id && r.phase === p.id)
      const fid = `up-${t.id}-${p.id}`
      return h`<section><h3>${t.title}, phase ${p.id}</h3><p>Open ${when(p.start, c.timeDisplay)} to before ${when(p.end, c.timeDisplay)}.${left ? h` Left: ${left.day} in the last 24 hours, ${left.phase_} in this phase.` : ''} Failed and invalid runs are not charged.</p><form method="post" enctype="multipart/form-data" action="/team/submissions?_csrf=${encodeURIComponent(opts.csrf)}"${t.kind === 'reteco' ? '' : h` data-validate data-max-line-bytes="${c.upload.maxLineBytes}" data-max-decompressed-bytes="${c.upload.maxDecompressedBytes}"${opts.topics?.has(`${t.id}\u0000${p.id}`) ? h` data-topics="${JSON.stringify(opts.topics.get(`${t.id}\u0000${p.id}`))}"` : ''}`}><input type="hidden" name="track" value="${t.id}"><input type="hidden" name="phase" value="${p.id}">${c.metadata.map((f) => field(f, fid))}${fileInputs(t, fid)}<p><button type="submit">Submit</button></p></form></section>`
    }),
  )
  const tokens = opts.tokens.map(
    (t) =>
      h`<tr><td>${t.label}</td><td><time>${t.createdAt}</time></td><td>${t.revokedAt ? h`revoked <time>${t.revokedAt}</time>` : h`<form class="inline" method="post" action="/team/tokens/${t.id}/revoke"><input type="hidden" name="_csrf" value="${opts.csrf}"><button type="submit">Revoke</button></form>`}</td></tr>`,
  )
  const counting = selecting
    ? h`<p>Your <strong>selected</strong> submission counts on the board of its track and phase (until you select one, your latest scored one). You can change it while the phase is open.</p>`
    : h`<p>Your ${c.limits.counts} scored submission of each track and phase counts on its board.</p>`
  const anonymity = h`<h2>How the boards show your team</h2><form method="post" action="/team/anonymity"><input type="hidden" name="_csrf" value="${opts.csrf}"><p><input type="checkbox" id="anonymous" name="anonymous" value="true"${opts.anonymous ? h` checked` : ''}> <label for="anonymous">Anonymous: boards and exports show an alias instead of the team name, and no run names</label> <button type="submit">Save</button></p></form>`
  return h`<p>Team <strong>${opts.teamName}</strong>${opts.anonymous ? ' (anonymous on the boards)' : ''}.</p><h2>Submissions</h2>${counting}<table><thead><tr><th scope="col">Id</th><th scope="col">Track</th><th scope="col">Phase</th><th scope="col">File</th><th scope="col">State</th><th scope="col">Primary</th><th scope="col">Submitted (UTC)</th>${selecting ? h`<th scope="col">Counts</th>` : ''}</tr></thead><tbody>${subs.length ? subs : h`<tr><td colspan="${selecting ? 8 : 7}">None yet.</td></tr>`}</tbody></table>${anonymity}<h2>Submit a run</h2>${forms}<h2>API tokens</h2>${opts.newToken ? h`<p class="notice" role="status">New token (shown once, copy it now): <code>${opts.newToken}</code></p>` : ''}<table><thead><tr><th scope="col">Label</th><th scope="col">Created</th><th scope="col">State</th></tr></thead><tbody>${tokens}</tbody></table><form method="post" action="/team/tokens"><input type="hidden" name="_csrf" value="${opts.csrf}"><p><label for="label">Label</label> <input id="label" name="label" required maxlength="100"> <button type="submit">Create token</button></p></form>`
}

/** The "counts" cell of a submission: selected, a Select button (while its phase is open), or nothing. */
export function selectControl(c: Competition, s: SubmissionRow, csrf: string, now: Date): SafeHtml {
  if (s.selected) return h`<strong>selected</strong>`
  const phase = c.phases.find((p) => p.id === s.phase)
  const open =
    phase !== undefined && now.toISOString() >= phase.start && now.toISOString() < phase.end
  if (!open || s.state === 'failed') return h``
  return h`<form class="inline" method="post" action="/team/submissions/${s.id}/select"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit">Select to count</button></form>`
}

/** A rejected upload: the validator's report, as `trecscore validate` prints it. */
export function rejectedBody(message: string, report?: string): SafeHtml {
  return h`<p class="error" role="alert">${message}</p>${report ? h`<pre class="report">${report}</pre>` : ''}<p><a href="/team">Back to the team page</a></p>`
}

/** One submission (`select`: the counting control, for its own team under `counts: "selected"`). */
export function submissionBody(s: SubmissionView, select?: SafeHtml): SafeHtml {
  const meta = Object.entries(s.metadata).map(
    ([k, v]) => h`<tr><th scope="row">${k}</th><td>${String(v)}</td></tr>`,
  )
  const versions = s.scoresVisible
    ? s.versions.map(
        (v) =>
          h`<h3>Score version ${v.version} (qrels version ${v.qrelsVersion}, <time>${v.createdAt}</time>)</h3><table><tbody>${Object.entries(v.columns).map(([k, x]) => h`<tr><th scope="row">${k}</th><td class="num">${isCountColumn(k) && typeof x === 'number' && Number.isInteger(x) ? String(x) : num(x, 6)}</td></tr>`)}</tbody></table>${v.notes.warnings.length ? h`<ul>${v.notes.warnings.map((w) => h`<li>${w}</li>`)}</ul>` : ''}<p>Counts: ${Object.entries(
            v.notes.counts,
          )
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')}</p><h4>Provenance</h4><pre>${JSON.stringify(v.provenance, null, 2)}</pre>`,
      )
    : h`<p>Scores of this phase are hidden until the organizers release it.</p>`
  const pq = s.perQuery
  const perQuery =
    pq && pq.length
      ? h`<h2>Per query</h2><p><a href="/api/v1/submissions/${s.id}/per-query">JSON</a></p><table><thead><tr><th scope="col">Query</th>${Object.keys(pq[0]!.values).map((k) => h`<th scope="col">${k}</th>`)}</tr></thead><tbody>${pq.map((q) => h`<tr><td>${q.query}</td>${Object.values(q.values).map((x) => h`<td class="num">${num(x)}</td>`)}</tr>`)}</tbody></table>`
      : ''
  return h`<table><tbody><tr><th scope="row">Team</th><td>${s.teamName}</td></tr><tr><th scope="row">Track / phase</th><td>${s.track} / ${s.phase}</td></tr><tr><th scope="row">File</th><td>${s.name} (${s.bytes} bytes, sha256 <code>${s.sha256}</code>)</td></tr><tr><th scope="row">State</th><td class="state-${s.state}">${s.state}${s.reason ? h`: ${s.reason}` : ''}</td></tr><tr><th scope="row">Charged</th><td>${s.charged ? 'yes' : 'no'}</td></tr><tr><th scope="row">Attempts</th><td>${s.attempts}</td></tr><tr><th scope="row">Submitted</th><td><time>${s.createdAt}</time></td></tr>${select ? h`<tr><th scope="row">Counts on the board</th><td>${select}</td></tr>` : ''}${meta}</tbody></table>${versions}${perQuery}`
}

/** The organizer page. */
export function orgBody(opts: {
  competition: Competition
  csrf: string
  teams: readonly {
    id: string
    name: string
    baseline: boolean
    anonymous: boolean
    members: number
  }[]
  invite?: { team: string; link: string }
  released: ReadonlyMap<string, string>
  /** Per track and phase: the newest qrels version; `perDomain`: a RETECO track (one qrels file per domain). */
  qrels: readonly { track: string; phase: string; version: number; perDomain?: boolean }[]
  /** Re-scoring jobs per track, phase and qrels version, with every failed one and its reason. */
  rescores?: readonly {
    track: string
    phase: string
    version: number
    queued: number
    scoring: number
    done: number
    failed: readonly { submission: string; team: string; reason: string }[]
  }[]
  /** Signed release snapshots written so far (see release-snapshot.ts). */
  snapshots?: readonly {
    phase: string
    number: number
    dir: string
    writtenAt: string
    perQueryIncluded: boolean
    manifestSha256: string
    keyFingerprint: string
  }[]
  /** Submissions per state, and the newest failed ones (with the reason), for the scoring section. */
  scoring?: {
    readonly states: Readonly<Record<string, number>>
    readonly failed: readonly {
      id: string
      team: string
      track: string
      phase: string
      attempts: number
      reason: string
    }[]
  }
  notice?: string
  /** Judged tracks and phases (see judging/controls.ts). */
  judging?: readonly {
    track: string
    phase: string
    paused: boolean
    scorerVersion: string
  }[]
}): SafeHtml {
  const teams = opts.teams.map(
    (t) =>
      h`<tr><td>${t.name}${t.baseline ? ' (baselines)' : ''}${t.anonymous ? ' (anonymous on the boards)' : ''}</td><td>${t.members}</td><td><form class="inline" method="post" action="/org/teams/${t.id}/invites"><input type="hidden" name="_csrf" value="${opts.csrf}"><button type="submit">New invite link</button></form></td></tr>`,
  )
  const phases = opts.competition.phases
    .filter((p) => p.hidden)
    .map((p) => {
      const at = opts.released.get(p.id)
      return h`<li>${p.id}: ${at ? h`released <time>${at}</time>` : h`hidden${p.release ? h` (scheduled release ${when(p.release, opts.competition.timeDisplay)})` : ''} <form class="inline" method="post" action="/org/phases/${p.id}/release"><input type="hidden" name="_csrf" value="${opts.csrf}"><button type="submit">Release now</button></form>`}</li>`
    })
  const qrels = opts.qrels.map(
    (q) =>
      h`<tr><td>${q.track}</td><td>${q.phase}</td><td>${q.version}${q.version > 1 ? h` (<a href="/boards/${encodeURIComponent(q.track)}/${encodeURIComponent(q.phase)}/diff">rank changes</a>)` : ''}</td><td><form method="post" enctype="multipart/form-data" action="/org/qrels?_csrf=${encodeURIComponent(opts.csrf)}"><input type="hidden" name="track" value="${q.track}"><input type="hidden" name="phase" value="${q.phase}">${q.perDomain ? h`<label for="qrels-${q.track}-${q.phase}">Qrels files, one per domain, named after it (<code>biology.txt</code>, …; domains not sent keep their qrels)</label> <input id="qrels-${q.track}-${q.phase}" type="file" name="qrels" multiple required>` : h`<label for="qrels-${q.track}-${q.phase}">Qrels file</label> <input id="qrels-${q.track}-${q.phase}" type="file" name="qrels" required>`} <label for="note-${q.track}-${q.phase}">Note</label> <input id="note-${q.track}-${q.phase}" name="note" maxlength="500"> <button type="submit">Add version and re-score</button></form></td></tr>`,
  )
  const qrelsSection = h`<h2>Qrels versions</h2><p>A new version re-scores every scored submission of its track and phase as a new score version (earlier ones are kept); new submissions are scored against the newest version.</p><table><thead><tr><th scope="col">Track</th><th scope="col">Phase</th><th scope="col">Newest version</th><th scope="col">Add a version</th></tr></thead><tbody>${qrels}</tbody></table>`
  return h`${opts.notice ? h`<p class="notice" role="status">${opts.notice}</p>` : ''}${opts.invite ? h`<p class="notice" role="status">Invite link for ${opts.invite.team} (single use, shown once): <code>${opts.invite.link}</code></p>` : ''}<h2>Teams</h2><table><thead><tr><th scope="col">Team</th><th scope="col">Members</th><th scope="col">Invite</th></tr></thead><tbody>${teams}</tbody></table><form method="post" action="/org/teams"><input type="hidden" name="_csrf" value="${opts.csrf}"><p><label for="team">New team</label> <input id="team" name="name" required maxlength="100"> <button type="submit">Create team and invite link</button></p></form><h2>Hidden phases</h2><ul>${phases}</ul>${snapshotSection(opts.snapshots ?? [])}${qrelsSection}${rescoreSection(opts.rescores ?? [])}${judgingSection(opts.judging ?? [], opts.csrf)}${opts.scoring ? scoringSection(opts.scoring, opts.csrf) : ''}`
}

/** Submissions per state, and the failed ones (dead letters included) with a button to queue one again. */
function scoringSection(
  s: NonNullable<Parameters<typeof orgBody>[0]['scoring']>,
  csrf: string,
): SafeHtml {
  const states = ['queued', 'scoring', 'scored', 'failed'].map(
    (k) => h`<td>${String(s.states[k] ?? 0)}</td>`,
  )
  const failed = s.failed.map(
    (f) =>
      h`<tr><td><a href="/submissions/${encodeURIComponent(f.id)}">${f.id}</a></td><td>${f.team}</td><td>${f.track}</td><td>${f.phase}</td><td>${String(f.attempts)}</td><td class="error">${f.reason}</td><td><form class="inline" method="post" action="/org/submissions/${encodeURIComponent(f.id)}/requeue"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit">Queue again</button></form></td></tr>`,
  )
  return h`<h2>Scoring</h2><table><thead><tr><th scope="col">Queued</th><th scope="col">Scoring</th><th scope="col">Scored</th><th scope="col">Failed</th></tr></thead><tbody><tr>${states}</tr></tbody></table>${failed.length ? h`<p>Failed submissions, newest first (a job the queue gave up on is failed here with its reason; queueing one again resets its attempts):</p><table><thead><tr><th scope="col">Submission</th><th scope="col">Team</th><th scope="col">Track</th><th scope="col">Phase</th><th scope="col">Attempts</th><th scope="col">Reason</th><th scope="col"></th></tr></thead><tbody>${failed}</tbody></table>` : ''}`
}

/** Pause, resume and re-judge each judged track and phase. */
function judgingSection(
  list: NonNullable<Parameters<typeof orgBody>[0]['judging']>,
  csrf: string,
): SafeHtml {
  if (!list.length) return h``
  const button = (j: (typeof list)[number], action: string, label: string): SafeHtml =>
    h`<form class="inline" method="post" action="/org/judging/${encodeURIComponent(j.track)}/${encodeURIComponent(j.phase)}/${action}"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit">${label}</button></form>`
  const rows = list.map(
    (j) =>
      h`<tr><td>${j.track}</td><td>${j.phase}</td><td>${j.paused ? 'paused' : 'running'}</td><td><code>${j.scorerVersion}</code></td><td>${j.paused ? button(j, 'resume', 'Resume') : button(j, 'pause', 'Pause')} ${button(j, 'rejudge', 'Re-judge under this config')}</td></tr>`,
  )
  return h`<h2>Judging</h2><p>A paused track and phase starts no judging job (queued ones wait; one already judging finishes). Re-judging queues every scored submission whose newest score was made under another judge config; each judge config gets its own score version, and the earlier ones are kept. A new judge config takes effect when the server and workers restart with it.</p><table><thead><tr><th scope="col">Track</th><th scope="col">Phase</th><th scope="col">Judging</th><th scope="col">Scorer version of new judgments</th><th scope="col"></th></tr></thead><tbody>${rows}</tbody></table>`
}

function rescoreSection(list: NonNullable<Parameters<typeof orgBody>[0]['rescores']>): SafeHtml {
  if (!list.length) return h``
  const rows = list.map(
    (r) =>
      h`<tr><td>${r.track}</td><td>${r.phase}</td><td>${r.version}</td><td>${r.queued}</td><td>${r.scoring}</td><td>${r.done}</td><td>${r.failed.length}</td></tr>`,
  )
  const failed = list.flatMap((r) =>
    r.failed.map(
      (f) =>
        h`<li class="error">${r.track} / ${r.phase}, qrels version ${r.version}: submission <a href="/submissions/${encodeURIComponent(f.submission)}">${f.submission}</a> of ${f.team}: ${f.reason}</li>`,
    ),
  )
  return h`<h2>Re-scoring</h2><table><thead><tr><th scope="col">Track</th><th scope="col">Phase</th><th scope="col">Qrels version</th><th scope="col">Queued</th><th scope="col">Scoring</th><th scope="col">Done</th><th scope="col">Failed</th></tr></thead><tbody>${rows}</tbody></table>${failed.length ? h`<p>Failed re-scores keep the submission's earlier score version on the board:</p><ul>${failed}</ul>` : ''}`
}

function snapshotSection(list: NonNullable<Parameters<typeof orgBody>[0]['snapshots']>): SafeHtml {
  if (!list.length)
    return h`<h2>Release snapshots</h2><p>None yet: releasing a hidden phase writes a signed snapshot of its boards under the data folder.</p>`
  const rows = list.map(
    (x) =>
      h`<tr><td>${x.phase}</td><td>${x.number}</td><td><time>${x.writtenAt}</time></td><td>${x.perQueryIncluded ? 'yes' : 'not yet (embargo)'}</td><td><code>${x.dir}</code></td><td><code>${x.manifestSha256}</code></td></tr>`,
  )
  return h`<h2>Release snapshots</h2><p>Signed with the Ed25519 key whose SPKI sha256 is <code>${list.at(-1)!.keyFingerprint}</code>; check one with <code>trecscore serve admin verify-release DIR</code>.</p><table><thead><tr><th scope="col">Phase</th><th scope="col">#</th><th scope="col">Written (UTC)</th><th scope="col">Per-query files</th><th scope="col">Folder</th><th scope="col">Manifest sha256</th></tr></thead><tbody>${rows}</tbody></table>`
}
