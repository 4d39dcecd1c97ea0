/**
 * A fault-injecting HTTP server for source tests: serves in-memory files on 127.0.0.1 (any free port) with
 * correct ranges and CORS, logs every request, and lets a test make chosen requests fail in chosen ways.
 */
import { createServer } from 'node:http'
import type { ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { corsHeaders, parseRange } from './helpers/static-server.ts'

/** One request as the server received it. */
export interface LoggedRequest {
  method: string
  /** The URL path as sent (still percent-encoded). */
  rawPath: string
  /** The path decoded per segment, without the leading `/`. */
  path: string
  /** The `Range` header, or null. */
  range: string | null
}

/** What to do to one request instead of (or before) answering it properly; fields combine where they make sense. */
export interface Fault {
  /** Answer this status with an empty body. */
  status?: number
  /** Never answer. */
  hang?: boolean
  /** Destroy the socket: a network error for the client. */
  reset?: boolean
  /** Answer 200 with the whole file, as a server without Range support does. */
  ignoreRange?: boolean
  /** Answer 206 with the asked bytes but this Content-Range header. */
  contentRange?: string
  /** Correct 206 without Content-Range (cross-origin without Expose-Headers). */
  hideContentRange?: boolean
  /** Correct headers, but drop this many bytes from the end of the body. */
  truncate?: number
  /** Answer after this delay in ms. */
  delayMs?: number
}

/** Picks a fault for the `index`-th request (0-based), or undefined to answer properly. */
export type FaultPlan = (request: LoggedRequest, index: number) => Fault | undefined

/** A running fault server. */
export interface FaultServer {
  /** Base URL ending in `/`. */
  url: string
  /** Every request received, in order. */
  requests: LoggedRequest[]
  /** The current plan; change it between steps of a test. */
  plan: FaultPlan
  /** Most requests open at the same time so far (a request closes when its answer ends or its socket does). */
  maxActive: number
  /** The files served, path (decoded) → bytes; may be changed by a test. */
  files: Record<string, Uint8Array>
  close(): Promise<void>
}

/** Faults for the first requests, in order, then proper answers. */
export function faultSequence(...faults: Array<Fault | undefined>): FaultPlan {
  return (_request, index) => faults[index]
}

/** The same fault for every request matching `match`. */
export function faultWhen(match: (request: LoggedRequest) => boolean, fault: Fault): FaultPlan {
  return (request) => (match(request) ? fault : undefined)
}

/** Starts a server over `files` (path relative to the server root → bytes). */
export async function startFaultServer(files: Record<string, Uint8Array>, plan: FaultPlan = () => undefined): Promise<FaultServer> {
  const state: FaultServer = { url: '', requests: [], plan, files, maxActive: 0, close: async () => {} }
  let active = 0
  const server = createServer((req, res) => {
    active++
    state.maxActive = Math.max(state.maxActive, active)
    res.once('close', () => active--)
    const rawPath = (req.url ?? '/').split('?', 1)[0]
    let path: string
    try {
      path = rawPath.split('/').filter((s) => s !== '').map(decodeURIComponent).join('/')
    } catch {
      path = '\0bad-encoding'
    }
    const request: LoggedRequest = { method: req.method ?? 'GET', rawPath, path, range: req.headers.range ?? null }
    const index = state.requests.length
    state.requests.push(request)
    const fault = state.plan(request, index)
    if (fault?.hang) return
    if (fault?.reset) return void req.socket.destroy()
    if (fault?.status !== undefined) return void res.writeHead(fault.status, corsHeaders).end()
    if (fault?.delayMs !== undefined) return void setTimeout(() => answer(state.files, request, res, fault), fault.delayMs)
    answer(state.files, request, res, fault)
  })
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  state.close = () => new Promise<void>((ok) => {
    server.close(() => ok())
    server.closeAllConnections()
  })
  return state
}

function answer(files: Record<string, Uint8Array>, request: LoggedRequest, res: ServerResponse, fault: Fault = {}): void {
  const bytes = Object.hasOwn(files, request.path) ? files[request.path] : undefined
  if (!bytes) return void res.writeHead(404, corsHeaders).end()
  const size = bytes.length
  const range = fault.ignoreRange ? { kind: 'whole' as const } : parseRange(request.range ?? undefined, size)
  if (range.kind === 'unsatisfiable') return void res.writeHead(416, { ...corsHeaders, 'Content-Range': `bytes */${size}` }).end()
  const [start, end] = range.kind === 'range' ? [range.start, range.end] : [0, size - 1]
  const headers: Record<string, string> = { ...corsHeaders, 'Accept-Ranges': 'bytes', 'Content-Length': String(end - start + 1) }
  if (range.kind === 'range') headers['Content-Range'] = `bytes ${start}-${end}/${size}`
  if (fault.contentRange !== undefined) headers['Content-Range'] = fault.contentRange
  if (fault.hideContentRange) delete headers['Content-Range']
  let body = bytes.subarray(start, end + 1)
  if (fault.truncate !== undefined) {
    body = body.subarray(0, body.length - fault.truncate)
    headers['Content-Length'] = String(body.length)
  }
  res.writeHead(range.kind === 'range' ? 206 : 200, headers)
  res.end(request.method === 'HEAD' ? undefined : body)
}
