/**
 * A server cannot send mixscope elsewhere: a redirect to another origin (here another port) is refused with an error
 * naming both URLs and how to allow that origin, whether it redirects the manifest, a range read or a `--summary`
 * URL; a redirect within the dataset's origin is followed; an origin the user allows (`MIXSCOPE_REDIRECT_ORIGINS`)
 * is followed too.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { createHttpSource } from '../../src/engine/index.ts'
import { startStaticServer } from '../helpers/static-server.ts'
import { runCli } from '../helpers/run-cli.ts'

const demo = fileURLToPath(new URL('../../public/demo', import.meta.url))
const target = await startStaticServer({ root: demo })
const targetOrigin = new URL(target.url).origin

/**
 * The dataset's own server: `/cross/<p>` redirects to `<target>/<p>` (another origin), `/same/<p>` to `/self/<p>`,
 * and `/self/<p>` answers what the target answers (Range passed on); `/ranges-cross/` serves the manifest itself
 * and everything else, and redirects only the data files' range reads to the other origin.
 */
const own = createServer(async (req, res) => {
  const url = req.url ?? '/'
  const forward = async (path: string) => {
    const answer = await fetch(target.url + path, { headers: req.headers.range ? { range: req.headers.range } : {} })
    const headers: Record<string, string> = {}
    answer.headers.forEach((v, k) => { headers[k] = v })
    res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()))
  }
  if (url.startsWith('/cross/')) res.writeHead(302, { location: target.url + url.slice('/cross/'.length) }).end()
  else if (url.startsWith('/same/')) res.writeHead(302, { location: '/self/' + url.slice('/same/'.length) }).end()
  else if (url.startsWith('/self/')) await forward(url.slice('/self/'.length))
  else if (url.startsWith('/ranges-cross/')) {
    const path = url.slice('/ranges-cross/'.length)
    if (!/\/part-[^/]*\.parquet$/.test(path)) await forward(path)
    else res.writeHead(307, { location: target.url + path }).end()
  } else res.writeHead(404).end()
})
const ownBase = await new Promise<string>((resolve) => own.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(own.address() as AddressInfo).port}`)))
afterAll(async () => { own.closeAllConnections(); own.close(); await target.close() })

describe('redirects', () => {
  test('a redirected manifest from another origin is refused, naming both URLs and the way to allow it', async () => {
    const run = await runCli(['stats', `${ownBase}/cross/version=0/`, '--json'])
    expect(run.code).toBe(2)
    // the dataset index is looked for first: its redirect ends the open
    expect(run.stderr).toContain(`${ownBase}/cross/version=0/_mixscope_index.parquet redirected to ${target.url}version=0/_mixscope_index.parquet, another origin`)
    expect(run.stderr).toContain(`MIXSCOPE_REDIRECT_ORIGINS=${targetOrigin}`)
    expect(run.stderr).not.toMatch(/\n\s+at /)
  }, 60_000)

  test('a manifest from the dataset origin whose range reads are redirected elsewhere: the reads are refused, no numbers come out', async () => {
    const run = await runCli(['validate', `${ownBase}/ranges-cross/version=0/`, '--json'])
    expect(run.code).not.toBe(0)
    const report = JSON.parse(run.stdout) as { findings: { kind: string; path: string; message: string }[] }
    const refused = report.findings.filter((f) => /\.parquet redirected to http:\/\/127\.0\.0\.1:\d+\/version=0\/corpus=.*another origin/.test(f.message))
    expect(refused.length).toBeGreaterThan(10) // every data file of the demo
    expect(new Set(refused.map((f) => f.kind))).toEqual(new Set(['unreadable-parquet']))
    const source = createHttpSource(`${ownBase}/ranges-cross/version=0/`, { retries: 0 })
    const [file] = await source.list()
    await expect(source.read(file.path, 0, 4)).rejects.toMatchObject({ kind: 'http-redirect-other-origin' })
  }, 60_000)

  test('a redirect within the origin is followed, and so is an origin the user allows', async () => {
    const same = await runCli(['stats', `${ownBase}/same/version=0/`, '--json'])
    expect(same.code, same.stderr).toBe(0)
    const direct = await runCli(['stats', `${target.url}version=0/`, '--json'])
    const allowed = await runCli(['stats', `${ownBase}/cross/version=0/`, '--json'], { MIXSCOPE_REDIRECT_ORIGINS: `https://elsewhere.example, ${targetOrigin}` })
    expect(allowed.code, allowed.stderr).toBe(0)
    const hours = (out: string) => (JSON.parse(out) as { totals: unknown }).totals
    expect(hours(same.stdout)).toEqual(hours(direct.stdout))
    expect(hours(allowed.stdout)).toEqual(hours(direct.stdout))
    const any = await runCli(['stats', `${ownBase}/cross/version=0/`, '--json'], { MIXSCOPE_REDIRECT_ORIGINS: '*' })
    expect(any.code, any.stderr).toBe(0)
  }, 60_000)

  test('a --summary URL redirected to another origin is refused', async () => {
    const run = await runCli(['stats', `${target.url}version=0/`, '--summary', `${ownBase}/cross/language_distribution_0.tsv`, '--json'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/language_distribution_0\.tsv redirected to .*another origin/)
  }, 60_000)
})
