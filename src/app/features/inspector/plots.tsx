/**
 * The Inspector's plots with their axes (PlotFrame): the waveform (time × amplitude), the display spectrogram
 * (time × frequency, dB colour bar), the fbank model input (time × mel bin) and the SpecAugment STFT; each shows the
 * play-head, and its caption says what it is and lists the masks drawn over it.
 */
import type { DisplaySpectrogram } from '../../../engine/features/display-spectrogram.ts'
import { HeatmapCanvas, heatmapRange, type HeatmapMask } from './heatmap-canvas.tsx'
import { amplitudeTicks, binTicks, hzTicks, PlotFrame } from './plot-frame.tsx'
import { WaveformCanvas, windowPeak } from './waveform-canvas.tsx'

function Caption({ label, masks = [] }: { label: string; masks?: HeatmapMask[] }) {
  return (
    <figcaption>
      {label}
      {masks.length > 0 && <ul className="mask-list">{masks.map((m, i) => <li key={i}>{m.label}: {m.axis === 'time' ? 'frames' : 'bins'} {m.start}–{m.start + m.length - 1} ({m.length})</li>)}</ul>}
    </figcaption>
  )
}

export function WaveformPlot({ samples, sampleRate, start, end, playhead, onSeek, label, fixedScale, testId, height = 120 }: {
  samples: Float32Array
  sampleRate: number
  start: number
  end: number
  playhead: number | null
  onSeek?: (seconds: number) => void
  label: string
  fixedScale?: boolean
  testId?: string
  height?: number
}) {
  const peak = fixedScale ? 1 : windowPeak(samples, start, end)
  return (
    <figure className="plot">
      <PlotFrame start={start / sampleRate} end={end / sampleRate} yTicks={amplitudeTicks(peak)} yLabel="amplitude" playhead={playhead} height={height}>
        <WaveformCanvas testId={testId} samples={samples} sampleRate={sampleRate} start={start} end={end} fixedScale={fixedScale} onSeek={onSeek} label={label} height={height} />
      </PlotFrame>
      <Caption label={label} />
    </figure>
  )
}

/** A dB spectrogram (display, or the SpecAugment STFT) of `spec`: time from its first sample, frequency up to Nyquist. */
export function SpectrogramPlot({ spec, playhead, label, testId, masks, height = 180 }: {
  spec: DisplaySpectrogram
  playhead: number | null
  label: string
  testId?: string
  masks?: HeatmapMask[]
  height?: number
}) {
  const [lo, hi] = heatmapRange(spec.data, 80)
  const t0 = spec.start / spec.sampleRate
  const t1 = t0 + (Math.max(0, spec.frames - 1) * spec.hop + spec.nFft) / spec.sampleRate
  return (
    <figure className="plot">
      <PlotFrame start={t0} end={t1} yTicks={hzTicks(spec.sampleRate / 2)} yLabel="frequency" colorBar={{ lo, hi, unit: 'dB' }} playhead={playhead} height={height}>
        <HeatmapCanvas testId={testId} data={spec.data} frames={spec.frames} bins={spec.bins} masks={masks} floorRange={80} label={label} height={height} />
      </PlotFrame>
      <Caption label={`${label} (n_fft ${spec.nFft}, hop ${spec.hop})`} masks={masks} />
    </figure>
  )
}

/** The `[frames, 80]` fbank model input: 10 ms frames (25 ms windows), mel bins, standardized values. */
export function FbankPlot({ data, frames, bins, playhead, label, testId, masks, height = 180 }: {
  data: Float32Array
  frames: number
  bins: number
  playhead: number | null
  label: string
  testId?: string
  masks?: HeatmapMask[]
  height?: number
}) {
  const [lo, hi] = heatmapRange(data)
  return (
    <figure className="plot">
      <PlotFrame start={0} end={frames * 0.01 + 0.015} yTicks={binTicks(bins)} yLabel="mel bin" colorBar={{ lo, hi, unit: 'σ' }} playhead={playhead} height={height}>
        <HeatmapCanvas testId={testId} data={data} frames={frames} bins={bins} masks={masks} label={label} height={height} />
      </PlotFrame>
      <Caption label={label} masks={masks} />
    </figure>
  )
}
