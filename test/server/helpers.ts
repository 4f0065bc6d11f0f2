/**
 * Test competitions in temp folders: a DL21-style track on the demo collection (dev qrels =
 * q01–q15, hidden test qrels = q16–q30 plus canary documents that exist nowhere else) and,
 * optionally, a RETECO 1a track, or the RETECO Track 2 tracks (2a, 2c), on test/fixtures/reteco.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '..', '..')
export const DEMO = join(ROOT, 'demo')
export const RETECO = join(ROOT, 'test', 'fixtures', 'reteco')

/** Document ids planted only in the hidden test qrels. */
export const CANARIES = ['CANARYdoc7f3a9', 'CANARYdoc0b2e4']

export interface TestCompetition {
  readonly dir: string
  readonly config: string
  readonly data: string
  readonly runs: { readonly bm25: string; readonly dense: string; readonly hybrid: string }
  cleanup(): void
}

function queryNumber(line: string): number {
  return Number(line.slice(1, 3))
}

/** Write a competition config and its data into a fresh temp folder. */
export function makeCompetition(
  options: { reteco?: boolean; track2?: boolean; config?: Record<string, unknown> } = {},
): TestCompetition {
  const dir = mkdtempSync(join(tmpdir(), 'trecscore-serve-'))
  const trackDir = join(dir, 'dl')
  mkdirSync(trackDir)
  const qrels = readFileSync(join(DEMO, 'qrels.txt'), 'utf8').split('\n').filter(Boolean)
  writeFileSync(
    join(trackDir, 'qrels-dev.txt'),
    qrels.filter((l) => queryNumber(l) <= 15).join('\n') + '\n',
  )
  const hidden = [
    ...qrels.filter((l) => queryNumber(l) > 15),
    `q16 0 ${CANARIES[0]} 3`,
    `q20 0 ${CANARIES[1]} 2`,
  ]
  writeFileSync(join(trackDir, 'qrels-test.txt'), hidden.join('\n') + '\n')
  const runs = {
    bm25: join(DEMO, 'runs', 'bm25.run'),
    dense: join(DEMO, 'runs', 'dense.run'),
    hybrid: join(DEMO, 'runs', 'hybrid.run'),
  }
  const tracks: unknown[] = [
    {
      id: 'dl',
      title: 'DL21-style passages',
      preset: 'dl21-passage',
      data: 'dl',
      qrels: { dev: 'qrels-dev.txt', test: 'qrels-test.txt' },
      primary: 'nDCG@10',
      columns: ['nDCG@10', 'AP', 'RR'],
      baselines: { bm25: join(DEMO, 'runs', 'bm25.run') },
    },
    {
      id: 'plain',
      title: 'Plain measures',
      measures: ['nDCG@10', 'P@5'],
      data: 'dl',
      qrels: { dev: 'qrels-dev.txt', test: 'qrels-test.txt' },
      primary: 'P@5',
    },
  ]
  if (options.reteco)
    tracks.push({
      id: 'reteco-1a',
      title: 'RETECO 1a',
      preset: 'reteco-1a',
      data: join(RETECO, 'data'),
      splits: { dev: 'dev', test: 'train' },
      primary: 'nDCG@10',
      columns: ['nDCG@10', 'MRR'],
    })
  if (options.track2)
    for (const sub of ['2a', '2c'])
      tracks.push({
        id: `reteco-${sub}`,
        title: `RETECO ${sub}`,
        preset: `reteco-${sub}`,
        data: join(RETECO, 'data'),
        splits: { dev: 'dev', test: 'train' },
        primary: 'nDCG@10',
        columns: ['nDCG@10', 'MRR', 'Recall@10'],
      })
  const config = {
    name: 'Test <competition> & "co"',
    phases: [
      { id: 'dev', start: '2020-01-01T00:00:00Z', end: '2099-01-01T00:00:00Z' },
      { id: 'test', start: '2020-01-01T00:00:00Z', end: '2099-01-01T00:00:00Z', hidden: true },
    ],
    tracks,
    metadata: [
      { name: 'kind', type: 'enum', values: ['automatic', 'manual'] },
      { name: 'description', type: 'string', required: false, maxLength: 200 },
    ],
    ...options.config,
  }
  const file = join(dir, 'competition.json')
  writeFileSync(file, JSON.stringify(config, null, 2))
  return {
    dir,
    config: file,
    data: join(dir, 'board'),
    runs,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** The lines of a run for some queries only (a smaller, still valid upload). */
export function runSubset(file: string, keep: (queryNumber: number) => boolean): string {
  return (
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l && keep(queryNumber(l)))
      .join('\n') + '\n'
  )
}
