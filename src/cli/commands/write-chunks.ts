/** Write text chunks to stdout, waiting for it to drain whenever its buffer is full. */
export async function writeChunks(chunks: Iterable<string>): Promise<void> {
  for (const c of chunks) {
    if (!process.stdout.write(c))
      await new Promise<void>((resolve) => process.stdout.once('drain', () => resolve()))
  }
}
