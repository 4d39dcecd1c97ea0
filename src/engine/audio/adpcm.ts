/**
 * The two 4-bit ADPCM codecs of WAV that libsndfile reads (the training reference decodes with it), decoded as its
 * `ima_adpcm.c` (`wavlike_ima_decode_block`) and `ms_adpcm.c` (`msadpcm_decode_block`) do, block by block, to 16-bit
 * values / 32768:
 * - IMA ADPCM (WAVE format tag 0x11, Intel/DVI): per channel a 4-byte header (16-bit first sample, step index, 0),
 *   then per channel runs of 4 bytes (8 nibbles, low nibble first); `samplesPerBlock = 2·(blockAlign − 4·ch)/ch + 1`.
 * - Microsoft ADPCM (tag 0x02): per channel a predictor index, then per channel the 16-bit `idelta`, `sample1`,
 *   `sample2`; the block's first two samples are `sample2`, `sample1`; then nibbles high first, channels
 *   interleaved; libsndfile's fixed 7-pair coefficient table and adaptation table.
 * A block cut short at the end of the data is decoded as libsndfile decodes it: its bytes read over the previous
 * block's in the same buffer (zeros for a first block), the rest of that block left as it was.
 */

/** IMA ADPCM step sizes (89 entries) and index adjustments, from the IMA/DVI ADPCM recommendation. */
const IMA_STEP = [
  7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60, 66, 73, 80, 88, 97, 107, 118,
  130, 143, 157, 173, 190, 209, 230, 253, 279, 307, 337, 371, 408, 449, 494, 544, 598, 658, 724, 796, 876, 963, 1060,
  1166, 1282, 1411, 1552, 1707, 1878, 2066, 2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428, 4871, 5358, 5894, 6484,
  7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767,
]
const IMA_INDEX = [-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8]

/** Microsoft ADPCM's adaptation table and the 7 standard coefficient pairs (libsndfile `ms_adpcm.c`). */
const MS_ADAPTATION = [230, 230, 230, 230, 307, 409, 512, 614, 768, 614, 512, 409, 307, 230, 230, 230]
const MS_COEF1 = [256, 512, 0, 192, 240, 460, 392]
const MS_COEF2 = [0, -256, 0, 64, 0, -208, -232]

/** The ADPCM codecs: WAV's two, and Apple's IMA 4:1 of AIFC (`ima4`). */
export type AdpcmKind = 'ima_adpcm' | 'ms_adpcm' | 'ima4'

/** Where an ADPCM stream is and how it is cut. */
export interface AdpcmLayout {
  kind: AdpcmKind
  channels: number
  /** Bytes per block (the fmt chunk's block align). */
  blockAlign: number
  /** Frames each block decodes to (the fmt chunk's extension). */
  samplesPerBlock: number
  /** Byte offset and length of the data. */
  dataOffset: number
  dataBytes: number
}

const int16 = (v: number) => (v << 16) >> 16
const clamp16 = (v: number) => (v > 32767 ? 32767 : v < -32768 ? -32768 : v)

/** Frames per block the block size implies (libsndfile refuses an IMA file whose header says otherwise). */
export function adpcmSamplesPerBlock(kind: AdpcmKind, blockAlign: number, channels: number): number {
  return kind === 'ima_adpcm' ? Math.floor(2 * (blockAlign - 4 * channels) / channels) + 1 : Math.floor(2 * (blockAlign - 6 * channels) / channels)
}

/**
 * Blocks libsndfile reads in the data: for IMA ADPCM the whole ones and one cut short at the end
 * (`ima_reader_init`), for Microsoft ADPCM the whole ones only (measured with libsndfile 1.2).
 */
export function adpcmBlocks(kind: AdpcmKind, layout: Pick<AdpcmLayout, 'blockAlign' | 'dataBytes'>): number {
  return kind === 'ima_adpcm' ? Math.ceil(layout.dataBytes / layout.blockAlign) : Math.floor(layout.dataBytes / layout.blockAlign)
}

/**
 * Decodes frames `[0, frames)` of an ADPCM stream.
 * @param bytes the whole file
 * @returns planar `[channels][frames]` float32, libsndfile's 16-bit values / 32768
 */
export function decodeAdpcm(bytes: Uint8Array, layout: AdpcmLayout, frames: number): Float32Array[] {
  const { channels, blockAlign, samplesPerBlock } = layout
  const out = Array.from({ length: channels }, () => new Float32Array(frames))
  const block = new Uint8Array(blockAlign)
  const samples = new Int32Array(samplesPerBlock * channels)
  const end = layout.dataOffset + layout.dataBytes
  for (let b = 0, frame = 0; frame < frames; b++, frame += samplesPerBlock) {
    const at = layout.dataOffset + b * blockAlign
    // a block cut short keeps the previous block's bytes after what was read, as libsndfile's reused buffer does
    block.set(bytes.subarray(at, Math.min(end, at + blockAlign)))
    if (layout.kind === 'ima_adpcm') imaBlock(block, channels, samplesPerBlock, samples)
    else if (layout.kind === 'ima4') {
      // libsndfile counts 34-byte packets: a group whose packets run past the count decodes to zeros
      if ((b + 1) * channels > ima4Packets(layout.dataBytes)) samples.fill(0)
      else ima4Block(block, channels, samples)
    } else msBlock(block, channels, samplesPerBlock, samples)
    const n = Math.min(samplesPerBlock, frames - frame)
    for (let c = 0; c < channels; c++) {
      const ch = out[c]
      for (let i = 0; i < n; i++) ch[frame + i] = samples[i * channels + c] / 32768
    }
  }
  return out
}

/** One IMA ADPCM block into interleaved `samples` (`wavlike_ima_decode_block`). */
function imaBlock(block: Uint8Array, channels: number, perBlock: number, samples: Int32Array): void {
  const steps: number[] = []
  for (let c = 0; c < channels; c++) {
    samples[c] = int16(block[c * 4] | (block[c * 4 + 1] << 8))
    steps.push(Math.min(88, block[c * 4 + 2]))
  }
  // the nibbles to their sample positions: per channel 4 bytes = 8 samples, low nibble first
  let at = 4 * channels
  for (let indx = channels; at < block.length; indx += 8 * channels) {
    for (let c = 0; c < channels; c++) {
      let k = indx + c
      for (let j = 0; j < 4; j++) {
        const code = block[at++]
        if (k < samples.length) samples[k] = code & 0x0f
        k += channels
        if (k < samples.length) samples[k] = (code >> 4) & 0x0f
        k += channels
      }
    }
  }
  for (let c = 0; c < channels; c++) {
    let index = steps[c]
    let predictor = samples[c]
    for (let k = channels + c; k < perBlock * channels; k += channels) {
      const code = samples[k]
      predictor = clamp16(predictor + imaDiff(IMA_STEP[index], code))
      index = Math.min(88, Math.max(0, index + IMA_INDEX[code]))
      samples[k] = predictor
    }
  }
}

/** The IMA ADPCM difference a 4-bit `code` stands for at quantizer `step` (libsndfile's, bit by bit from `step >> 3`). */
function imaDiff(step: number, code: number): number {
  let diff = step >> 3
  if (code & 1) diff += step >> 2
  if (code & 2) diff += step >> 1
  if (code & 4) diff += step
  return code & 8 ? -diff : diff
}

/** Bytes of one AIFC `ima4` packet (one channel's 64 samples) and the samples it holds. */
export const IMA4_PACKET_BYTES = 34
export const IMA4_PACKET_SAMPLES = 64

/** 34-byte packets libsndfile counts in `dataBytes` of `ima4` data: a last one cut short counts (`ima_reader_init`). */
export function ima4Packets(dataBytes: number): number {
  return Math.ceil(dataBytes / IMA4_PACKET_BYTES)
}

/**
 * Frames libsndfile gives an AIFC `ima4` stream: 64 per packet, over the channels (integer division, as
 * `ima_reader_init`'s `samplesperblock * blocks / channels`).
 */
export function ima4Frames(dataBytes: number, channels: number): number {
  return Math.floor(IMA4_PACKET_SAMPLES * ima4Packets(dataBytes) / channels)
}

/**
 * One group of AIFC `ima4` packets (one per channel, in channel order) into interleaved `samples`, as libsndfile's
 * `aiff_ima_decode_block`: each packet starts with a 16-bit big-endian preamble, the predictor's top 9 bits and a
 * 7-bit step index (clamped to 88); then 32 bytes, 64 nibbles low first, each decoded from the preamble on (the
 * preamble is not a sample itself).
 */
function ima4Block(block: Uint8Array, channels: number, samples: Int32Array): void {
  for (let c = 0; c < channels; c++) {
    const p = c * IMA4_PACKET_BYTES
    let predictor = int16((block[p] << 8) | (block[p + 1] & 0x80))
    let index = Math.min(88, block[p + 1] & 0x7f)
    for (let k = 0; k < IMA4_PACKET_SAMPLES; k++) {
      const byte = block[p + 2 + (k >> 1)]
      const code = k & 1 ? (byte >> 4) & 0x0f : byte & 0x0f
      predictor = clamp16(predictor + imaDiff(IMA_STEP[index], code))
      index = Math.min(88, Math.max(0, index + IMA_INDEX[code]))
      samples[k * channels + c] = predictor
    }
  }
}

/** One Microsoft ADPCM block into interleaved `samples` (`msadpcm_decode_block`; its state is 16-bit shorts). */
function msBlock(block: Uint8Array, channels: number, perBlock: number, samples: Int32Array): void {
  const s16 = (i: number) => int16(block[i] | (block[i + 1] << 8))
  const pred = [0, 0]
  const delta = [0, 0]
  let at: number
  if (channels === 1) {
    pred[0] = block[0]
    delta[0] = s16(1)
    samples[1] = s16(3)
    samples[0] = s16(5)
    at = 7
  } else {
    pred[0] = block[0]
    pred[1] = block[1]
    delta[0] = s16(2)
    delta[1] = s16(4)
    samples[2] = s16(6)
    samples[3] = s16(8)
    samples[0] = s16(10)
    samples[1] = s16(12)
    at = 14
  }
  let k = 2 * channels
  for (; at < block.length && k < samples.length; at++) {
    samples[k++] = (block[at] >> 4) & 0x0f
    if (k < samples.length) samples[k++] = block[at] & 0x0f
  }
  for (k = 2 * channels; k < perBlock * channels; k++) {
    const c = channels > 1 ? k % 2 : 0
    let code = samples[k] & 0x0f
    const idelta = delta[c]
    delta[c] = int16((MS_ADAPTATION[code] * idelta) >> 8)
    if (delta[c] < 16) delta[c] = 16
    if (code & 0x8) code -= 0x10
    const p = pred[c] < 7 ? pred[c] : 0
    const predict = (samples[k - channels] * MS_COEF1[p] + samples[k - 2 * channels] * MS_COEF2[p]) >> 8
    samples[k] = clamp16(code * idelta + predict)
  }
}
