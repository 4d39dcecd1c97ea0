/**
 * WGSL-first buffer layout (webgpu-utils): the structs in src/shaders/*.wgsl are the only definition of each buffer's
 * layout; TS fills them by field name through structured views and never computes a byte offset.
 */
import './float16-shim.ts'
import {
  getSizeAndAlignmentOfUnsizedArrayElement, makeShaderDataDefinitions, makeStructuredView, type ShaderDataDefinitions,
} from 'webgpu-utils'

export type { ShaderDataDefinitions }

const definitionsCache = new Map<string, ShaderDataDefinitions>()

/** Reflected structs, uniforms and storages of a WGSL module (cached per source text). */
export function shaderDefinitions(code: string): ShaderDataDefinitions {
  let defs = definitionsCache.get(code)
  if (!defs) {
    defs = makeShaderDataDefinitions(code)
    definitionsCache.set(code, defs)
  }
  return defs
}

/** Bytes of a uniform variable `name` of `code`, filled by field name. */
export function uniformBytes(code: string, name: string, values: Record<string, number>): ArrayBuffer {
  const def = shaderDefinitions(code).uniforms[name]
  if (!def) throw new Error(`gpu: shader has no uniform "${name}"`)
  const view = makeStructuredView(def)
  view.set(values)
  return view.arrayBuffer
}

/** Bytes of a runtime-sized storage array `name` of structs, one element per entry of `rows`. */
export function structArrayBytes(code: string, name: string, rows: Record<string, number>[]): ArrayBuffer {
  const def = shaderDefinitions(code).storages[name]
  if (!def) throw new Error(`gpu: shader has no storage "${name}"`)
  const { size } = getSizeAndAlignmentOfUnsizedArrayElement(def)
  const view = makeStructuredView(def, new ArrayBuffer(size * Math.max(rows.length, 1)))
  view.set(rows)
  return view.arrayBuffer
}
