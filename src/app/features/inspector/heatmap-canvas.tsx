/**
 * A `[frames, bins]` heat map on a canvas (its axes and caption come from the caller: PlotFrame) (time left to right, bin 0 at the bottom), with masks drawn over it:
 * time masks as shaded columns, frequency masks as shaded rows. Values outside the finite range (NaN, ±inf) are drawn
 * in a hatch colour and never enter the colour scale.
 */
import { useEffect, useRef } from 'react'
import type { Mask } from '../../../engine/features/dsp/spec-augment.ts'

export interface HeatmapMask extends Mask {
  /** Legend text, e.g. `"frequency" mask (time frames)`. */
  label: string
}

/** Viridis-like ramp, 5 stops. */
const stops: [number, number, number][] = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]]
const nonFiniteColour: [number, number, number] = [255, 0, 255]

function colour(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1)
  const i = Math.min(stops.length - 2, Math.floor(x))
  const f = x - i
  const a = stops[i], b = stops[i + 1]
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f]
}

/** The colour ramp as a CSS gradient, low values at the bottom (for colour bars). */
export function viridisGradient(): string {
  return `linear-gradient(to top, ${stops.map(([r, g, b], i) => `rgb(${r} ${g} ${b}) ${(100 * i) / (stops.length - 1)}%`).join(', ')})`
}

/** The finite range of `data`, clipped below at `max − floorRange` when given (dB pictures): what the colours span. */
export function heatmapRange(data: Float32Array, floorRange?: number): [number, number] {
  let lo = Infinity, hi = -Infinity
  for (const v of data) if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v }
  if (!Number.isFinite(lo)) return [0, 1]
  if (floorRange !== undefined) lo = Math.max(lo, hi - floorRange)
  return hi > lo ? [lo, hi] : [lo - 1, hi + 1]
}

export function HeatmapCanvas({ data, frames, bins, label, masks = [], floorRange, height = 180, testId }: {
  data: Float32Array
  frames: number
  bins: number
  label: string
  masks?: HeatmapMask[]
  /** Colour only the top `floorRange` of the value range (e.g. 80 for dB). */
  floorRange?: number
  height?: number
  testId?: string
}) {
  const canvas = useRef<HTMLCanvasElement>(null)

  useEffect(() => {
    const c = canvas.current
    const context = c?.getContext('2d')
    if (!c || !context) return
    const width = c.clientWidth || 1000
    c.width = width
    c.height = height
    context.fillStyle = '#101418'
    context.fillRect(0, 0, width, height)
    if (frames === 0 || bins === 0) return
    const image = new ImageData(frames, bins)
    const [lo, hi] = heatmapRange(data, floorRange)
    for (let t = 0; t < frames; t++) {
      for (let b = 0; b < bins; b++) {
        const v = data[t * bins + b]
        const [r, g, bl] = Number.isFinite(v) ? colour((v - lo) / (hi - lo)) : nonFiniteColour
        const at = ((bins - 1 - b) * frames + t) * 4
        image.data[at] = r; image.data[at + 1] = g; image.data[at + 2] = bl; image.data[at + 3] = 255
      }
    }
    const offscreen = new OffscreenCanvas(frames, bins)
    offscreen.getContext('2d')?.putImageData(image, 0, 0)
    context.imageSmoothingEnabled = false
    context.drawImage(offscreen, 0, 0, width, height)
    const dx = width / frames, dy = height / bins
    for (const m of masks) {
      context.fillStyle = 'rgba(255, 255, 255, 0.35)'
      context.strokeStyle = '#ff4d4d'
      context.lineWidth = 2
      if (m.axis === 'time') {
        const x = Math.min(m.start, frames) * dx, w = (Math.min(m.start + m.length, frames) - Math.min(m.start, frames)) * dx
        context.fillRect(x, 0, w, height)
        context.strokeRect(x, 1, Math.max(w, 1), height - 2)
      } else {
        const y = height - Math.min(m.start + m.length, bins) * dy, h = (Math.min(m.start + m.length, bins) - Math.min(m.start, bins)) * dy
        context.fillRect(0, y, width, h)
        context.strokeRect(1, y, width - 2, Math.max(h, 1))
      }
    }
  }, [data, frames, bins, masks, floorRange, height])

  return <canvas ref={canvas} role="img" aria-label={`${label}${frames > 0 ? ` — ${frames} frames × ${bins} bins` : ' — no frames'}`} data-testid={testId} style={{ width: '100%', height }} />
}
