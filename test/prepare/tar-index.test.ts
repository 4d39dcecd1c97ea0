/**
 * Tars read as streams at corpus scale: the members `tarMembers` gives one at a time against Python's `tarfile`
 * (GNU long names and pax headers, the formats webdataset and NeMo write), webdataset samples grouped as members
 * stream by, and NeMo tarred datasets whose tars' member indexes are held under a tiny budget (dropped and listed
 * again) giving the rows they give with every index held.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { listInput } from '../../src/engine/prepare/inputs/input-files.ts'
import { readNemoTarred } from '../../src/engine/prepare/inputs/nemo-tarred.ts'
import type { ScannedRow } from '../../src/engine/prepare/inputs/row-log.ts'
import { tarMembers } from '../../src/engine/prepare/inputs/tar.ts'
import { groupSamples, readWebdataset } from '../../src/engine/prepare/inputs/webdataset.ts'
import { runPython } from './python.ts'

const base = mkdtempSync(join(tmpdir(), 'mixscope-tar-index-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

/** Writes tars of random members with Python's tarfile; @returns per tar, [name, offset_data, size] as tarfile lists them */
function writeTars(dir: string, tars: { name: string; format: 'GNU' | 'PAX'; members: number }[], seed: number): Record<string, [string, number, number][]> {
  mkdirSync(dir, { recursive: true })
  return JSON.parse(runPython(`
import sys, json, io, tarfile, random
d, spec, seed = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
out = {}
for t in spec:
    fmt = tarfile.GNU_FORMAT if t['format'] == 'GNU' else tarfile.PAX_FORMAT
    with tarfile.open(f"{d}/{t['name']}", 'w', format=fmt) as tar:
        for i in range(t['members']):
            key = f"s{i:05d}" + ('_' + 'long' * rng.randint(20, 40) if rng.random() < 0.1 else '') + ('_ü' if rng.random() < 0.1 else '')
            for ext in (['flac', 'txt'] if rng.random() < 0.9 else ['wav']):
                data = (f'{key}.{ext}:' * rng.randint(0, 300)).encode()
                info = tarfile.TarInfo(f'{key}.{ext}'); info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    with tarfile.open(f"{d}/{t['name']}") as tar:
        out[t['name']] = [[m.name, m.offset_data, m.size] for m in tar.getmembers() if m.isfile()]
print(json.dumps(out))
`, [dir, JSON.stringify(tars), String(seed)])) as Record<string, [string, number, number][]>
}

describe('tar members as a stream', () => {
  it('gives the members Python\'s tarfile lists (GNU long names, pax), one at a time', async () => {
    const dir = join(base, 'list')
    const expected = writeTars(dir, [{ name: 'gnu.tar', format: 'GNU', members: 700 }, { name: 'pax.tar', format: 'PAX', members: 700 }], 3)
    const input = await listInput(await createFsSource(dir))
    for (const [tar, members] of Object.entries(expected)) {
      const got: [string, number, number][] = []
      for await (const m of tarMembers(input, tar)) got.push([m.name, m.start, m.size])
      expect(got.length).toBeGreaterThan(1000)
      expect(got, tar).toEqual(members)
    }
  })

  it('groups webdataset samples as the members stream by (one sample held), as a whole list groups them', async () => {
    const dir = join(base, 'wds')
    const expected = writeTars(dir, [{ name: 'train-000000.tar', format: 'GNU', members: 500 }], 4)['train-000000.tar']
    // the grouping over the whole list, written out independently: consecutive members with one key
    const whole: string[] = []
    let lastKey: string | null = null
    let fields = new Set<string>()
    for (const [name] of expected) {
      const dot = name.indexOf('.')
      const key = name.slice(0, dot)
      const field = name.slice(dot + 1)
      if (key === lastKey && !fields.has(field)) fields.add(field)
      else { whole.push(key); lastKey = key; fields = new Set([field]) }
    }
    const input = await listInput(await createFsSource(dir))
    const keys: string[] = []
    for await (const s of groupSamples(tarMembers(input, 'train-000000.tar'))) keys.push(s.key)
    expect(keys).toEqual(whole)
    const rows: ScannedRow[] = []
    const { notes } = await readWebdataset(input, ['train-000000.tar'], { add: async (r) => { rows.push(r) } })
    expect(notes).toEqual([])
    expect(rows.map((r) => r.where)).toEqual(whole.map((k) => `train-000000.tar:${k}`))
    const byName = new Map(expected.map(([n, start, size]) => [n, { start, size }]))
    for (const r of rows) {
      if (r.audio?.kind !== 'member') continue
      const m = byName.get(r.audio.member)!
      expect([r.audio.start, r.audio.end]).toEqual([m.start, m.start + m.size])
    }
  })
})

describe('NeMo tarred member indexes under a budget', () => {
  it('gives the rows every index held gives, listing tars again when the manifest goes back to them', async () => {
    const dir = join(base, 'nemo')
    const tars = writeTars(dir, [0, 1, 2, 3].map((i) => ({ name: `audio_${i}.tar`, format: i % 2 ? 'PAX' : 'GNU' as const, members: 150 })), 5)
    // entries in shard order for the first half, then jumping between tars; some name no shard, some a missing member
    runPython(`
import sys, json, random
d, tars = sys.argv[1], json.loads(sys.argv[2])
rng = random.Random(9)
entries = []
for shard in range(4):
    for name, _, _ in tars[f'audio_{shard}.tar'][:60]:
        entries.append({'audio_filepath': name, 'shard_id': shard, 'text': name, 'duration': 1.0})
for _ in range(300):
    shard = rng.randrange(4)
    name = rng.choice(tars[f'audio_{shard}.tar'])[0]
    e = {'audio_filepath': name if rng.random() < 0.95 else 'missing.flac', 'text': 'x', 'duration': 1.0}
    if rng.random() < 0.9: e['shard_id'] = shard
    entries.append(e)
open(f'{d}/tarred_audio_manifest.json', 'w').write(''.join(json.dumps(e) + '\\n' for e in entries))
`, [dir, JSON.stringify(tars)])
    const input = await listInput(await createFsSource(dir))
    const read = async (members?: number) => {
      const rows: ScannedRow[] = []
      const listed: string[] = []
      await readNemoTarred(input, ['tarred_audio_manifest.json'], { add: async (r) => { rows.push(r) } }, undefined, { members, onList: (t) => listed.push(t) })
      return { rows, listed }
    }
    const all = await read()
    const tiny = await read(10)
    expect(all.listed.slice().sort()).toEqual(['audio_0.tar', 'audio_1.tar', 'audio_2.tar', 'audio_3.tar'])
    expect(tiny.listed.length).toBeGreaterThan(50)
    expect(tiny.rows).toEqual(all.rows)
    expect(all.rows.length).toBe(540)
    // every found member where tarfile says it is
    const where = new Map(Object.entries(tars).flatMap(([tar, ms]) => ms.map(([n, start, size]) => [`${tar}/${n}`, [start, start + size]] as const)))
    let found = 0
    for (const r of all.rows) {
      if (r.audio?.kind !== 'member') { expect(r.problem?.reason).toBe('missing-audio'); continue }
      found++
      expect([r.audio.start, r.audio.end]).toEqual(where.get(`${r.audio.file}/${r.audio.member}`))
    }
    expect(found).toBeGreaterThan(500)
  })
})
