// Audio decoding in the browser for e2e/audio.spec.ts: bytes in and samples out as base64 (exact float32 bits).
import {
  type BatchDecoder,
  createAudioPool,
  createDecodePool,
  decodeAudio,
  decodeMany,
  featurizeBatches,
  hasWebCodecs,
  inThreadBatchDecoder,
} from '../../src/engine/index.ts'
import type { DecodeManyOptions } from '../../src/engine/audio/decode.ts'
import type { DecodeOptions } from '../../src/engine/audio/types.ts'

function fromBase64(s: string): Uint8Array {
  const bin = atob(s)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

function toBase64(bytes: Uint8Array): string {
  let bin = ''
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(bin)
}

/** Decoded audio as plain data: channels are base64 of float32 little-endian samples. */
export interface HarnessDecoded {
  sampleRate: number
  frames: number
  decoder: string
  container: string
  codec: string | null
  warnings: string[]
  trainable: boolean
  untrainable: string | null
  channels: string[]
}

function fnv(channels: Float32Array[]): number {
  let h = 0x811c9dc5
  for (const c of channels) {
    const bytes = new Uint8Array(c.buffer, c.byteOffset, c.byteLength)
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193)
  }
  return h >>> 0
}

export function register(h: Record<string, unknown>): void {
  h.hasWebCodecs = () => hasWebCodecs()
  h.decodeAudio = async (base64: string, options: DecodeOptions = {}): Promise<HarnessDecoded | { error: string }> => {
    try {
      const d = await decodeAudio(fromBase64(base64), options)
      return {
        sampleRate: d.sampleRate, frames: d.frames, decoder: d.decoder, container: d.container, codec: d.codec, warnings: d.warnings,
        trainable: d.trainable, untrainable: d.untrainable, channels: d.channels.map((c) => toBase64(new Uint8Array(c.buffer, c.byteOffset, c.byteLength))),
      }
    } catch (e) {
      return { error: (e as Error).message }
    }
  }
  // featurizeBatches with the decode stage on helper Workers (the pool the engine worker starts) or in this thread:
  // per batch, per item: ok, frames, decoder, and an FNV-1a hash of the samples' bytes (compares the two exactly)
  h.featurizeThrough = async (batches: { id: string; base64: string }[][], where: 'pool' | 'broken-pool' | 'in-thread', helpers = 2) => {
    const pool = where === 'pool' ? createDecodePool(helpers + 1)
      : where === 'broken-pool' ? createAudioPool({ helpers, selfLane: false, workerUrl: new URL('/no-such-helper.js', location.href) }) : null
    const decoder: BatchDecoder = pool?.decoder ?? inThreadBatchDecoder()
    const out: { lanes: number; batches: { id: string; ok: boolean; frames?: number; decoder?: string; hash?: number; error?: string }[][] } = { lanes: decoder.lanes, batches: [] }
    try {
      const items = batches.map((b) => b.map((i) => ({ id: i.id, bytes: fromBase64(i.base64) })))
      for await (const b of featurizeBatches(items, decoder, (audio) => audio.map((a) => a.frames))) {
        out.batches.push(b.decoded.map((r, k) => (r.ok
          ? { id: r.id, ok: true, frames: b.features[k] ?? -1, decoder: r.audio.decoder, hash: fnv(r.audio.channels) }
          : { id: r.id, ok: false, error: r.error })))
      }
    } finally {
      pool?.close()
    }
    return out
  }
  h.decodeManyOk = async (items: { id: string; base64: string }[], options: DecodeManyOptions = {}) => {
    const results = await decodeMany(items.map((i) => ({ id: i.id, bytes: fromBase64(i.base64) })), options)
    return results.map((r) => (r.ok ? { id: r.id, ok: true, frames: r.audio.frames, decoder: r.audio.decoder } : { id: r.id, ok: false, error: r.error }))
  }
}
