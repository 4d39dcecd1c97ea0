/**
 * Minimal reader of a SentencePiece `.model` file (a protobuf `ModelProto`, sentencepiece_model.proto): the
 * pieces with their types, and the trainer spec's special ids and piece strings. Only what mixscope needs to
 * expose `unk` / `pad` the way sentencepiece's `unk_id()` / `pad_id()` compute them.
 */

/** `SentencePiece.Type` values. */
export const spmPieceType = { normal: 1, unknown: 2, control: 3, userDefined: 4, unused: 5, byte: 6 } as const

/** One vocabulary entry. */
export interface SpmPiece {
  piece: string
  score: number
  /** See `spmPieceType`; protobuf default NORMAL (1). */
  type: number
}

/** What `readSpmModelProto` extracts. */
export interface SpmModelInfo {
  /** Vocabulary in id order. */
  pieces: SpmPiece[]
  /** TrainerSpec.model_type: 1 unigram, 2 bpe, 3 word, 4 char. */
  modelType: number
  unkPiece: string
  bosPiece: string
  eosPiece: string
  padPiece: string
}

class ProtoReader {
  position = 0
  constructor(readonly bytes: Uint8Array, readonly end = bytes.length) {}

  varint(): number {
    let result = 0
    let shift = 0
    for (;;) {
      if (this.position >= this.end) throw new Error(`spm: truncated model file (varint at byte ${this.position})`)
      const b = this.bytes[this.position++]
      result += (b & 0x7f) * 2 ** shift
      if (b < 0x80) return result
      shift += 7
      if (shift > 63) throw new Error(`spm: malformed varint at byte ${this.position}`)
    }
  }

  /** Calls `onField(field, wireType, reader)` for each field; `reader` is positioned at the value. */
  fields(onField: (field: number, wireType: number) => void): void {
    while (this.position < this.end) {
      const key = this.varint()
      const before = this.position
      onField(Math.floor(key / 8), key % 8)
      if (this.position === before) this.skip(key % 8)
    }
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint()
    else if (wireType === 1) this.position += 8
    else if (wireType === 2) {
      const length = this.varint() // read before adding: `position += varint()` would use the old position
      this.position += length
    }
    else if (wireType === 5) this.position += 4
    else throw new Error(`spm: unsupported protobuf wire type ${wireType} at byte ${this.position}`)
    if (this.position > this.end) throw new Error('spm: truncated model file')
  }

  sub(): ProtoReader {
    const length = this.varint()
    const reader = new ProtoReader(this.bytes, this.position + length)
    reader.position = this.position
    this.position += length
    if (this.position > this.end) throw new Error('spm: truncated model file')
    return reader
  }

  string(): string {
    const r = this.sub()
    return new TextDecoder('utf-8', { fatal: false }).decode(this.bytes.subarray(r.position, r.end))
  }

  float(): number {
    const value = new DataView(this.bytes.buffer, this.bytes.byteOffset + this.position, 4).getFloat32(0, true)
    this.position += 4
    return value
  }
}

/**
 * Parses the parts of a SentencePiece model file mixscope uses.
 * @param bytes the `.model` file.
 * @throws Error (`spm: ...`) when the bytes are not a readable ModelProto or hold no pieces.
 */
export function readSpmModelProto(bytes: Uint8Array): SpmModelInfo {
  const info: SpmModelInfo = { pieces: [], modelType: 1, unkPiece: '<unk>', bosPiece: '<s>', eosPiece: '</s>', padPiece: '<pad>' }
  const model = new ProtoReader(bytes)
  model.fields((field, wire) => {
    if (field === 1 && wire === 2) {
      const piece: SpmPiece = { piece: '', score: 0, type: spmPieceType.normal }
      const r = model.sub()
      r.fields((f, w) => {
        if (f === 1 && w === 2) piece.piece = r.string()
        else if (f === 2 && w === 5) piece.score = r.float()
        else if (f === 3 && w === 0) piece.type = r.varint()
      })
      info.pieces.push(piece)
    } else if (field === 2 && wire === 2) {
      const r = model.sub()
      r.fields((f, w) => {
        if (f === 3 && w === 0) info.modelType = r.varint()
        else if (w === 2 && f >= 45 && f <= 48) {
          const text = r.string()
          if (f === 45) info.unkPiece = text
          else if (f === 46) info.bosPiece = text
          else if (f === 47) info.eosPiece = text
          else info.padPiece = text
        }
      })
    }
  })
  if (info.pieces.length === 0) throw new Error(`spm: model file holds no vocabulary pieces (${bytes.length} bytes)`)
  return info
}
