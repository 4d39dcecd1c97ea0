/**
 * NumPy `.npy` (format 1.0) for float32 arrays: writing features (`mixscope fbank --out x.npy`) and decoded audio
 * (`mixscope decode --out x.npy`), reading goldens in tests.
 * See https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html.
 */

/** A float32 array with its shape, C order. */
export interface NpyArray {
  shape: number[]
  data: Float32Array
}

const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]

/** Encodes a little-endian float32 C-order array as `.npy` bytes. */
export function npyEncode(array: NpyArray): Uint8Array {
  const expected = array.shape.reduce((a, b) => a * b, 1)
  if (expected !== array.data.length) {
    throw new Error(`npy: shape [${array.shape.join(', ')}] holds ${expected} values, data has ${array.data.length}`)
  }
  const shape = array.shape.length === 1 ? `(${array.shape[0]},)` : `(${array.shape.join(', ')})`
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`
  const unpadded = magic.length + 4 + header.length + 1
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n'
  const out = new Uint8Array(magic.length + 4 + header.length + array.data.byteLength)
  out.set(magic, 0)
  out[6] = 1; out[7] = 0
  new DataView(out.buffer).setUint16(8, header.length, true)
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i)
  const body = new DataView(out.buffer, 10 + header.length)
  for (let i = 0; i < array.data.length; i++) body.setFloat32(4 * i, array.data[i], true)
  return out
}

/**
 * Decodes a `.npy` holding little-endian float32 in C order.
 * @throws on another dtype, Fortran order or a bad magic string
 */
export function npyDecode(bytes: Uint8Array): NpyArray {
  for (let i = 0; i < magic.length; i++) {
    if (bytes[i] !== magic[i]) throw new Error(`npy: not a .npy file (magic ${Array.from(bytes.slice(0, 6)).join(',')})`)
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const major = bytes[6]
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true)
  const headerStart = major === 1 ? 10 : 12
  const header = new TextDecoder().decode(bytes.subarray(headerStart, headerStart + headerLength))
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1]
  if (descr !== '<f4') throw new Error(`npy: only little-endian float32 ('<f4') is supported, got ${descr}`)
  if (/'fortran_order':\s*True/.test(header)) throw new Error('npy: Fortran-order arrays are not supported')
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1] ?? ''
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number)
  const count = shape.reduce((a, b) => a * b, 1)
  const start = headerStart + headerLength
  const data = new Float32Array(count)
  for (let i = 0; i < count; i++) data[i] = view.getFloat32(start + 4 * i, true)
  return { shape, data }
}
