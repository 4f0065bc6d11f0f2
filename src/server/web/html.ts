/**
 * HTML built with one tagged template, `h`, that escapes every interpolated value (team names,
 * run descriptions, ids, file names, validator output) unless it is already {@link SafeHtml}
 * made by `h` itself. There is no other way to produce markup in the server.
 *
 * @example
 * h`<td>${team.name}</td>`.value // '<td>&lt;script&gt;…</td>' for a hostile name
 */

import { escapeHtml, formatFixed } from '../../internal.js'

/** Markup that is already escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

type Part = SafeHtml | string | number | boolean | null | undefined | readonly Part[]

function render(p: Part): string {
  if (p === null || p === undefined || p === false) return ''
  if (p instanceof SafeHtml) return p.value
  if (Array.isArray(p)) return (p as readonly Part[]).map(render).join('')
  return escapeHtml(String(p))
}

/** The escaping template tag. Arrays are joined; null, undefined and false render nothing. */
export function h(strings: TemplateStringsArray, ...parts: readonly Part[]): SafeHtml {
  let out = strings[0] ?? ''
  for (let i = 0; i < parts.length; i++) out += render(parts[i]!) + (strings[i + 1] ?? '')
  return new SafeHtml(out)
}

/** A number as the board shows it (printf rounding, 4 decimals; an em dash for none). */
export function num(v: number | null | undefined, digits = 4): string {
  return typeof v === 'number' && Number.isFinite(v) ? formatFixed(v, digits) : '—'
}

/** An instant as `YYYY-MM-DD HH:MM:SS` at a fixed offset from UTC (hours). */
function wallClock(d: Date, offsetHours: number): string {
  return new Date(d.getTime() + offsetHours * 3_600_000)
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ')
}

/** An instant in Anywhere on Earth (UTC-12), the deadline zone of many shared tasks: `2027-03-15 11:59:59 AoE`. */
export function aoe(iso: string): string {
  return `${wallClock(new Date(iso), -12)} AoE`
}

/** A phase instant as pages show it: the UTC instant, and with `timeDisplay: "aoe"` the AoE wall clock beside it. */
export function when(iso: string, display: 'utc' | 'aoe'): SafeHtml {
  const d = new Date(iso)
  return h`<time datetime="${d.toISOString()}">${wallClock(d, 0)} UTC</time>${display === 'aoe' ? h` (${aoe(iso)})` : ''}`
}
