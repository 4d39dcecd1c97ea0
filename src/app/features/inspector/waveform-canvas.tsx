/**
 * A waveform on a canvas: min/max of the samples under each pixel column of the visible window `[start, end)`,
 * scaled to the window's largest |value| (or ±1), with a play-head. Clicking seeks. Non-finite samples are skipped
 * (and counted by the caller, never drawn as data).
 */
import { useEffect, useRef, type MouseEvent } from 'react'
import { useStore } from 'zustand'
import { cssColor, shownScheme, themeStore } from '../../lib/theme.ts'

/** The largest finite |value| of `samples[start, end)` (1 when all are 0): what a peak-scaled plot spans. */
export function windowPeak(samples: Float32Array, start: number, end: number): number {
  let peak = 0
  for (let i = start; i < end; i++) { const v = Math.abs(samples[i]); if (Number.isFinite(v) && v > peak) peak = v }
  return peak === 0 ? 1 : peak
}

export function WaveformCanvas({ samples, sampleRate, start, end, playhead, onSeek, label, fixedScale, height = 120, testId }: {
  samples: Float32Array
  sampleRate: number
  /** Visible window in samples. */
  start: number
  end: number
  /** Play-head position in seconds, or `null`. */
  playhead?: number | null
  onSeek?: (seconds: number) => void
  label: string
  /** Scale to ±1 (audio) instead of the window's peak (model input). */
  fixedScale?: boolean
  height?: number
  testId?: string
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const theme = useStore(themeStore, shownScheme) // a new theme, or the system's turning dark, draws again in its colours

  useEffect(() => {
    const c = canvas.current
    const context = c?.getContext('2d')
    if (!c || !context) return
    const width = c.clientWidth || 1000
    c.width = width
    c.height = height
    context.fillStyle = cssColor(c, '--panel', '#f6f8fa')
    context.fillRect(0, 0, width, height)
    const count = Math.max(0, end - start)
    if (count === 0) return
    const peak = fixedScale ? 1 : windowPeak(samples, start, end)
    const mid = height / 2
    context.strokeStyle = cssColor(c, '--border', '#d1d9e0')
    context.beginPath(); context.moveTo(0, mid); context.lineTo(width, mid); context.stroke()
    context.fillStyle = cssColor(c, '--accent', '#2563eb')
    for (let x = 0; x < width; x++) {
      const a = start + Math.floor((x * count) / width)
      const b = Math.max(a + 1, start + Math.floor(((x + 1) * count) / width))
      let lo = Infinity, hi = -Infinity
      for (let i = a; i < b && i < end; i++) { const v = samples[i]; if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v } }
      if (lo === Infinity) continue
      const y1 = mid - (hi / peak) * (mid - 2), y2 = mid - (lo / peak) * (mid - 2)
      context.fillRect(x, y1, 1, Math.max(1, y2 - y1))
    }
    if (playhead !== null && playhead !== undefined) {
      const x = ((playhead * sampleRate - start) / count) * width
      if (x >= 0 && x <= width) {
        context.fillStyle = cssColor(c, '--error', '#b42318')
        context.fillRect(x, 0, 2, height)
      }
    }
  }, [samples, sampleRate, start, end, playhead, fixedScale, height, theme])

  const seek = (event: MouseEvent<HTMLCanvasElement>) => {
    if (!onSeek) return
    const rect = event.currentTarget.getBoundingClientRect()
    const fraction = (event.clientX - rect.left) / rect.width
    onSeek((start + fraction * (end - start)) / sampleRate)
  }

  return <canvas ref={canvas} role="img" aria-label={label} data-testid={testId} onClick={seek}
    className={onSeek ? 'seekable' : undefined} style={{ width: '100%', height }} />
}
