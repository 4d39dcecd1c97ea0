/**
 * A recording, validating stand-in for a WebGPU device, so the GPU wiring (passes, bind groups, buffer sizes, dispatch
 * counts, submissions) is tested where no adapter exists. It runs no shader: mapped readbacks hold zeros. What it checks
 * is what WebGPU's validation would refuse, using the shaders' own reflection (webgpu-utils) for the `layout: 'auto'`
 * bind group layouts: a bind group must bind exactly the entry point's bindings with buffers of the right usage and at
 * least the binding's minimum size, a pass may only use bind groups made from its pipeline's layout, dispatches stay
 * within 65535 per dimension, copies and writes stay in bounds with COPY_SRC/COPY_DST, workgroups within 256
 * invocations and 16 KiB of workgroup memory (WebGPU's default limits). It also flags a wiring error WebGPU accepts:
 * one buffer written twice with different bytes before one submit (the passes recorded between see only the last).
 * Violations are reported like WebGPU's: as validation errors of the innermost error scope, else uncaptured.
 */
import '../../src/engine/features/gpu/float16-shim.ts' // webgpu-utils needs Float16Array, which Node 20 lacks
import {
  getSizeAndAlignmentOfUnsizedArrayElement, makeBindGroupLayoutDescriptors, makeShaderDataDefinitions,
  type ShaderDataDefinitions,
} from 'webgpu-utils'

/** WebGPU's constants (the spec's values), for Node where no WebGPU implementation defines them. */
export function installWebGpuConstants(): void {
  const g = globalThis as Record<string, unknown>
  g.GPUBufferUsage ??= { MAP_READ: 1, MAP_WRITE: 2, COPY_SRC: 4, COPY_DST: 8, INDEX: 16, VERTEX: 32, UNIFORM: 64, STORAGE: 128, INDIRECT: 256, QUERY_RESOLVE: 512 }
  g.GPUMapMode ??= { READ: 1, WRITE: 2 }
  g.GPUShaderStage ??= { VERTEX: 1, FRAGMENT: 2, COMPUTE: 4 }
}

const U = { MAP_READ: 1, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 64, STORAGE: 128 }
const kMaxWorkgroupsPerDimension = 65535
const kMaxInvocations = 256
const kMaxWorkgroupStorage = 16384

export class MockBuffer {
  readonly bytes: Uint8Array
  destroyed = false
  mapped = false
  constructor(readonly label: string, readonly size: number, readonly usage: number) { this.bytes = new Uint8Array(size) }
  async mapAsync(mode: number, offset = 0, size = this.size - offset): Promise<void> {
    if (!(this.usage & U.MAP_READ) || mode !== 1) throw new Error(`mock: mapAsync of ${this.label} without MAP_READ`)
    if (offset + size > this.size) throw new Error(`mock: mapAsync of ${this.label} past its end`)
    this.mapped = true
  }
  getMappedRange(offset = 0, size = this.size - offset): ArrayBuffer {
    if (!this.mapped) throw new Error(`mock: getMappedRange of unmapped ${this.label}`)
    return this.bytes.slice(offset, offset + size).buffer
  }
  unmap(): void { this.mapped = false }
  destroy(): void { this.destroyed = true }
}

/** A compute pipeline as created, with what reflection says about its entry point. */
export class MockPipeline {
  readonly layouts: GPUBindGroupLayoutDescriptor[]
  constructor(readonly label: string, readonly code: string, readonly entryPoint: string, readonly constants: Record<string, number>,
    readonly definitions: ShaderDataDefinitions) {
    this.layouts = makeBindGroupLayoutDescriptors(definitions, { compute: { entryPoint } })
  }
  getBindGroupLayout(index: number): MockLayout { return new MockLayout(this, index) }
}

export class MockLayout { constructor(readonly pipeline: MockPipeline, readonly index: number) {} }

export class MockBindGroup {
  constructor(readonly label: string, readonly layout: MockLayout, readonly buffers: Map<number, MockBuffer>) {}
}

/** One recorded compute pass. */
export interface RecordedPass {
  label: string
  pipeline: MockPipeline
  bindGroup: MockBindGroup
  workgroups: [number, number, number]
}

/** One recorded command: a compute pass or a buffer copy. */
export type RecordedCommand = { kind: 'pass'; pass: RecordedPass } |
  { kind: 'copy'; source: MockBuffer; sourceOffset: number; destination: MockBuffer; destinationOffset: number; size: number }

export class MockCommandBuffer { constructor(readonly label: string, readonly commands: RecordedCommand[]) {} }

/** The mock device and everything it recorded. */
export class MockGpuDevice {
  readonly label = 'mock'
  readonly buffers: MockBuffer[] = []
  readonly pipelines: MockPipeline[] = []
  /** Each `queue.submit`, with its command buffers. */
  readonly submissions: MockCommandBuffer[][] = []
  /** Every validation error, in order (also delivered to error scopes). */
  readonly errors: string[] = []
  /** Buffers written since the last submit, with the bytes of each write. */
  private pendingWrites = new Map<MockBuffer, Uint8Array[]>()
  private readonly scopes: { filter: string; error: { message: string } | null }[] = []
  readonly lost = new Promise<never>(() => {})
  readonly limits = { maxComputeWorkgroupsPerDimension: kMaxWorkgroupsPerDimension, maxComputeInvocationsPerWorkgroup: kMaxInvocations,
    maxComputeWorkgroupStorageSize: kMaxWorkgroupStorage }

  /** This mock as the GPUDevice the engine expects. */
  get device(): GPUDevice { return this as unknown as GPUDevice }

  private fail(message: string): void {
    this.errors.push(message)
    const scope = [...this.scopes].reverse().find((s) => s.filter === 'validation')
    if (scope) scope.error ??= { message }
  }

  addEventListener(): void {}
  pushErrorScope(filter: string): void { this.scopes.push({ filter, error: null }) }
  async popErrorScope(): Promise<{ message: string } | null> {
    const scope = this.scopes.pop()
    if (!scope) throw new Error('mock: popErrorScope without a scope')
    return scope.error
  }

  createBuffer({ label = '', size, usage }: GPUBufferDescriptor): MockBuffer {
    if ((usage & U.MAP_READ) && (usage & ~(U.MAP_READ | U.COPY_DST))) this.fail(`buffer ${label}: MAP_READ combines only with COPY_DST`)
    const buffer = new MockBuffer(label, size, usage)
    this.buffers.push(buffer)
    return buffer
  }

  createShaderModule({ code }: GPUShaderModuleDescriptor): { code: string } { return { code } }

  createComputePipeline({ label = '', compute }: GPUComputePipelineDescriptor): MockPipeline {
    const code = (compute.module as unknown as { code: string }).code
    const entryPoint = compute.entryPoint ?? ''
    const constants = (compute.constants ?? {}) as Record<string, number>
    const definitions = makeShaderDataDefinitions(code)
    if (!definitions.entryPoints[entryPoint]) this.fail(`pipeline ${label}: no entry point ${entryPoint}`)
    const declared = (keyword: string) =>
      new Map([...code.matchAll(new RegExp(`${keyword}\\s+(\\w+)\\s*:\\s*\\w+\\s*=\\s*([^;]+);`, 'g'))].map((m) => [m[1], m[2]]))
    const overrides = declared('override'), consts = declared('const')
    for (const name of Object.keys(constants)) if (!overrides.has(name)) this.fail(`pipeline ${label}: constant ${name} is no override of the shader`)
    const value = (name: string): number => {
      if (name in constants) return constants[name]
      const text = overrides.get(name) ?? consts.get(name)
      if (text === undefined) throw new Error(`mock: ${label} uses ${name}, which is neither an override nor a const`)
      return evaluate(text, value)
    }
    const size = code.match(/@compute\s*@workgroup_size\((\w+)\)/g)?.length ? evaluateWorkgroupSize(code, entryPoint, value) : 1
    if (size > kMaxInvocations) this.fail(`pipeline ${label}: workgroup of ${size} invocations > ${kMaxInvocations}`)
    const storage = workgroupStorageBytes(code, entryPoint, value)
    if (storage > kMaxWorkgroupStorage) this.fail(`pipeline ${label}: ${storage} bytes of workgroup memory > ${kMaxWorkgroupStorage}`)
    const pipeline = new MockPipeline(label, code, entryPoint, constants, definitions)
    this.pipelines.push(pipeline)
    return pipeline
  }

  createBindGroup({ label = '', layout, entries }: GPUBindGroupDescriptor): MockBindGroup {
    const l = layout as unknown as MockLayout
    const wanted = l.pipeline.layouts[l.index]?.entries ?? []
    const given = new Map<number, MockBuffer>()
    for (const e of entries) given.set(e.binding, (e.resource as GPUBufferBinding).buffer as unknown as MockBuffer)
    const wantedBindings = [...wanted].map((e) => e.binding).sort((a, b) => a - b)
    const givenBindings = [...given.keys()].sort((a, b) => a - b)
    if (wantedBindings.join() !== givenBindings.join()) {
      this.fail(`bind group ${label}: binds [${givenBindings}] but ${l.pipeline.label} (${l.pipeline.entryPoint}) uses [${wantedBindings}]`)
    }
    for (const e of wanted) {
      const buffer = given.get(e.binding)
      if (!buffer) continue
      const type = e.buffer?.type ?? 'uniform'
      if (type === 'uniform' ? !(buffer.usage & U.UNIFORM) : !(buffer.usage & U.STORAGE)) {
        this.fail(`bind group ${label}: binding ${e.binding} (${type}) is ${buffer.label} without ${type === 'uniform' ? 'UNIFORM' : 'STORAGE'} usage`)
      }
      const min = minBindingSize(l.pipeline.definitions, e.binding)
      if (buffer.size < min) this.fail(`bind group ${label}: binding ${e.binding} is ${buffer.label} of ${buffer.size} bytes < ${min}`)
      if (buffer.destroyed) this.fail(`bind group ${label}: binding ${e.binding} is destroyed ${buffer.label}`)
    }
    return new MockBindGroup(label, l, given)
  }

  createCommandEncoder({ label = '' }: GPUCommandEncoderDescriptor = {}): GPUCommandEncoder {
    const commands: RecordedCommand[] = []
    const fail = (message: string) => this.fail(message)
    const encoder = {
      beginComputePass({ label: passLabel = '' }: GPUComputePassDescriptor = {}) {
        let pipeline: MockPipeline | null = null, bindGroup: MockBindGroup | null = null
        return {
          setPipeline(p: MockPipeline) { pipeline = p },
          setBindGroup(index: number, group: MockBindGroup) {
            if (index !== 0) fail(`pass ${passLabel}: bind group ${index}`)
            bindGroup = group
          },
          dispatchWorkgroups(x: number, y = 1, z = 1) {
            if (!pipeline || !bindGroup) { fail(`pass ${passLabel}: dispatch without a pipeline and bind group`); return }
            if (bindGroup.layout.pipeline !== pipeline) {
              fail(`pass ${passLabel}: bind group ${bindGroup.label} was made for ${bindGroup.layout.pipeline.label}, not ${pipeline.label}`)
            }
            for (const n of [x, y, z]) {
              if (!Number.isInteger(n) || n < 0 || n > kMaxWorkgroupsPerDimension) fail(`pass ${passLabel}: dispatch of ${x}×${y}×${z} workgroups`)
            }
            commands.push({ kind: 'pass', pass: { label: passLabel, pipeline, bindGroup, workgroups: [x, y, z] } })
          },
          end() {},
        }
      },
      copyBufferToBuffer(source: MockBuffer, sourceOffset: number, destination: MockBuffer, destinationOffset: number, size: number) {
        if (!(source.usage & U.COPY_SRC)) fail(`copy from ${source.label} without COPY_SRC`)
        if (!(destination.usage & U.COPY_DST)) fail(`copy to ${destination.label} without COPY_DST`)
        if (size % 4 || sourceOffset % 4 || destinationOffset % 4) fail(`copy of ${size} bytes at ${sourceOffset} → ${destinationOffset}: not multiples of 4`)
        if (sourceOffset + size > source.size || destinationOffset + size > destination.size) {
          fail(`copy of ${size} bytes from ${source.label}@${sourceOffset} (${source.size}) to ${destination.label}@${destinationOffset} (${destination.size}) out of bounds`)
        }
        commands.push({ kind: 'copy', source, sourceOffset, destination, destinationOffset, size })
      },
      finish() { return new MockCommandBuffer(label, commands) },
    }
    return encoder as unknown as GPUCommandEncoder
  }

  readonly queue = {
    writeBuffer: (buffer: MockBuffer, offset: number, data: ArrayBuffer | ArrayBufferView) => {
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      if (!(buffer.usage & U.COPY_DST)) this.fail(`writeBuffer to ${buffer.label} without COPY_DST`)
      if (offset % 4 || bytes.byteLength % 4) this.fail(`writeBuffer of ${bytes.byteLength} bytes at ${offset} to ${buffer.label}: not multiples of 4`)
      if (offset + bytes.byteLength > buffer.size) this.fail(`writeBuffer of ${bytes.byteLength} bytes at ${offset} past the end of ${buffer.label} (${buffer.size})`)
      buffer.bytes.set(bytes.subarray(0, Math.max(0, buffer.size - offset)), offset)
      const writes = this.pendingWrites.get(buffer) ?? []
      writes.push(bytes.slice())
      this.pendingWrites.set(buffer, writes)
    },
    submit: (commandBuffers: MockCommandBuffer[]) => {
      const used = new Set<MockBuffer>()
      for (const cb of commandBuffers) for (const c of cb.commands) {
        if (c.kind === 'pass') for (const b of c.pass.bindGroup.buffers.values()) used.add(b)
        else { used.add(c.source); used.add(c.destination) }
      }
      for (const [buffer, writes] of this.pendingWrites) {
        if (!used.has(buffer) || writes.length < 2) continue
        if (writes.some((w) => !sameBytes(w, writes[0]))) {
          this.fail(`${buffer.label} was written ${writes.length} times with different bytes before one submit: its passes see only the last`)
        }
      }
      for (const b of used) if (b.destroyed || b.mapped) this.fail(`submit uses ${b.destroyed ? 'destroyed' : 'mapped'} ${b.label}`)
      this.pendingWrites = new Map()
      this.submissions.push(commandBuffers)
    },
  }

  /** The compute passes of every submission, in order. */
  passes(): RecordedPass[] {
    return this.submissions.flat().flatMap((cb) => cb.commands.flatMap((c) => (c.kind === 'pass' ? [c.pass] : [])))
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i])
}

/** Smallest buffer a binding accepts: its type's size, or for a runtime-sized array one element (WebGPU's minimum). */
function minBindingSize(defs: ShaderDataDefinitions, binding: number): number {
  for (const group of [defs.uniforms, defs.storages]) {
    for (const def of Object.values(group)) {
      if (def.group !== 0 || def.binding !== binding) continue
      if (def.size > 0) return def.size
      return getSizeAndAlignmentOfUnsizedArrayElement(def).size
    }
  }
  return 0
}

/** Evaluates an override's default expression: integers, other overrides, + − * / (integer division) and parentheses. */
function evaluate(text: string, value: (name: string) => number): number {
  const tokens = text.match(/\d+u?|[A-Za-z_]\w*|[-+*/()]/g) ?? []
  let at = 0
  const primary = (): number => {
    const t = tokens[at++]
    if (t === '(') { const v = sum(); at++; return v }
    if (t === undefined) throw new Error(`mock: cannot evaluate override ${text}`)
    return /^\d/.test(t) ? Number(t.replace(/u$/, '')) : value(t)
  }
  const product = (): number => {
    let v = primary()
    while (tokens[at] === '*' || tokens[at] === '/') v = tokens[at++] === '*' ? v * primary() : Math.trunc(v / primary())
    return v
  }
  const sum = (): number => {
    let v = product()
    while (tokens[at] === '+' || tokens[at] === '-') v = tokens[at++] === '+' ? v + product() : v - product()
    return v
  }
  return sum()
}

function evaluateWorkgroupSize(code: string, entryPoint: string, value: (name: string) => number): number {
  const m = code.match(new RegExp(`@compute\\s*@workgroup_size\\(([^)]*)\\)\\s*fn\\s+${entryPoint}\\b`))
  if (!m) return 1
  return m[1].split(',').map((d) => evaluate(d.trim(), value)).reduce((a, b) => a * b, 1)
}

/** Bytes of the `var<workgroup>` variables an entry point uses (directly or through the functions it calls). */
function workgroupStorageBytes(code: string, entryPoint: string, value: (name: string) => number): number {
  const bodies = new Map<string, string>()
  for (const m of code.matchAll(/fn\s+(\w+)\s*\(/g)) {
    let depth = 0, i = code.indexOf('{', m.index)
    const start = i
    for (; i < code.length; i++) { if (code[i] === '{') depth++; else if (code[i] === '}' && --depth === 0) break }
    bodies.set(m[1], code.slice(start, i + 1))
  }
  const reached = new Set<string>(), stack = [entryPoint]
  while (stack.length) {
    const f = stack.pop() as string
    if (reached.has(f) || !bodies.has(f)) continue
    reached.add(f)
    for (const name of bodies.keys()) if (new RegExp(`\\b${name}\\s*\\(`).test(bodies.get(f) as string)) stack.push(name)
  }
  const text = [...reached].map((f) => bodies.get(f)).join('\n')
  const scalar: Record<string, number> = { f32: 4, u32: 4, i32: 4, vec2f: 8, vec4f: 16, 'vec2<f32>': 8, 'vec4<f32>': 16 }
  let total = 0
  for (const m of code.matchAll(/var<workgroup>\s+(\w+)\s*:\s*(array<\s*([\w<>]+)\s*,\s*(\w+)\s*>|[\w<>]+)\s*;/g)) {
    if (!new RegExp(`\\b${m[1]}\\b`).test(text)) continue
    total += m[3] ? scalar[m[3]] * value(m[4]) : scalar[m[2]]
  }
  return total
}
