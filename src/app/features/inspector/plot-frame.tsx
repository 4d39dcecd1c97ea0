/**
 * Axes around a canvas plot: time in seconds below, the y quantity (amplitude, frequency, mel bin) on the left, an
 * optional colour bar with its value range on the right, and the play-head drawn over the plot. The canvas itself
 * stays a plain picture; everything read as text is HTML.
 */
import type { ReactNode } from 'react'
import { viridisGradient } from './heatmap-canvas.tsx'

/** About `count` round tick values in `[lo, hi]`. */
export function niceTicks(lo: number, hi: number, count = 6): number[] {
  const span = hi - lo
  if (!(span > 0) || !Number.isFinite(span)) return [lo]
  const raw = span / count
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude
  const out: number[] = []
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + 1e-9 * step; v += step) out.push(Number(v.toPrecision(12)))
  return out
}

/** A tick label in seconds with as many decimals as the step needs to be exact (a 0.25 s step reads 0.25, 0.50, …). */
export function secondsLabel(v: number, step: number): string {
  let decimals = 0
  while (decimals < 4 && Math.abs(step * 10 ** decimals - Math.round(step * 10 ** decimals)) > 1e-9 * 10 ** decimals) decimals++
  return `${v.toFixed(decimals)} s`
}

export interface YTick {
  /** Position from the bottom, in [0, 1]. */
  at: number
  label: string
}

export function PlotFrame({ start, end, yTicks, yLabel, colorBar, playhead, children, height }: {
  /** Visible time range, seconds. */
  start: number
  end: number
  yTicks: YTick[]
  yLabel: string
  /** The value range the colours span (heat maps). */
  colorBar?: { lo: number; hi: number; unit: string }
  /** Play-head, seconds (drawn when inside the range). */
  playhead?: number | null
  children: ReactNode
  height: number
}) {
  const ticks = niceTicks(start, end, 8)
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : Math.max(end - start, 0.001)
  const x = (t: number) => `${(100 * (t - start)) / Math.max(end - start, 1e-9)}%`
  const headIn = playhead !== null && playhead !== undefined && playhead >= start && playhead <= end
  return (
    <div className={`plot-frame${colorBar ? ' with-bar' : ''}`} style={{ ['--plot-height' as string]: `${height}px` }}>
      <div className="plot-y" aria-hidden="true">
        <span className="plot-y-label">{yLabel}</span>
        {yTicks.map((t) => <span key={t.label} className="plot-y-tick" style={{ bottom: `${100 * t.at}%` }}>{t.label}</span>)}
      </div>
      <div className="plot-area">
        {children}
        {headIn && <div className="plot-playhead" style={{ left: x(playhead) }} aria-hidden="true" />}
      </div>
      {colorBar && (
        <div className="plot-bar" aria-label={`Colour scale from ${colorBar.lo.toFixed(1)} to ${colorBar.hi.toFixed(1)} ${colorBar.unit}`} role="img">
          <span className="plot-bar-hi">{colorBar.hi.toFixed(0)} {colorBar.unit}</span>
          <span className="plot-bar-ramp" style={{ background: viridisGradient() }} />
          <span className="plot-bar-lo">{colorBar.lo.toFixed(0)} {colorBar.unit}</span>
        </div>
      )}
      <div className="plot-x" aria-hidden="true">
        {ticks.map((t) => <span key={t} className="plot-x-tick" style={{ left: x(t) }}>{secondsLabel(t, step)}</span>)}
      </div>
    </div>
  )
}

/** Frequency ticks (Hz) for a linear-frequency spectrogram up to `nyquist`. */
export function hzTicks(nyquist: number): YTick[] {
  return niceTicks(0, nyquist, 4).filter((f) => f <= nyquist).map((f) => ({ at: f / nyquist, label: f >= 1000 ? `${f / 1000} kHz` : `${f} Hz` }))
}

/** Bin ticks for `bins` bins (mel bins of the fbank). */
export function binTicks(bins: number): YTick[] {
  return niceTicks(0, bins - 1, 4).map((b) => ({ at: bins > 1 ? (b + 0.5) / bins : 0.5, label: String(b) }))
}

/** Amplitude ticks for a waveform drawn at ±`peak`. */
export function amplitudeTicks(peak: number): YTick[] {
  const p = Number(peak.toPrecision(2))
  return [{ at: 1, label: `+${p}` }, { at: 0.5, label: '0' }, { at: 0, label: `−${p}` }]
}
