/**
 * Files written whole or not at all (src/engine/node/atomic-write.ts, docs/conventions.md "Writing files"): the
 * temporary is exclusive, dot-named and beside the target, failures leave the target as it was and no temporary
 * behind, and a symbolic link planted at the target (or at the old `.partial` name) is replaced, never written through
 * — also by `mixscope manifest` and `mixscope index` on a dataset folder holding such links.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { atomicTempPath, MixscopeError, openAtomic, writeAtomic, writeFileAtomic } from '../../src/engine/node.ts'
import { runCli } from '../helpers/run-cli.ts'

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'mixscope-atomic-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

/** A fresh folder under the test's temporary folder. */
async function folder(): Promise<string> {
  const path = join(dir, Math.random().toString(36).slice(2))
  await mkdir(path, { recursive: true })
  return path
}

describe('writeFileAtomic', () => {
  it('writes text and bytes, replaces an existing file and leaves no temporary', async () => {
    const at = await folder()
    const target = join(at, 'out.json')
    await writeFileAtomic(target, 'first\n')
    expect(await readFile(target, 'utf8')).toBe('first\n')
    await writeFileAtomic(target, new Uint8Array([1, 2, 3]))
    expect([...await readFile(target)]).toEqual([1, 2, 3])
    expect(await readdir(at)).toEqual(['out.json'])
  })

  it('names temporaries beside the target, dot-named and unpredictable', () => {
    const a = atomicTempPath('/data/root/_manifest.json')
    const b = atomicTempPath('/data/root/_manifest.json')
    expect(dirname(a)).toBe('/data/root')
    expect(basename(a)).toMatch(/^\._manifest\.json\.[0-9a-f]{12}\.tmp$/)
    expect(a).not.toBe(b)
  })

  it('streams pieces through writeAtomic; a failing producer leaves the old file and no temporary', async () => {
    const at = await folder()
    const target = join(at, 'doc.json')
    await writeAtomic(target, async (write) => { await write('{'); await write(new TextEncoder().encode('"a": 1')); await write('}') })
    expect(await readFile(target, 'utf8')).toBe('{"a": 1}')
    await expect(writeAtomic(target, async (write) => { await write('half'); throw new Error('producer: broke') })).rejects.toThrow('producer: broke')
    expect(await readFile(target, 'utf8')).toBe('{"a": 1}')
    expect(await readdir(at)).toEqual(['doc.json'])
  })

  it('an abort before commit removes the temporary and leaves no target', async () => {
    const at = await folder()
    const file = await openAtomic(join(at, 'x.parquet'))
    await file.write('bytes')
    expect(await readdir(at)).toEqual([basename(file.temp)])
    await file.abort()
    expect(await readdir(at)).toEqual([])
  })

  it('fails with an io MixscopeError naming the target when its folder is missing, or when the rename fails', async () => {
    const missing = join(dir, 'no-such-folder', 'out.json')
    const error = await writeFileAtomic(missing, 'x').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MixscopeError)
    expect((error as MixscopeError).exitClass).toBe('io')
    expect((error as Error).message).toContain(`write: cannot write ${missing}`)
    // a folder at the target: the rename fails, the temporary is removed
    const at = await folder()
    await mkdir(join(at, 'taken'))
    await expect(writeFileAtomic(join(at, 'taken'), 'x')).rejects.toThrow(`write: cannot write ${join(at, 'taken')}`)
    expect(await readdir(at)).toEqual(['taken'])
  })

  it('replaces a symbolic link at the target instead of writing through it', async () => {
    const at = await folder()
    const outside = join(await folder(), 'precious.txt')
    await writeFile(outside, 'keep me\n')
    await symlink(outside, join(at, 'out.txt'))
    await writeFileAtomic(join(at, 'out.txt'), 'new\n')
    expect(await readFile(outside, 'utf8')).toBe('keep me\n')
    expect((await lstat(join(at, 'out.txt'))).isSymbolicLink()).toBe(false)
    expect(await readFile(join(at, 'out.txt'), 'utf8')).toBe('new\n')
  })
})

describe('commands writing into a dataset folder with planted links', () => {
  /** A copy of the dataprep fixture with `links` (name → file outside) planted in its root. */
  async function plantedRoot(links: string[]): Promise<{ root: string; outside: Record<string, string> }> {
    const top = await folder()
    await cp(join(import.meta.dirname, '../fixtures/parquet/dataprep'), top, { recursive: true })
    const root = join(top, 'version=0')
    const elsewhere = await folder()
    const outside: Record<string, string> = {}
    for (const name of links) {
      outside[name] = join(elsewhere, `${name}.victim`)
      await writeFile(outside[name], `outside file for ${name}\n`)
      await symlink(outside[name], join(root, name))
    }
    return { root, outside }
  }

  async function expectUntouched(outside: Record<string, string>): Promise<void> {
    for (const [name, path] of Object.entries(outside)) expect(await readFile(path, 'utf8')).toBe(`outside file for ${name}\n`)
  }

  it('mixscope manifest replaces a _manifest.json link and leaves its target alone', async () => {
    const { root, outside } = await plantedRoot(['_manifest.json', '_manifest.json.partial'])
    const run = await runCli(['manifest', root])
    expect(run.code, run.stderr).toBe(0)
    await expectUntouched(outside)
    expect((await lstat(join(root, '_manifest.json'))).isSymbolicLink()).toBe(false)
    const manifest = JSON.parse(await readFile(join(root, '_manifest.json'), 'utf8')) as { format: string; files: { path: string }[] }
    expect(manifest.format).toBe('mixscope-manifest')
    expect(manifest.files.some((f) => f.path.endsWith('.parquet'))).toBe(true)
    // the link at the old temporary name is neither followed nor removed
    expect(await readlink(join(root, '_manifest.json.partial'))).toBe(outside['_manifest.json.partial'])
  })

  it('mixscope index replaces a _mixscope_index.parquet link and never writes through _mixscope_index.parquet.partial', async () => {
    const { root, outside } = await plantedRoot(['_mixscope_index.parquet', '_mixscope_index.parquet.partial'])
    const run = await runCli(['index', root, '--full'])
    expect(run.code, run.stderr).toBe(0)
    await expectUntouched(outside)
    const index = join(root, '_mixscope_index.parquet')
    expect((await lstat(index)).isSymbolicLink()).toBe(false)
    expect(new TextDecoder().decode((await readFile(index)).subarray(0, 4))).toBe('PAR1')
    expect(await readlink(join(root, '_mixscope_index.parquet.partial'))).toBe(outside['_mixscope_index.parquet.partial'])
    // the index is the one written: stats use it
    const stats = await runCli(['stats', root, '--json'])
    expect(stats.code, stats.stderr).toBe(0)
  })
})
