/** Shard selection from `--shard` and the batch engines' environment (docs/conventions.md "Sharded jobs"). */
import { describe, expect, it } from 'vitest'
import { describeShard, parseShard, shardFrom } from '../../src/engine/shard/select.ts'

const slurm = { SLURM_ARRAY_TASK_ID: '13', SLURM_ARRAY_TASK_MIN: '10', SLURM_ARRAY_TASK_COUNT: '8', SLURM_ARRAY_TASK_STEP: '1' }

describe('shard selection', () => {
  it('parses i/N and refuses anything else, naming the value', () => {
    expect(parseShard('3/8')).toEqual({ index: 3, count: 8, origin: '--shard' })
    expect(parseShard(' 0 / 1 ')).toEqual({ index: 0, count: 1, origin: '--shard' })
    for (const bad of ['8/8', '3', '-1/4', '1/0', 'a/b', '1.5/4', '3/8/1', '']) {
      expect(() => parseShard(bad)).toThrow(/--shard/)
    }
    expect(() => parseShard('9/8')).toThrow('shard 9 does not exist, shards are 0 to 7')
  })

  it('takes --shard first, then Slurm, then MIXSCOPE_SHARD, then the Kubernetes Indexed Job', () => {
    const k8s = { JOB_COMPLETION_INDEX: '5', MIXSCOPE_SHARDS: '6' }
    const all = { ...slurm, MIXSCOPE_SHARD: '1/2', ...k8s }
    expect(shardFrom('2/4', all)).toMatchObject({ index: 2, count: 4, origin: '--shard' })
    expect(shardFrom(undefined, all)).toEqual({ index: 3, count: 8, origin: 'slurm' })
    expect(shardFrom(undefined, { MIXSCOPE_SHARD: '1/2', ...k8s })).toEqual({ index: 1, count: 2, origin: 'MIXSCOPE_SHARD' })
    expect(shardFrom(undefined, k8s)).toEqual({ index: 5, count: 6, origin: 'kubernetes' })
    expect(shardFrom(undefined, {})).toBeNull()
    expect(shardFrom(undefined, { MIXSCOPE_SHARD: '' })).toBeNull()
    expect(describeShard(shardFrom(undefined, all)!)).toBe('3/8 (from the Slurm array)')
  })

  it('explains environments that name a shard badly', () => {
    expect(() => shardFrom(undefined, { SLURM_ARRAY_TASK_ID: '3' })).toThrow(/SLURM_ARRAY_TASK_MIN=\(unset\).*needs all three/)
    expect(() => shardFrom(undefined, { SLURM_ARRAY_TASK_ID: '6', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_STEP: '2' }))
      .toThrow(/array has step 2/)
    expect(() => shardFrom(undefined, { MIXSCOPE_SHARD: '4/4' })).toThrow(/MIXSCOPE_SHARD=4\/4: shard 4 does not exist/)
    expect(() => shardFrom(undefined, { JOB_COMPLETION_INDEX: '2' })).toThrow(/MIXSCOPE_SHARDS is not/)
    expect(() => shardFrom(undefined, { MIXSCOPE_SHARDS: '4' })).toThrow(/JOB_COMPLETION_INDEX is not/)
    expect(() => shardFrom(undefined, { JOB_COMPLETION_INDEX: '4', MIXSCOPE_SHARDS: '4' })).toThrow(/shard 4 does not exist/)
  })
})
