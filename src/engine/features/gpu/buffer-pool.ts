/**
 * Buffers reused across batches: one buffer per role (label), grown to the next power of two when a batch needs more,
 * so steady-state batches allocate nothing.
 */

/** A pool of storage, uniform and readback buffers for one device. */
export class BufferPool {
  private readonly buffers = new Map<string, GPUBuffer>()
  /** Buffers created so far (tests check that a second batch of the same size creates none). */
  created = 0

  constructor(readonly device: GPUDevice) {}

  /**
   * The buffer for `label` with at least `size` bytes and exactly `usage`.
   * @param size bytes; rounded up to a multiple of 16 and at least 16
   */
  get(label: string, size: number, usage: GPUBufferUsageFlags): GPUBuffer {
    const needed = Math.max(16, Math.ceil(size / 16) * 16)
    const existing = this.buffers.get(label)
    if (existing && existing.size >= needed && existing.usage === usage) return existing
    existing?.destroy()
    let rounded = 16
    while (rounded < needed) rounded *= 2
    const buffer = this.device.createBuffer({ label, size: rounded, usage })
    this.created++
    this.buffers.set(label, buffer)
    return buffer
  }

  /** A storage buffer holding `data` (written with queue.writeBuffer, ordered before the next submit). */
  upload(label: string, data: ArrayBufferView | ArrayBuffer, extraUsage = 0): GPUBuffer {
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    const buffer = this.get(label, bytes.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | extraUsage)
    this.device.queue.writeBuffer(buffer, 0, bytes as Uint8Array<ArrayBuffer>)
    return buffer
  }

  /** A uniform buffer holding `data`. */
  uniform(label: string, data: ArrayBuffer): GPUBuffer {
    const buffer = this.get(label, data.byteLength, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST)
    this.device.queue.writeBuffer(buffer, 0, data)
    return buffer
  }

  /** Destroys every buffer. */
  destroy(): void {
    for (const b of this.buffers.values()) b.destroy()
    this.buffers.clear()
  }
}

/** Dispatch size for `count` workgroups, split over x and y when count exceeds the per-dimension limit. */
export function dispatchSize(count: number, limit = 65535): [number, number] {
  if (count <= limit) return [Math.max(count, 1), 1]
  const y = Math.ceil(count / limit)
  return [Math.ceil(count / y), y]
}

/**
 * Copies `sources` (buffer, bytes) one after another into one MAP_READ buffer in `encoder` and returns a function that,
 * after submit, maps it and returns the bytes of each source: ONE readback per batch.
 */
export function recordReadback(pool: BufferPool, encoder: GPUCommandEncoder, label: string,
  sources: { buffer: GPUBuffer; bytes: number }[]): () => Promise<ArrayBuffer[]> {
  const offsets: number[] = []
  let total = 0
  for (const s of sources) { offsets.push(total); total += Math.ceil(s.bytes / 4) * 4 }
  const staging = pool.get(label, total, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST)
  sources.forEach((s, i) => { if (s.bytes > 0) encoder.copyBufferToBuffer(s.buffer, 0, staging, offsets[i], Math.ceil(s.bytes / 4) * 4) })
  return async () => {
    await staging.mapAsync(GPUMapMode.READ, 0, Math.max(total, 4))
    const mapped = staging.getMappedRange(0, Math.max(total, 4))
    const out = sources.map((s, i) => mapped.slice(offsets[i], offsets[i] + s.bytes))
    staging.unmap()
    return out
  }
}
