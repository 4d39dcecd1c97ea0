import { describe, expect, it } from 'vitest'
import { isTrainStreaming, parseSplit } from '../../src/engine/pipeline/config/split.ts'

describe('split strings (docs/reference-pipeline.md §3)', () => {
  it.each([
    ['train', 'train', null],
    ['train_librispeech', 'train', 'librispeech'],
    ['train_mls_extra', 'train', 'mls_extra'],
    ['dev_clean', 'dev', 'clean'],
    ['train_', 'train', ''],
    ['', '', null],
  ])('%j → split %j corpus %j', (raw, split, corpus) => {
    expect(parseSplit(raw)).toEqual({ split, corpus })
  })

  it('train streaming is a substring test with UNTIL_FIRST', () => {
    expect(isTrainStreaming('train', 'UNTIL_FIRST')).toBe(true)
    expect(isTrainStreaming('dev_trainset', 'UNTIL_FIRST')).toBe(true)
    expect(isTrainStreaming('pretraining', 'UNTIL_FIRST')).toBe(true)
    expect(isTrainStreaming('train', 'UNTIL_LAST')).toBe(false)
    expect(isTrainStreaming('dev', 'UNTIL_FIRST')).toBe(false)
  })
})
