/**
 * What an encoded audio file's header declares (`AudioSniff`), and the helpers every container's sniffer shares.
 * A leaf module: the container modules (wav.ts, flac.ts, ogg.ts, mp3.ts) and the dispatcher (sniff.ts) import it.
 */

/**
 * Container recognised by its magic bytes. `wav` includes RF64; `aiff` includes AIFC; `w64` is Sony Wave64,
 * `sphere` NIST SPHERE, `caf` Apple's Core Audio Format, `au` Sun/NeXT AU (either byte order); the rarer ones
 * libsndfile reads (rare-containers.ts): `ircam` IRCAM/Berkeley/CARL, `htk` HTK waveform, `avr` Audio Visual
 * Research, `wve` Psion WVE, `mat4` GNU Octave 2.0 / MATLAB 4.2, `pvf` Portable Voice Format, `paf` Ensoniq PARIS,
 * `svx` Amiga IFF 8SVX/16SV, `mpc2k` Akai MPC 2000, `voc` Creative VOC, `mat5` GNU Octave 2.1 / MATLAB 5, `sds` MIDI
 * Sample Dump Standard (sds.ts), `xi` FastTracker 2 Extended Instrument (xi.ts).
 */
export type AudioContainer = 'wav' | 'flac' | 'ogg' | 'mp3' | 'aiff' | 'caf' | 'w64' | 'sphere' | 'au' | 'ircam' | 'htk' | 'avr' | 'wve' | 'mat4' | 'pvf' | 'paf' | 'svx' | 'mpc2k' | 'voc' | 'mat5' | 'sds' | 'xi' | 'unknown'

/**
 * Codec inside the container: `pcm` integer PCM, `float` IEEE float PCM, `ulaw`/`alaw` G.711, `ima_adpcm` /
 * `ms_adpcm` WAV's IMA and Microsoft 4-bit ADPCM (`ima_adpcm` also AIFC's `ima4`), `gsm610` GSM 06.10 (WAV, Wave64,
 * AIFC), `dwvw` AIFC's Delta Word Variable Width, `alac` Apple Lossless in CAF, `g721` G.721 32 kbit/s ADPCM (WAV, AU), `g723` G.723 24 or 40 kbit/s ADPCM (AU; 3 or 5 bits per sample),
 * `dpcm` FastTracker 2 XI's 8- or 16-bit delta PCM, `mp3` MPEG Layer III (MP3 files, WAV).
 */
export type AudioCodec = 'pcm' | 'float' | 'ulaw' | 'alaw' | 'ima_adpcm' | 'ms_adpcm' | 'gsm610' | 'dwvw' | 'alac' | 'g721' | 'g723' | 'dpcm' | 'flac' | 'vorbis' | 'opus' | 'mp3'

/** What the header of an encoded audio file declares. */
export interface AudioSniff {
  container: AudioContainer
  codec: AudioCodec | null
  /**
   * Native sample rate in Hz, as the reference decoder (libsndfile) reports it. For Opus this is OpusHead's
   * `input_sample_rate` mapped to a rate Opus can decode at (8/12/16/24/48 kHz; 0 → 48 kHz), not the 48 kHz
   * WebCodecs outputs.
   */
  sampleRate: number | null
  channels: number | null
  /** Bits per sample of the source PCM (WAV, FLAC); `null` for lossy codecs. */
  bitsPerSample: number | null
  /**
   * Samples per channel as declared by the header: WAV data size / block align, FLAC STREAMINFO total samples
   * (`null` when 0 = unknown), Ogg last granule position (Opus: minus pre-skip, counted at **48 kHz**, see
   * `declaredFramesRate`), MP3 Xing/Info frame count × samples per frame minus the LAME encoder delay and padding.
   */
  declaredFrames: number | null
  /** Rate in Hz at which `declaredFrames` counts: equal to `sampleRate` except for Opus (always 48000). */
  declaredFramesRate: number | null
  /** Opus pre-skip in 48 kHz samples; MP3 LAME encoder delay in samples; otherwise `null`. */
  leadingSkip: number | null
  /** MP3 LAME end padding in samples; otherwise `null`. */
  trailingPadding: number | null
  /** Header problems, e.g. `truncated header`, `absurd channel count 1000000`. Empty when the header looks sane. */
  problems: string[]
  /**
   * Why the training reference's decoder (libsndfile 1.2, docs/reference-pipeline.md §10) cannot read this file
   * although the header is sane (FLAC in Ogg, a FLAC bit depth other than 8/16/24), else `null`. Decoding still works.
   */
  untrainable: string | null
}

/** Limits beyond which a header value is reported as absurd (libsndfile's SF_MAX_CHANNELS is 1024). */
const sniffLimits = {
  maxChannels: 1024,
  maxSampleRate: 768_000,
  /** 2^31 samples per channel (37 hours at 16 kHz). */
  maxFrames: 2 ** 31,
} as const

/** An empty sniff of `container`, to be filled in. */
export function blankSniff(container: AudioContainer, codec: AudioCodec | null = null): AudioSniff {
  return {
    container, codec, sampleRate: null, channels: null, bitsPerSample: null, declaredFrames: null,
    declaredFramesRate: null, leadingSkip: null, trailingPadding: null, problems: [], untrainable: null,
  }
}

/**
 * Header problems that stop training's decoder (libsndfile): all of `s.problems` but the ones it reads through, a
 * WAV data chunk shorter than its header declares (libsndfile reads the samples there are) and WAV's valid-bits
 * field.
 */
export function blockingProblems(s: AudioSniff): string[] {
  return s.problems.filter((p) => !/^(truncated data|valid bits)/.test(p))
}

/** Adds `problem` to `s` and returns it. */
export function withProblem(s: AudioSniff, problem: string): AudioSniff {
  s.problems.push(problem)
  return s
}

/** Adds the sanity problems common to every container (absurd channels, rate, length) and returns `s`. */
export function checkSane(s: AudioSniff): AudioSniff {
  if (s.channels !== null && (s.channels < 1 || s.channels > sniffLimits.maxChannels)) {
    s.problems.push(`absurd channel count ${s.channels}`)
  }
  if (s.sampleRate !== null && (s.sampleRate < 1 || s.sampleRate > sniffLimits.maxSampleRate)) {
    s.problems.push(`absurd sample rate ${s.sampleRate} Hz`)
  }
  if (s.declaredFrames !== null && (s.declaredFrames < 0 || s.declaredFrames >= sniffLimits.maxFrames)) {
    s.problems.push(`absurd declared length ${s.declaredFrames} samples per channel`)
  }
  return s
}
