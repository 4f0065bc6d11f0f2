import { ByteOutput } from './output.js'

/**
 * What `write` puts out through a {@link ByteOutput} that hands on bytes, as a binary string;
 * it throws if the text writer is used. Each piece must stay intact after later writes.
 */
export function collectBytes(write: (out: ByteOutput) => void): string {
  const parts: Uint8Array[] = []
  const out = new ByteOutput(
    () => {
      throw new Error('text writer used')
    },
    (b) => parts.push(b),
  )
  write(out)
  out.flush()
  return Buffer.concat(parts).toString('latin1')
}
