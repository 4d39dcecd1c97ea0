/**
 * A single-node Slurm cluster for tests (Debian's slurm-wlm and munge): when no cluster answers `scontrol ping`,
 * it writes a munge key and a slurm.conf to a temporary folder and starts munged, slurmctld and slurmd as root in
 * the foreground (systemd need not be PID 1: no cgroup plugins, `ProctrackType=proctrack/linuxproc`,
 * `TaskPlugin=task/none`, no cgroup.conf), on free ports, and stops them afterwards. Clients find it through
 * `SLURM_CONF`.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { availableParallelism, hostname, tmpdir } from 'node:os'
import { join } from 'node:path'

/** A reachable cluster: the environment its clients need, and how to stop it (a no-op for one already running). */
export interface SlurmCluster {
  env: Record<string, string>
  /** Whether this test started the daemons. */
  started: boolean
  stop(): Promise<void>
  /** Logs of the daemons this test started, for failure messages. */
  logs(): Promise<string>
}

/** Runs a command; resolves with its exit code and output (never rejects). */
export function sh(command: string, args: string[], env: Record<string, string> = {}, timeout = 30_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env: { ...process.env, ...env }, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 127) : 0, stdout: String(stdout), stderr: String(stderr) || (error && typeof error.code !== 'number' ? error.message : '') })
    })
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Waits until `probe` resolves true, or throws `what` after `ms`. */
async function until(probe: () => Promise<boolean>, ms: number, what: () => Promise<string>): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await probe()) return
    await sleep(250)
  }
  throw new Error(await what())
}

/**
 * The cluster `scontrol ping` reaches, else a fresh one.
 * @throws Error saying why no cluster could be started (not root, binaries missing, a daemon that would not come up)
 */
export async function startSlurm(): Promise<SlurmCluster> {
  if (process.env.SLURM_CONF && (await sh('scontrol', ['ping'])).stdout.includes('UP')) {
    return { env: {}, started: false, stop: async () => {}, logs: async () => '' }
  }
  for (const bin of ['munged', 'slurmctld', 'slurmd', 'sbatch', 'scontrol']) {
    if ((await sh('sh', ['-c', `command -v ${bin}`])).code !== 0) throw new Error(`slurm: ${bin} is not installed (apt-get install slurm-wlm munge)`)
  }
  if (process.getuid?.() !== 0) throw new Error('slurm: starting a test cluster needs root (slurmd runs jobs as their users)')
  const dir = await mkdtemp(join(tmpdir(), 'mixscope-slurm-'))
  const keyDir = join(dir, 'munge-key')
  const run = join(dir, 'run')
  for (const d of [keyDir, run, join(dir, 'state'), join(dir, 'spool'), join(dir, 'log')]) await mkdir(d, { recursive: true })
  await chmod(keyDir, 0o700)
  await chmod(run, 0o755)
  await writeFile(join(keyDir, 'munge.key'), randomBytes(1024), { mode: 0o600 })
  const socket = join(run, 'munge.socket')
  const [ctldPort, dPort] = [await freePort(), await freePort()]
  const node = hostname()
  const conf = join(dir, 'slurm.conf')
  await writeFile(conf, [
    'ClusterName=mixscope-test', `SlurmctldHost=${node}`, `SlurmctldPort=${ctldPort}`, `SlurmdPort=${dPort}`,
    'SlurmUser=root', 'SlurmdUser=root', 'AuthType=auth/munge', `AuthInfo=socket=${socket}`, 'CredType=cred/munge',
    `StateSaveLocation=${join(dir, 'state')}`, `SlurmdSpoolDir=${join(dir, 'spool')}`,
    `SlurmctldPidFile=${join(run, 'slurmctld.pid')}`, `SlurmdPidFile=${join(run, 'slurmd.pid')}`,
    `SlurmctldLogFile=${join(dir, 'log', 'slurmctld.log')}`, `SlurmdLogFile=${join(dir, 'log', 'slurmd.log')}`,
    // no cgroups: systemd is not PID 1 here
    'ProctrackType=proctrack/linuxproc', 'TaskPlugin=task/none', 'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none', 'SchedulerType=sched/backfill', 'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU', 'MpiDefault=none', 'ReturnToService=2', 'SlurmctldTimeout=30', 'SlurmdTimeout=30',
    'InactiveLimit=0', 'MinJobAge=600', 'KillWait=5', 'Waittime=0', 'SchedulerParameters=sched_interval=1',
    `NodeName=${node} CPUs=${availableParallelism()} RealMemory=2000 State=UNKNOWN`,
    'PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP', '',
  ].join('\n'))
  const env = { SLURM_CONF: conf }
  const children: ChildProcess[] = []
  const start = (command: string, args: string[]) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr?.on('data', (b: Buffer) => { err += b.toString() })
    child.on('error', (e) => { err += e.message })
    children.push(child)
    return () => err
  }
  const logs = async () => {
    const parts: string[] = []
    for (const f of ['slurmctld.log', 'slurmd.log']) parts.push(`== ${f}\n${await readFile(join(dir, 'log', f), 'utf8').catch(() => '(none)')}`)
    parts.push(`== munged.log\n${await readFile(join(dir, 'log', 'munged.log'), 'utf8').catch(() => '(none)')}`)
    return parts.join('\n').slice(-8000)
  }
  const stop = async () => {
    await sh('scontrol', ['shutdown'], env, 10_000)
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, sleep(5000)])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    await rm(dir, { recursive: true, force: true })
  }
  try {
    const munge = start('munged', ['--foreground', '--force', `--key-file=${join(keyDir, 'munge.key')}`, `--socket=${socket}`,
      `--pid-file=${join(run, 'munged.pid')}`, `--log-file=${join(dir, 'log', 'munged.log')}`, `--seed-file=${join(dir, 'munge.seed')}`])
    await until(async () => (await sh('munge', ['-n', '-S', socket])).code === 0, 10_000, async () => `slurm: munged did not start: ${munge()}`)
    const ctld = start('slurmctld', ['-D', '-i', '-f', conf])
    await until(async () => (await sh('scontrol', ['ping'], env)).stdout.includes('UP'), 20_000, async () => `slurm: slurmctld did not start: ${ctld()}\n${await logs()}`)
    const d = start('slurmd', ['-D', '-f', conf])
    await until(async () => /idle/.test((await sh('sinfo', ['-h', '-o', '%T'], env)).stdout), 30_000,
      async () => `slurm: slurmd did not register: ${d()}\n${(await sh('sinfo', [], env)).stdout}\n${await logs()}`)
  } catch (error) {
    await stop()
    throw error
  }
  return { env, started: true, stop, logs }
}
