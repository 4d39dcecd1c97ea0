/**
 * The training tokenizer: a SentencePiece `.model` run through @sctg/sentencepiece-js (SentencePiece compiled
 * to WebAssembly), encoding like fairseq2's raw encoder for the omniASR tokenizers: plain `EncodeAsIds`, no
 * BOS/EOS, no sampling (docs/reference-pipeline.md §8 step 5). `unkId` / `padId` follow sentencepiece's `unk_id()` /
 * `pad_id()`: the id of the trainer spec's unk / pad piece when that piece has the UNKNOWN / CONTROL type.
 *
 * Bytes in, no file system: the package's own loaders read files (`load`) or use Node's `Buffer`
 * (`loadFromB64StringModel`), so this calls its internal byte loader. The package (4 MB, the wasm inlined as a
 * data URI) is imported lazily, on the first `loadSpmTokenizer`.
 */

import { readSpmModelProto, spmPieceType, type SpmModelInfo } from './spm-model-proto.ts'

/** A loaded SentencePiece model. */
export interface SpmTokenizer {
  /** Token ids of `text`, no BOS/EOS (fairseq2 raw encoder). */
  encode(text: string): number[]
  /** Pieces of `text` (for display). */
  encodePieces(text: string): string[]
  /** Vocabulary size (number of pieces). */
  readonly vocabSize: number
  /** Piece strings in id order. */
  readonly pieces: readonly string[]
  /** sentencepiece `unk_id()`; `null` when the model has none. */
  readonly unkId: number | null
  /** sentencepiece `pad_id()`; `null` when the model has no pad piece (fairseq2 `pad_idx = None`). */
  readonly padId: number | null
  readonly bosId: number | null
  readonly eosId: number | null
  /** Frees the WebAssembly objects; the tokenizer is unusable afterwards. */
  dispose(): void
}

/** The embind objects of the package that this module touches. */
interface EmbindObject { delete(): void }
interface SpmModule {
  StringView: new (text: string) => EmbindObject & { getView(): EmbindObject }
}
interface SpmProcessorInstance {
  sentencepiece: SpmModule
  processor: EmbindObject & { PieceToId(view: EmbindObject): number }
  encodeIds(text: string): number[]
  encodePieces(text: string): string[]
}

function specialId(info: SpmModelInfo, piece: string, type: number): number | null {
  const id = info.pieces.findIndex((p) => p.piece === piece)
  return id >= 0 && info.pieces[id].type === type ? id : null
}

/**
 * Loads a SentencePiece model from its bytes.
 * @param modelBytes the `.model` file.
 * @throws Error (`spm: ...`) for bytes that are not a SentencePiece model, or when the WebAssembly processor
 *   disagrees with the file about the unknown piece (the package does not report load failures itself).
 */
export async function loadSpmTokenizer(modelBytes: Uint8Array): Promise<SpmTokenizer> {
  const info = readSpmModelProto(modelBytes)
  const { SentencePieceProcessor } = await import('@sctg/sentencepiece-js')
  const processor = new SentencePieceProcessor()
  await (processor as unknown as { _loadModel(bytes: Uint8Array): Promise<void> })._loadModel(modelBytes)
  const wasm = processor as unknown as SpmProcessorInstance

  const unkId = specialId(info, info.unkPiece, spmPieceType.unknown)
  const probe = info.unkPiece
  const view = new wasm.sentencepiece.StringView(probe)
  const absl = view.getView()
  const wasmUnk = wasm.processor.PieceToId(absl)
  absl.delete()
  view.delete()
  if (unkId !== null && wasmUnk !== unkId) {
    throw new Error(`spm: the WebAssembly processor did not load the model (unk piece ${JSON.stringify(probe)} has id ${wasmUnk} there, ${unkId} in the file)`)
  }
  let disposed = false
  const live = () => { if (disposed) throw new Error('spm: tokenizer used after dispose()') }
  return {
    encode: (text) => { live(); return wasm.encodeIds(text) },
    encodePieces: (text) => { live(); return wasm.encodePieces(text) },
    vocabSize: info.pieces.length,
    pieces: info.pieces.map((p) => p.piece),
    unkId,
    padId: specialId(info, info.padPiece, spmPieceType.control),
    bosId: specialId(info, info.bosPiece, spmPieceType.control),
    eosId: specialId(info, info.eosPiece, spmPieceType.control),
    dispose: () => { if (!disposed) { disposed = true; wasm.processor.delete() } },
  }
}
