/**
 * A `fetch` over HTTP/2 for Node tests and benchmarks (Node 20's fetch speaks HTTP/1.1 only): one `node:http2`
 * session per origin, one stream per request, self-signed certificates accepted. Enough of fetch for the HTTP
 * source: method, headers, abort; the answer as a `Response` (body buffered). `protocolOf` says `h2` for every URL
 * it fetched, as a browser's Resource Timing `nextHopProtocol` would.
 */
import { connect, constants, type ClientHttp2Session } from 'node:http2'

export interface H2Fetch {
  fetch: typeof fetch
  protocolOf: (url: string) => string | null
  close(): void
}

export function createH2Fetch(): H2Fetch {
  const sessions = new Map<string, ClientHttp2Session>()
  const fetched = new Set<string>()
  const session = (origin: string) => {
    let s = sessions.get(origin)
    if (!s || s.closed || s.destroyed) {
      s = connect(origin, { rejectUnauthorized: false })
      s.on('error', () => sessions.delete(origin))
      sessions.set(origin, s)
    }
    return s
  }
  const h2fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
    const headers: Record<string, string> = { ':method': init.method ?? 'GET', ':path': url.pathname + url.search }
    new Headers(init.headers).forEach((value, key) => { headers[key] = value })
    const signal = init.signal
    if (signal?.aborted) throw signal.reason
    return new Promise<Response>((resolve, reject) => {
      const stream = session(url.origin).request(headers, { endStream: true })
      const onAbort = () => {
        stream.close(constants.NGHTTP2_CANCEL)
        reject(signal?.reason ?? new DOMException('aborted', 'AbortError'))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      stream.on('error', (error) => {
        signal?.removeEventListener('abort', onAbort)
        reject(new TypeError(`h2 fetch failed: ${error.message}`))
      })
      stream.on('response', (responseHeaders) => {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          signal?.removeEventListener('abort', onAbort)
          fetched.add(url.href)
          const status = Number(responseHeaders[':status'])
          const out = new Headers()
          for (const [key, value] of Object.entries(responseHeaders)) {
            if (!key.startsWith(':') && value !== undefined) out.set(key, Array.isArray(value) ? value.join(', ') : String(value))
          }
          const body = status === 204 || status === 304 || headers[':method'] === 'HEAD' ? null : Buffer.concat(chunks)
          resolve(new Response(body, { status, headers: out }))
        })
      })
    })
  }) as typeof fetch
  return {
    fetch: h2fetch,
    protocolOf: (url) => (fetched.has(new URL(url).href) ? 'h2' : null),
    close() {
      for (const s of sessions.values()) s.close()
      sessions.clear()
    },
  }
}
