/**
 * One example's findings are one engine function's (`inspectExample`, src/engine/examples/example-facts.ts): the
 * Inspector (`inspect-example`, and `example-facts` for a row that does not decode) and `mixscope fbank
 * <dataset>#<file>:<row> --json` give the same findings for the demo's rows, the undecodable one included.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.ts'
import type { Finding } from '../../src/engine/core/findings.ts'
import { defaultFeatureSpecAugment } from '../../src/engine/features/dsp/spec-augment.ts'
import { createFsSource } from '../../src/engine/node/fs-source.ts'
import { createRequestHandler } from '../../src/engine/worker/handlers.ts'
import type { RequestKind, Requests } from '../../src/engine/worker/protocol.ts'

const root = 'public/demo/version=0'
const defects = JSON.parse(readFileSync(resolve(root, '../defects.json'), 'utf8')) as { id: string; kind: string }[]
const undecodable = defects.find((d) => d.kind === 'undecodable-audio')!.id

const source = await createFsSource(root)
const handle = createRequestHandler({ makeSource: () => source })
let nextId = 1
function request<K extends RequestKind>(kind: K, params: Requests[K]['params']): Promise<Requests[K]['result']> {
  return handle({ kind, id: nextId++, ...params } as never, {}) as Promise<Requests[K]['result']>
}
const { dataset } = await request('open', { source: { type: 'url', url: 'unused' } })

/** What the explorer shows for `id`: the inspect result's findings, or, when it does not decode, the facts'. */
async function explorerFindings(id: string): Promise<{ decoded: boolean; findings: Finding[] }> {
  // the fbank path (channel 0, no standardization, float32) and a length filter no demo row is outside of
  const config = { use_fbank: true, normalize_audio: false, spec_aug_p: null, spec_aug_freq_mask_param: 80, dtype: 'float32' as const, min_audio_len: 1, max_audio_len: 10_000_000, split: 'train', min_samples_per_char: 160 }
  try {
    const result = await request('inspect-example', { dataset, exampleId: id, config, seed: 0, featureSpecAugment: defaultFeatureSpecAugment, device: 'cpu' })
    return { decoded: true, findings: result.findings }
  } catch {
    return { decoded: false, findings: (await request('example-facts', { dataset, exampleId: id })).findings }
  }
}

async function cliFindings(id: string): Promise<{ code: number; findings: Finding[] }> {
  let out = ''
  const code = await main(['fbank', `${root}#${id}`, '--json'], { stdout: (t) => { out += t }, stderr: () => undefined })
  return { code, findings: (JSON.parse(out) as { findings: Finding[] }).findings }
}

const ids = [undecodable, ...defects.filter((d) => d.kind !== 'undecodable-audio').map((d) => d.id),
  'corpus=fleurs/split=train/language=eng_Latn/part-0.parquet:0', 'corpus=commonvoice/split=train/language=deu_Latn/part-0.parquet:0']

describe('an example\'s findings: explorer and CLI', () => {
  test.each(ids)('%s', async (id) => {
    const explorer = await explorerFindings(id)
    const cli = await cliFindings(id)
    expect(cli.findings).toEqual(explorer.findings)
    expect(cli.code).toBe(explorer.findings.some((f) => f.severity === 'error') ? 1 : 0)
    if (id === undecodable) {
      expect(explorer.decoded).toBe(false)
      expect(cli.findings).toContainEqual(expect.objectContaining({ kind: 'undecodable-audio', severity: 'error', path: id.slice(0, id.lastIndexOf(':')), row: 3 }))
    } else {
      expect(explorer.decoded).toBe(true)
    }
  })
})
