/**
 * Footers of every file of a dataset at bounded memory. A parsed hyparquet `FileMetaData` costs a few KiB of heap per
 * file (objects and BigInts for every column chunk), which at 100,000 files is more than the whole open should use;
 * its Thrift bytes are a few hundred bytes. So the store keeps the raw footer bytes of every file, packed into large
 * slabs (one allocation per 4 MiB, not one per file), dropping the oldest slab past a byte budget, and the parsed
 * footers of only the most recently used files. A footer that has left both is read again by the caller.
 */
import { parquetMetadata, type FileMetaData } from 'hyparquet'

const slabBytes = 4 * 1024 * 1024

interface Slab {
  bytes: Uint8Array
  used: number
  /** Paths whose bytes live here (dropped with the slab). */
  paths: string[]
}

interface Place { slab: Slab; offset: number; length: number }

/** Raw footer bytes (slabs, FIFO past `budgetBytes`) plus an LRU of parsed footers (`parsedLimit` entries). */
export class FooterStore {
  private readonly places = new Map<string, Place>()
  private readonly slabs: Slab[] = []
  private readonly parsed = new Map<string, FileMetaData>()
  private held = 0

  /**
   * @param budgetBytes raw footer bytes kept at most (default 128 MiB: ~200,000 footers of small files)
   * @param parsedLimit parsed footers kept at most (default 256)
   */
  constructor(readonly budgetBytes = 128 * 1024 * 1024, readonly parsedLimit = 256) {}

  /** Raw bytes held now (slabs allocated). */
  get bytes(): number {
    return this.held
  }

  /** Parsed footers held now. */
  get parsedCount(): number {
    return this.parsed.size
  }

  /**
   * Keeps the footer of `path`: `metadata` is what `parquetMetadata` parses (the Thrift `FileMetaData`, its 4-byte
   * length and the `PAR1` magic), `parsed` what it parses to (kept in the LRU).
   */
  put(path: string, metadata: Uint8Array | null, parsed?: FileMetaData): void {
    this.forget(path)
    if (metadata && metadata.byteLength > 0 && metadata.byteLength <= slabBytes && metadata.byteLength <= this.budgetBytes) {
      let slab = this.slabs[this.slabs.length - 1]
      if (!slab || slab.used + metadata.byteLength > slab.bytes.byteLength) {
        slab = { bytes: new Uint8Array(Math.min(slabBytes, Math.max(metadata.byteLength, this.budgetBytes))), used: 0, paths: [] }
        this.slabs.push(slab)
        this.held += slab.bytes.byteLength
        while (this.held > this.budgetBytes && this.slabs.length > 1) this.dropOldestSlab()
      }
      slab.bytes.set(metadata, slab.used)
      this.places.set(path, { slab, offset: slab.used, length: metadata.byteLength })
      slab.paths.push(path)
      slab.used += metadata.byteLength
    }
    if (parsed) this.remember(path, parsed)
  }

  /** The parsed footer of `path`, from the LRU or parsed again from its bytes; `undefined` when neither holds it. */
  get(path: string): FileMetaData | undefined {
    const hit = this.parsed.get(path)
    if (hit) {
      this.parsed.delete(path)
      this.parsed.set(path, hit)
      return hit
    }
    const place = this.places.get(path)
    if (!place) return undefined
    const bytes = place.slab.bytes.slice(place.offset, place.offset + place.length)
    const metadata = parquetMetadata(bytes.buffer)
    this.remember(path, metadata)
    return metadata
  }

  /** Whether the footer of `path` is held (parsed or raw). */
  has(path: string): boolean {
    return this.parsed.has(path) || this.places.has(path)
  }

  private remember(path: string, metadata: FileMetaData): void {
    this.parsed.delete(path)
    this.parsed.set(path, metadata)
    while (this.parsed.size > this.parsedLimit) this.parsed.delete(this.parsed.keys().next().value as string)
  }

  private forget(path: string): void {
    this.parsed.delete(path)
    this.places.delete(path) // its bytes stay in the slab until the slab goes
  }

  private dropOldestSlab(): void {
    const slab = this.slabs.shift()!
    this.held -= slab.bytes.byteLength
    for (const path of slab.paths) if (this.places.get(path)?.slab === slab) this.places.delete(path)
  }
}
