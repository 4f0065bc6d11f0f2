// Races to create judge caches: for round i (0-based) it waits until `start + i * gap` ms (epoch)
// and opens `<dir>/c<i>.sqlite`, so every process of a test opens the same fresh file within
// about a millisecond. Prints one line per round: "ok" or the error's first line. Runs the
// built library (dist/), so that plain node starts in a fraction of tsx's time.
import { join } from 'node:path'

const [lib, dir, hash, start, gap, rounds] = process.argv.slice(2)
const { JudgeCache } = await import(lib)
const lock = new Int32Array(new SharedArrayBuffer(4))
for (let i = 0; i < Number(rounds); i++) {
  const at = Number(start) + i * Number(gap)
  for (let d = at - Date.now(); d > 0; d = at - Date.now())
    Atomics.wait(lock, 0, 0, Math.min(d, 50))
  try {
    JudgeCache.open(join(dir, `c${i}.sqlite`), hash).close()
    process.stdout.write('ok\n')
  } catch (e) {
    process.stdout.write(`${String(e.message).split('\n')[0]}\n`)
  }
}
