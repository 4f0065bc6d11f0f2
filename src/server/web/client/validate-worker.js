// The upload page's Web Worker: validates the chosen run file in the browser with the server's
// own check (validateChunks: the validator and report text of `trecscore validate`) before any
// byte is sent. Message in: { file: File, name, maxLineBytes, maxDecompressedBytes, topics? };
// messages out: { type: 'progress', bytes, total } and { type: 'done', ok, errors, warnings, text }
// or { type: 'error', message }. Bundled by esbuild (scripts/build-report-assets.mjs).
import { validateChunks } from '../../../validate/validate-chunks.ts'

/** The file's bytes, gunzipped when it starts with the gzip magic, within the decompressed limit. */
async function* chunksOf(file, maxDecompressed, progress) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer())
  const gz = head.length === 2 && head[0] === 0x1f && head[1] === 0x8b
  let stream = file.stream()
  if (gz) stream = stream.pipeThrough(new DecompressionStream('gzip'))
  const reader = stream.getReader()
  let bytes = 0
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    bytes += value.length
    if (gz && bytes > maxDecompressed) {
      await reader.cancel()
      throw new Error(
        `the decompressed run is larger than ${maxDecompressed} bytes (upload.maxDecompressedBytes)`,
      )
    }
    progress(bytes)
    yield value
  }
}

self.addEventListener('message', async (event) => {
  const { file, name, maxLineBytes, maxDecompressedBytes, topics } = event.data
  let last = 0
  const progress = (bytes) => {
    if (bytes - last >= 4 * 1024 * 1024) {
      last = bytes
      self.postMessage({ type: 'progress', bytes, total: file.size })
    }
  }
  try {
    const topicSet = Array.isArray(topics) ? new Set(topics) : undefined
    const r = await validateChunks(
      chunksOf(file, maxDecompressedBytes, progress),
      { file: name, maxLineBytes, ...(topicSet ? { topics: topicSet } : {}) },
      (e) => (e instanceof Error ? e.message : String(e)),
    )
    self.postMessage({ type: 'done', ...r })
  } catch (e) {
    self.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) })
  }
})
