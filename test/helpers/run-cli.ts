/** Runs `mixscope <args>` in-process with only `env`'s shard variables set (the shard tests' runner). */
import { main } from '../../src/cli/main.ts'

/** Every variable a shard may be taken from (docs/conventions.md "Sharded jobs"): cleared before each run. */
const shardVariables = ['SLURM_ARRAY_TASK_ID', 'SLURM_ARRAY_TASK_MIN', 'SLURM_ARRAY_TASK_COUNT', 'MIXSCOPE_SHARD', 'JOB_COMPLETION_INDEX', 'MIXSCOPE_SHARDS']

/** Exit code and captured output of one CLI run; the process environment is restored afterwards. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const saved = { ...process.env }
  for (const k of shardVariables) delete process.env[k]
  Object.assign(process.env, env)
  try {
    const code = await main(args, { stdout: (t) => { stdout += t }, stderr: (t) => { stderr += t } })
    return { code, stdout, stderr }
  } finally {
    process.env = saved
  }
}
