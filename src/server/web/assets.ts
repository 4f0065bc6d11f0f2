/**
 * The browser scripts of the pages (`dist/web-assets/*.js`, bundled by `npm run build` from
 * `src/server/web/client/`), read once per server process when first asked for; null when the
 * build did not make them (the pages then work without them).
 */
import { readFileSync } from 'node:fs'

// From src/server/web and from dist/server/web alike: the package's dist/web-assets/.
const ASSETS = new URL('../../../dist/web-assets/', import.meta.url)

/** One asset's code, or null. Read on each call: the file is small and the OS caches it. */
export function webAsset(
  name: 'upload.js' | 'validate-worker.js' | 'rate.js' | string,
): string | null {
  if (name !== 'upload.js' && name !== 'validate-worker.js' && name !== 'rate.js') return null
  try {
    return readFileSync(new URL(name, ASSETS), 'utf8')
  } catch {
    return null
  }
}
