/**
 * Which shard a job runs (docs/conventions.md "Sharded jobs"): `--shard i/N` first, then the environment of the
 * batch engine the job runs under, in this order: Slurm job arrays (`SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN` of
 * `SLURM_ARRAY_TASK_COUNT`), `MIXSCOPE_SHARD=i/N`, Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX` with
 * `MIXSCOPE_SHARDS=N`). No shard found: the job runs on everything. The environment is passed in (the engine reads
 * no globals), so the browser and tests can give their own.
 */
import { MixscopeError } from '../core/findings.ts'

/** Where a shard came from (named in messages and in parts). */
export type ShardOrigin = '--shard' | 'slurm' | 'MIXSCOPE_SHARD' | 'kubernetes'

/** Shard `index` of `count` (0 ≤ index < count). */
export interface ShardSpec {
  index: number
  count: number
  origin: ShardOrigin
}

/** An environment, as `process.env` gives it. */
export type ShardEnv = Readonly<Record<string, string | undefined>>

/** The one shard of one (`0/1`): what a job without a shard runs, as a part. */
export const wholeShard: ShardSpec = { index: 0, count: 1, origin: '--shard' }

function usage(message: string): MixscopeError {
  return new MixscopeError(`shard: ${message}`, 'bad-shard', 'usage')
}

/** A non-negative decimal integer, or `null`. */
function integer(text: string): number | null {
  const t = text.trim()
  if (!/^\d+$/.test(t)) return null
  const n = Number(t)
  return Number.isSafeInteger(n) ? n : null
}

function checked(index: number, count: number, origin: ShardOrigin, what: string): ShardSpec {
  if (count < 1) throw usage(`${what}: the number of shards must be at least 1, got ${count}`)
  if (index >= count) throw usage(`${what}: shard ${index} does not exist, shards are 0 to ${count - 1}`)
  return { index, count, origin }
}

/**
 * Parses `i/N` (0 ≤ i < N).
 * @param what names the value in errors (`--shard 4/4`, `MIXSCOPE_SHARD=…`)
 * @throws MixscopeError (`bad-shard`, exit class usage) naming the bad value
 */
export function parseShard(text: string, origin: ShardOrigin = '--shard', what = `--shard ${text}`): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  const index = m ? integer(m[1]) : null
  const count = m ? integer(m[2]) : null
  if (index === null || count === null) throw usage(`${what}: expected i/N with 0 ≤ i < N (e.g. 3/8)`)
  return checked(index, count, origin, what)
}

function fromSlurm(env: ShardEnv): ShardSpec | null {
  const id = env.SLURM_ARRAY_TASK_ID
  if (id === undefined || id === '') return null
  const min = env.SLURM_ARRAY_TASK_MIN
  const count = env.SLURM_ARRAY_TASK_COUNT
  const what = `SLURM_ARRAY_TASK_ID=${id}, SLURM_ARRAY_TASK_MIN=${min ?? '(unset)'}, SLURM_ARRAY_TASK_COUNT=${count ?? '(unset)'}`
  const i = integer(id)
  const m = min === undefined ? null : integer(min)
  const n = count === undefined ? null : integer(count)
  if (i === null || m === null || n === null) throw usage(`${what}: a Slurm array task needs all three as integers`)
  if (i < m) throw usage(`${what}: the task id is below the array's minimum`)
  const step = env.SLURM_ARRAY_TASK_STEP
  if (i - m >= n) {
    throw usage(`${what}: task ${i - m} of ${n} does not exist${step && step !== '1' ? ` (the array has step ${step}: submit --array=0-${n - 1} without a step)` : ' (submit a contiguous --array=0-N-1)'}`)
  }
  return { index: i - m, count: n, origin: 'slurm' }
}

function fromKubernetes(env: ShardEnv): ShardSpec | null {
  const index = env.JOB_COMPLETION_INDEX
  const shards = env.MIXSCOPE_SHARDS
  const hasIndex = index !== undefined && index !== ''
  const hasShards = shards !== undefined && shards !== ''
  if (!hasIndex && !hasShards) return null
  if (!hasIndex) throw usage(`MIXSCOPE_SHARDS=${shards} is set but JOB_COMPLETION_INDEX is not: run under a Kubernetes Indexed Job, or use --shard i/N`)
  if (!hasShards) throw usage(`JOB_COMPLETION_INDEX=${index} is set but MIXSCOPE_SHARDS is not: set MIXSCOPE_SHARDS to the Indexed Job's completions`)
  const what = `JOB_COMPLETION_INDEX=${index} with MIXSCOPE_SHARDS=${shards}`
  const i = integer(index!)
  const n = integer(shards!)
  if (i === null || n === null) throw usage(`${what}: both must be non-negative integers`)
  return checked(i, n, 'kubernetes', what)
}

/**
 * The shard of this job: the flag when given, else the environment (Slurm array, `MIXSCOPE_SHARD`, Kubernetes
 * Indexed Job, in that order).
 * @returns `null` when none of them names a shard (the job runs on everything)
 * @throws MixscopeError (`bad-shard`, exit class usage) naming the flag or variables and their values
 */
export function shardFrom(flag: string | undefined, env: ShardEnv): ShardSpec | null {
  if (flag !== undefined) return parseShard(flag)
  const slurm = fromSlurm(env)
  if (slurm) return slurm
  const own = env.MIXSCOPE_SHARD
  if (own !== undefined && own !== '') return parseShard(own, 'MIXSCOPE_SHARD', `MIXSCOPE_SHARD=${own}`)
  return fromKubernetes(env)
}

/** `3/8 (from the Slurm array)`, for messages. */
export function describeShard(shard: ShardSpec): string {
  const from = { '--shard': '--shard', slurm: 'the Slurm array', MIXSCOPE_SHARD: 'MIXSCOPE_SHARD', kubernetes: 'the Kubernetes Indexed Job' }[shard.origin]
  return `${shard.index}/${shard.count} (from ${from})`
}
