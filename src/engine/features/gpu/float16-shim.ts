/**
 * webgpu-utils 2.x reads the global `Float16Array` when its module loads (for f16 WGSL types). Node 20 has none, so
 * importing webgpu-utils there throws. mixscope's shaders use no f16, so a Uint16Array stand-in is enough; browsers
 * with a real Float16Array are left alone. Import this module before webgpu-utils (see layout.ts).
 */
const g = globalThis as { Float16Array?: unknown }
if (typeof g.Float16Array === 'undefined') g.Float16Array = Uint16Array
export {}
