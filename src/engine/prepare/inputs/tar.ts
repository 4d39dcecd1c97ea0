/**
 * The members of an (uncompressed) tar file of the input, read header by header through range reads: POSIX
 * ustar (with its 155-byte name prefix), GNU long names (`L`) and base-256 sizes, pax extended headers (`x`: `path`,
 * `size`; `g` global headers skipped). Members are not read here: a row's audio is the byte range of its member.
 * POSIX.1-2001 (pax) and GNU tar's formats as `tar` and Python's `tarfile` (what webdataset and NeMo write with) write
 * them. The members come one at a time (`tarMembers`): a tar of 10⁶ members is never held as a list.
 */
import type { InputFiles } from './input-files.ts'

/** One regular file of a tar. */
export interface TarMember {
  name: string
  /** Byte offset of its data in the tar. */
  start: number
  size: number
}

const BLOCK = 512
/** Bytes read at a time while walking headers (small members' headers come in one read). */
const WINDOW = 1024 * 1024

function cString(b: Uint8Array, at: number, n: number): string {
  let end = at
  while (end < at + n && b[end] !== 0) end++
  return new TextDecoder().decode(b.subarray(at, end))
}

/** A numeric header field: octal text, or GNU's base-256 (high bit of the first byte set). */
function numberField(b: Uint8Array, at: number, n: number): number {
  if (b[at] & 0x80) {
    let v = b[at] & 0x7f
    for (let i = 1; i < n; i++) v = v * 256 + b[at + i]
    return v
  }
  const s = cString(b, at, n).trim()
  return s ? Number.parseInt(s, 8) : 0
}

/** pax records `<len> <key>=<value>\n`; `<len>` counts bytes (of UTF-8), so records are cut from the bytes. */
function paxRecords(bytes: Uint8Array): Map<string, string> {
  const decoder = new TextDecoder()
  const out = new Map<string, string>()
  let at = 0
  while (at < bytes.length) {
    const space = bytes.indexOf(0x20, at)
    if (space < 0) break
    const len = Number.parseInt(decoder.decode(bytes.subarray(at, space)), 10)
    if (!(len > 0) || at + len > bytes.length) break
    const record = decoder.decode(bytes.subarray(space + 1, at + len - 1))
    const eq = record.indexOf('=')
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1))
    at += len
  }
  return out
}

/**
 * The regular files of tar `path`, in order (all of them, as a list: `tarMembers` gives them one at a time).
 * @throws Error `<path>: not a tar file (…)` on a header whose checksum does not match
 */
export async function listTar(input: InputFiles, path: string, signal?: AbortSignal): Promise<TarMember[]> {
  const members: TarMember[] = []
  for await (const m of tarMembers(input, path, signal)) members.push(m)
  return members
}

/**
 * The regular files of tar `path`, in order, one at a time as its headers are read (memory: one 1 MiB window).
 * @throws Error `<path>: not a tar file (…)` on a header whose checksum does not match (after the members before it)
 */
export async function* tarMembers(input: InputFiles, path: string, signal?: AbortSignal): AsyncGenerator<TarMember> {
  const size = input.sizes.get(path) ?? 0
  let window: Uint8Array = new Uint8Array(0)
  let windowStart = 0
  const bytesAt = async (at: number, n: number): Promise<Uint8Array> => {
    if (at < windowStart || at + n > windowStart + window.length) {
      windowStart = at
      window = await input.source.read(path, at, Math.min(size, at + Math.max(n, WINDOW)), { signal })
    }
    return window.subarray(at - windowStart, at - windowStart + n)
  }
  let at = 0
  let longName: string | null = null
  let pax: Map<string, string> | null = null
  while (at + BLOCK <= size) {
    const h = await bytesAt(at, BLOCK)
    if (h.every((x) => x === 0)) break
    let sum = 0
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]
    if (sum !== numberField(h, 148, 8)) throw new Error(`${path}: not a tar file (bad header checksum at byte ${at})`)
    const type = String.fromCharCode(h[156] || 0x30)
    const prefix = cString(h, 257, 6) === 'ustar' ? cString(h, 345, 155) : ''
    let name = prefix ? `${prefix}/${cString(h, 0, 100)}` : cString(h, 0, 100)
    let memberSize = numberField(h, 124, 12)
    if (pax?.has('size')) memberSize = Number(pax.get('size'))
    const data = at + BLOCK
    const next = data + Math.ceil(memberSize / BLOCK) * BLOCK
    if (type === 'L') {
      longName = cString(await bytesAt(data, memberSize), 0, memberSize)
    } else if (type === 'x') {
      pax = paxRecords((await bytesAt(data, memberSize)).slice())
    } else if (type === 'g') {
      // global pax header: nothing here needs it
    } else {
      if (pax?.has('path')) name = pax.get('path')!
      else if (longName !== null) name = longName
      if (type === '0' || type === '\0' || type === '7') yield { name, start: data, size: memberSize }
      longName = null
      pax = null
    }
    at = next
  }
}
