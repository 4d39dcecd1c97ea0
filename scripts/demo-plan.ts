/**
 * What the demo dataset holds: corpora, their codecs, rows per (corpus, split, language), and the planted defects.
 * Hours are deliberately unequal across languages and corpora, and not every language is in every corpus.
 */
import type { DemoLanguage } from './demo-sentences.ts'

/** One corpus of the demo. */
export interface DemoCorpus {
  name: string
  /** Rows per row group (ROW_GROUP_SIZE); the dataprep writes a fixed size, so a file's last group is smaller. */
  rowGroupSize: number
  /** At most this many rows per file; bigger partitions get part-0, part-1, … */
  rowsPerFile: number
  /** espeak-ng speed range, words per minute. */
  speed: [number, number]
  /** Share of rows encoded as Ogg Opus / Ogg Vorbis (the rest FLAC). */
  opusShare: number
  vorbisShare: number
  /** Rows per language: [train, dev, test]; 0 = split absent. */
  rows: Partial<Record<DemoLanguage, [number, number, number]>>
}

export const demoSplits = ['train', 'dev', 'test'] as const

export const demoCorpora: DemoCorpus[] = [
  {
    // read audiobooks: long European-language train sets, FLAC
    name: 'mls', rowGroupSize: 10, rowsPerFile: 12, speed: [140, 170], opusShare: 0, vorbisShare: 0,
    rows: { eng_Latn: [14, 3, 3], deu_Latn: [10, 2, 2], fra_Latn: [7, 2, 2], spa_Latn: [6, 2, 0] },
  },
  {
    // read sentences in every language, small, FLAC
    name: 'fleurs', rowGroupSize: 10, rowsPerFile: 40, speed: [150, 180], opusShare: 0, vorbisShare: 0,
    rows: {
      eng_Latn: [3, 1, 1], fra_Latn: [3, 1, 1], deu_Latn: [3, 1, 1], spa_Latn: [3, 1, 1],
      swh_Latn: [6, 2, 2], hin_Deva: [6, 2, 2], rus_Cyrl: [4, 1, 1], cmn_Hans: [8, 2, 2],
    },
  },
  {
    // crowd-sourced: lossy Ogg (Vorbis, some Opus), uneven coverage
    name: 'commonvoice', rowGroupSize: 15, rowsPerFile: 20, speed: [160, 200], opusShare: 0.35, vorbisShare: 0.65,
    rows: { eng_Latn: [30, 4, 4], rus_Cyrl: [14, 3, 3], deu_Latn: [10, 2, 2], swh_Latn: [8, 2, 0], hin_Deva: [6, 2, 2] },
  },
]

/** Kinds of planted defects (also the `kind` in `defects.json`). */
export type DefectKind = 'empty-text' | 'fast-speech' | 'undecodable-audio'

/** A planted defect: the row at `index` (in generation order) of one (corpus, split, language). */
export interface PlannedDefect {
  corpus: string
  split: string
  language: DemoLanguage
  index: number
  kind: DefectKind
  note: string
}

export const demoDefects: PlannedDefect[] = [
  {
    corpus: 'commonvoice', split: 'dev', language: 'eng_Latn', index: 1, kind: 'empty-text',
    note: 'transcript is the empty string; the audio is a normal English sentence',
  },
  {
    corpus: 'mls', split: 'train', language: 'eng_Latn', index: 5, kind: 'fast-speech',
    note: 'spoken at 400 wpm then sped up 2.5x with sox tempo: fewer than 160 samples per character of text',
  },
  {
    corpus: 'fleurs', split: 'train', language: 'swh_Latn', index: 3, kind: 'undecodable-audio',
    note: 'FLAC cut 24 bytes into its first frame (fLaC marker and STREAMINFO intact, no complete frame); audio_size is the original length',
  },
]

/** Fixed seed for every random choice (sentence, voice, speed, pitch, codec). */
export const demoSeed = 20240611
