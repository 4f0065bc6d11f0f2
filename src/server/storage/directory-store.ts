/**
 * The directory run store (`--runs directory`, the default; see run-store.ts): a submission's
 * folder is `--data/runs/ID/`, the run `NAME` in it. Shared by several machines only through a
 * shared folder (NFS and the like) mounted as every process's `--data`.
 */
import { createReadStream, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type { OpenedRun, RunStore, StoredFile, StoredRun } from './run-store.js'

/**
 * Every file under `dir`, relative to it with `/`, in byte order (none when it is missing);
 * `skip` leaves out a file or a whole folder by its path.
 */
export function filesUnder(dir: string, skip: (path: string) => boolean = () => false): string[] {
  const out: string[] = []
  const walk = (d: string): void => {
    let entries: import('node:fs').Dirent[]
    try {
      entries = readdirSync(d, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      const p = join(d, e.name)
      if (skip(p)) continue
      if (e.isDirectory()) walk(p)
      else if (e.isFile()) out.push(relative(dir, p).split(sep).join('/'))
    }
  }
  walk(dir)
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

export class DirectoryRunStore implements RunStore {
  readonly kind = 'directory' as const

  constructor(private readonly dataDir: string) {}

  private folder(id: string): string {
    return join(this.dataDir, 'runs', id)
  }

  put(id: string, name: string, localPath: string): Promise<string> {
    mkdirSync(this.folder(id), { recursive: true })
    rmSync(join(this.folder(id), name), { recursive: true, force: true })
    renameSync(localPath, join(this.folder(id), name))
    return Promise.resolve(`runs/${id}/${name}`)
  }

  open(run: StoredRun, _scratchDir: string): Promise<OpenedRun> {
    return Promise.resolve({
      path: join(this.dataDir, run.file),
      keepOutputs: () => Promise.resolve(),
      release: () => Promise.resolve(),
    })
  }

  remove(id: string): Promise<void> {
    rmSync(this.folder(id), { recursive: true, force: true })
    return Promise.resolve()
  }

  files(id: string): Promise<StoredFile[]> {
    return Promise.resolve(filesUnder(this.folder(id)).map((path) => ({ path })))
  }

  read(id: string, path: string): AsyncIterable<Uint8Array> {
    return createReadStream(join(this.folder(id), path), { highWaterMark: 1 << 20 })
  }
}
