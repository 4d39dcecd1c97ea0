/**
 * NumPy `.npy` (format 1.0) writer for float32 little-endian arrays, as `mixscope decode --out x.npy` writes them.
 */

/**
 * @param data C-order values
 * @param shape e.g. `[samples]` or `[samples, channels]`; its product must equal `data.length`
 */
export function toNpyFloat32(data: Float32Array, shape: number[]): Uint8Array {
  const count = shape.reduce((a, b) => a * b, 1)
  if (count !== data.length) throw new Error(`npy: shape [${shape.join(', ')}] holds ${count} values, got ${data.length}`)
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(', ')
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${dims}), }`
  // magic (6) + version (2) + length (2) + header + '\n', padded with spaces to a multiple of 64
  const total = Math.ceil((10 + header.length + 1) / 64) * 64
  header = header.padEnd(total - 10 - 1, ' ') + '\n'
  const out = new Uint8Array(total + data.length * 4)
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8], 0)
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i)
  const view = new DataView(out.buffer, total)
  for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i], true)
  return out
}
