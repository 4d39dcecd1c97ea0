/**
 * The kaldi-native-fbank reference row of the fbank benchmarks: runs the knf-fbank program that bench/knf/build.sh
 * builds (outside the repository) over the bench speech corpus, when `KNF_BIN` names it. Without it, the benchmarks
 * print "knf not built" and no figure.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SpeechCorpus } from '../browser/speech-corpus.ts'

/** What one knf run measured. */
export interface KnfRun {
  /** Commit knf was built at (f08a90c, as fairseq2 pins it). */
  commit: string
  frames: number
  /** Least process CPU time and least wall time of the passes, ms. */
  cpuMs: number
  wallMs: number
  /** `[frames, 80]` features of every utterance, back to back (from the first pass). */
  features: Float32Array
}

/** Runs knf over `corpus` (`passes` timed passes), or returns why it did not run. */
export function runKnf(corpus: SpeechCorpus, passes: number): KnfRun | string {
  const bin = process.env.KNF_BIN
  if (!bin) return 'knf not built (set KNF_BIN to the knf-fbank that bench/knf/build.sh builds; see bench/knf/README.md)'
  if (!existsSync(bin)) return `knf not built: KNF_BIN=${bin} does not exist (bench/knf/README.md)`
  const dir = mkdtempSync(join(tmpdir(), 'mixscope-knf-'))
  try {
    writeFileSync(join(dir, 'lengths.txt'), corpus.utterances.map((u) => u.samples).join('\n'))
    const stdout = execFileSync(bin, [String(corpus.sampleRate), join(corpus.dir, 'pcm.f32'), join(dir, 'lengths.txt'),
      String(passes), join(dir, 'features.f32')], { encoding: 'utf8' })
    const report = JSON.parse(stdout) as { knf: string; frames: number; cpuMs: number; wallMs: number }
    const bytes = readFileSync(join(dir, 'features.f32'))
    const features = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    return { commit: report.knf, frames: report.frames, cpuMs: report.cpuMs, wallMs: report.wallMs, features }
  } catch (error) {
    return `knf failed: ${(error as Error).message.split('\n')[0]}`
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Largest |a − b| between our features (per utterance) and knf's (back to back); NaN when the shapes differ. */
export function maxAbsDiffVsKnf(ours: { data: Float32Array }[], knf: Float32Array): number {
  let at = 0, worst = 0
  for (const f of ours) {
    for (let i = 0; i < f.data.length; i++) worst = Math.max(worst, Math.abs(f.data[i] - knf[at + i]))
    at += f.data.length
  }
  return at === knf.length ? worst : NaN
}
