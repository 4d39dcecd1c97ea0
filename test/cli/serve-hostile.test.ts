/**
 * `mixscope serve` against hostile requests (docs/hostile-input.md "What it reads"): every way of naming a file
 * outside the folder is refused before anything is read — raw and percent-encoded `..`, encoded slashes and
 * backslashes, empty segments, NUL, absolute-form targets, overlong UTF-8, symlinks leading out — and every method
 * but GET, HEAD and OPTIONS is 405. Requests go over a raw socket, so no client normalizes them first.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDatasetServer, type DatasetServer } from '../../src/engine/node/dataset-server.ts'
import { parseRequestPath } from '../../src/engine/node/serve-paths.ts'
import { parseRange } from '../../src/engine/node/serve-range.ts'

const secret = 'TOP-SECRET-0123'
let top: string
let server: DatasetServer
let port: number

beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'mixscope-serve-hostile-'))
  const root = join(top, 'version=0')
  await mkdir(join(root, 'corpus=a'), { recursive: true })
  await mkdir(join(root, 'corpus=c'), { recursive: true })
  await mkdir(join(top, 'outside'))
  await writeFile(join(top, 'secret.txt'), secret)
  await writeFile(join(top, 'outside', 'x.parquet'), secret)
  await writeFile(join(root, 'corpus=a', 'real.parquet'), 'real data')
  await symlink(join(top, 'secret.txt'), join(root, 'corpus=a', 'link.parquet')) // a file link leading out
  await symlink(join(top, 'outside'), join(root, 'corpus=b')) // a folder link leading out
  await symlink('../corpus=a/real.parquet', join(root, 'corpus=c', 'inside.parquet')) // a link that stays inside
  await symlink('/etc/passwd', join(top, 'language_distribution_9.tsv')) // beside the root, leading out of its folder
  await writeFile(join(top, 'language_distribution_0.tsv'), 'corpus\tlanguage\thours\n')
  server = await createDatasetServer({ root, port: 0 })
  port = Number(new URL(server.url).port)
})
afterAll(async () => {
  await server?.close()
  await rm(top, { recursive: true, force: true })
})

/** Sends `request` as raw bytes and returns the status and body of the answer. */
function raw(request: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request)) // not end(): a half-closed request may go unanswered
    const chunks: Buffer[] = []
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1')
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text })
    })
  })
}
const get = (target: string, method = 'GET') => raw(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)

describe('serve: nothing outside the folder', () => {
  test.each([
    '/data/version=0/../secret.txt',
    '/data/version=0/%2e%2e/secret.txt',
    '/data/version=0/%2E%2E/secret.txt',
    '/data/version=0/.%2e/secret.txt',
    '/data/version=0/..%2fsecret.txt',
    '/data/version=0/..%5csecret.txt',
    '/data/version=0/..\\secret.txt',
    '/data/version=0/corpus=a\\..\\..\\secret.txt',
    '/data/%2e%2e/secret.txt',
    '/data/version=0/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '//etc/passwd',
    '/data/version=0//etc/passwd',
    '/data/version=0/%2fetc%2fpasswd',
    '/data/version=0/corpus=a/real.parquet%00.txt',
    '/data/version=0/%C0%AE%C0%AE/secret.txt',
    'http://127.0.0.1/etc/passwd',
  ])('%s is refused (403)', async (target) => {
    const answer = await get(target)
    expect(answer.status).toBe(403)
    expect(answer.text).toMatch(/serve: refused/)
    expect(answer.text).not.toContain(secret)
    expect(answer.text).not.toContain('root:')
  })

  test.each([
    ['a file link leading out', '/data/version=0/corpus=a/link.parquet'],
    ['a folder link leading out', '/data/version=0/corpus=b/x.parquet'],
    ['a TSV beside the root linking out of its folder', '/data/language_distribution_9.tsv'],
  ])('%s is refused (403)', async (_what, target) => {
    const answer = await get(target)
    expect(answer.status).toBe(403)
    expect(answer.text).not.toContain(secret)
    expect(answer.text).not.toContain('root:')
  })

  test('a double-encoded ".." is a name, not found; a link inside the folder and the TSV beside it are served', async () => {
    expect((await get('/data/version=0/%252e%252e/secret.txt')).status).toBe(404)
    const inside = await get('/data/version=0/corpus=c/inside.parquet')
    expect(inside.status).toBe(200)
    expect(inside.text.endsWith('real data')).toBe(true)
    expect((await get('/data/language_distribution_0.tsv')).status).toBe(200)
    expect((await get('/data/secret.txt')).status).toBe(404) // beside the root only the stats TSV
  })

  test('the manifest leaves out the files behind links leading out', async () => {
    const manifest = JSON.parse((await get('/data/version=0/_manifest.json')).text.split('\r\n\r\n')[1]) as { files: { path: string }[] }
    expect(manifest.files.map((f) => f.path)).toEqual(['corpus=a/real.parquet', 'corpus=c/inside.parquet'])
    expect(server.manifest.outsideCount).toBe(2)
    expect(server.manifest.outside.sort()).toEqual(['corpus=a/link.parquet', 'corpus=b/x.parquet'])
  })
})

describe('serve: read only', () => {
  test.each(['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND'])('%s is 405 with Allow', async (method) => {
    const answer = await get('/data/version=0/corpus=a/real.parquet', method)
    expect(answer.status).toBe(405)
    expect(answer.text).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/i)
    expect(answer.text).not.toContain('real data')
  })
})

describe('serve: request paths and ranges, unit by unit', () => {
  test('request paths are split before they are decoded', () => {
    expect(parseRequestPath('/data/a%20b/c%3Dd.parquet?x=1')).toEqual({ ok: true, segments: ['data', 'a b', 'c=d.parquet'], folder: false })
    expect(parseRequestPath('/data/v/')).toEqual({ ok: true, segments: ['data', 'v'], folder: true })
    expect(parseRequestPath('/')).toEqual({ ok: true, segments: [], folder: true })
    for (const bad of ['/a/%2e%2e/b', '/a/%2f', '/a/%5c', '/a\\b', '/a//b', '/a/%00', '/a/%zz', 'a/b', '*', '/a/%0a']) {
      expect(parseRequestPath(bad).ok, bad).toBe(false)
    }
  })

  test.each([
    [undefined, { kind: 'whole' }],
    ['bytes=0-0', { kind: 'range', start: 0, end: 0 }],
    ['bytes=10-19', { kind: 'range', start: 10, end: 19 }],
    ['bytes=990-2000', { kind: 'range', start: 990, end: 999 }],
    ['bytes=995-', { kind: 'range', start: 995, end: 999 }],
    ['bytes=-5', { kind: 'range', start: 995, end: 999 }],
    ['bytes=-5000', { kind: 'range', start: 0, end: 999 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=1000-1001', { kind: 'unsatisfiable' }],
    ['bytes=99999999999999999999-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', { kind: 'whole' }],
    ['bytes=9-3', { kind: 'whole' }],
    ['items=0-1', { kind: 'whole' }],
  ])('Range %s of 1000 bytes', (header, expected) => expect(parseRange(header, 1000)).toEqual(expected))
})
