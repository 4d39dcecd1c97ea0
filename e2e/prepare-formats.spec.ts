/**
 * The Prepare view on the inputs the engine reads beyond plain PCM: a NeMo manifest whose audio is a WAV over the
 * 32 MiB at which the engine worker reads a file a stretch at a time (converted whole and as a segment: the result
 * says that those two clips went that way), IMA and Microsoft ADPCM WAV (sox), big-endian RIFX WAV, GSM 6.10 WAV,
 * AIFC `ima4`, ALAC in CAF, G.721 WAV and Sun/NeXT AU (16-bit big-endian, and G.723 40 kbit/s little-endian)
 * (libsndfile via python3-soundfile), and an AAC .m4a (ffmpeg), which libsndfile does not read: it is skipped with its
 * format named. The written clip lengths are checked against what libsndfile counts; the result summary and the
 * partitions it lists are read, in light and dark.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { runPython } from '../test/prepare/python.ts'

let dir: string
/** Σ audio_size the prepared clips must have (16 kHz samples), from libsndfile's frame counts. */
let expectedSamples: number
/** Frames of the long WAV (16 kHz stereo, 16-bit: 40 MiB). */
const LONG_FRAMES = 10_485_760 + 123

test.beforeAll(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'mixscope-e2e-formats-')), 'formats')
  mkdirSync(join(dir, 'audio'), { recursive: true })
  const info = JSON.parse(runPython(`
import sys, json, numpy as np, soundfile as sf
d, long_frames = sys.argv[1], int(sys.argv[2])
t = np.arange(long_frames)
x = np.stack([0.3 * np.sin(t * 0.013), 0.2 * np.sin(t * 0.0021)], axis=1).astype(np.float32)
sf.write(f'{d}/audio/long.wav', x, 16000, subtype='PCM_16')
s = np.arange(22050 * 2) / 22050
y = (0.5 * np.sin(2 * np.pi * 330 * s)).astype(np.float32)
sf.write(f'{d}/src.wav', np.stack([y, y[::-1]], axis=1), 22050, subtype='PCM_16')
sf.write(f'{d}/audio/rifx.wav', y, 22050, format='WAV', subtype='PCM_16', endian='BIG')
sf.write(f'{d}/audio/gsm.wav', y[:16000], 8000, format='WAV', subtype='GSM610')
sf.write(f'{d}/audio/ima4.aiff', y, 22050, format='AIFF', subtype='IMA_ADPCM')
sf.write(f'{d}/audio/alac.caf', np.stack([y, y[::-1]], axis=1), 22050, format='CAF', subtype='ALAC_24')
sf.write(f'{d}/audio/g721.wav', y[:16000], 8000, format='WAV', subtype='G721_32')
sf.write(f'{d}/audio/tone.au', y[:16000], 8000, format='AU', subtype='PCM_16')
sf.write(f'{d}/audio/g723.au', y[:12345], 8000, format='AU', subtype='G723_40', endian='LITTLE')
print(json.dumps({n: sf.info(f'{d}/audio/{n}').frames for n in ['rifx.wav', 'gsm.wav', 'ima4.aiff', 'alac.caf', 'g721.wav', 'tone.au', 'g723.au']}))
`, [dir, String(LONG_FRAMES)])) as Record<string, number>
  for (const [name, encoding] of [['ima.wav', 'ima-adpcm'], ['ms.wav', 'ms-adpcm']]) {
    const r = spawnSync('sox', [join(dir, 'src.wav'), '-e', encoding, join(dir, 'audio', name)], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`sox: ${r.stderr}`)
  }
  // AAC in MP4: libsndfile cannot read it (sf.info: "Format not recognised"), so the dataprep skips it
  const aac = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1:sample_rate=16000', '-c:a', 'aac', '-y', join(dir, 'audio', 'tone.m4a')], { encoding: 'utf8' })
  if (aac.status !== 0) throw new Error(`ffmpeg: ${aac.stderr}`)
  const frames = JSON.parse(runPython(`
import sys, json, soundfile as sf
print(json.dumps([sf.info(f'{sys.argv[1]}/audio/{n}').frames for n in ['ima.wav', 'ms.wav']]))
`, [dir])) as number[]

  // 22.05 kHz → 16 kHz: ceil(320 · n / 441), torchaudio's length with the gcd-reduced rates
  const at16k = (n: number) => Math.ceil(320 * n / 441)
  expectedSamples = LONG_FRAMES + 5 * 16000 + at16k(frames[0]) + at16k(frames[1]) + at16k(info['rifx.wav']) + 2 * info['gsm.wav'] +
    at16k(info['ima4.aiff']) + at16k(info['alac.caf']) + 2 * info['g721.wav'] + 2 * info['tone.au'] + 2 * info['g723.au']
  const row = (audio: string, text: string, extra: Record<string, number> = {}) => JSON.stringify({ audio_filepath: audio, text, lang: 'en', corpus: 'formats', split: 'train', ...extra })
  writeFileSync(join(dir, 'manifest.jsonl'), [
    row('audio/long.wav', 'the whole long recording'),
    row('audio/long.wav', 'five seconds of it', { offset: 300, duration: 5 }),
    row('audio/ima.wav', 'ima adpcm'),
    row('audio/ms.wav', 'microsoft adpcm'),
    row('audio/rifx.wav', 'big endian'),
    row('audio/gsm.wav', 'gsm six ten'),
    row('audio/ima4.aiff', 'apple ima four'),
    row('audio/alac.caf', 'apple lossless'),
    row('audio/g721.wav', 'g seven twenty one'),
    row('audio/tone.au', 'a sun audio file'),
    row('audio/g723.au', 'g seven twenty three in sun audio'),
    row('audio/tone.m4a', 'advanced audio coding'),
  ].join('\n') + '\n')
  spawnSync('rm', [join(dir, 'src.wav')])
})

async function convert(page: Page): Promise<void> {
  await page.goto('/')
  await page.evaluate(async () => (await navigator.storage.getDirectory()).removeEntry('prepared-formats', { recursive: true }).catch(() => undefined))
  await page.goto('/?view=prepare')
  await expect(page.getByRole('heading', { name: 'Prepare' })).toBeVisible()
  await page.getByLabel('Input folder (file dialog)').setInputFiles(dir)
  const partitions = page.getByRole('table', { name: 'Partitions to write' })
  await expect(partitions).toBeVisible({ timeout: 30_000 })
  await expect(partitions.locator('tbody tr')).toHaveCount(1)
  await expect(partitions.getByText('eng_Latn')).toBeVisible()
  await page.getByRole('button', { name: 'Convert into browser storage' }).click()
  await expect(page.getByText(/Wrote 11 rows/)).toBeVisible({ timeout: 120_000 })
  await expect(page.getByText(/1 unreadable/)).toBeVisible()
  // the long WAV's two clips (whole, and a segment) went the streamed way, in the browser's engine worker
  await expect(page.getByTestId('prepare-streamed')).toHaveText(/^2 clips from long input files converted a stretch at a time/)
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`converts a long WAV (streamed), ADPCM, RIFX, GSM 6.10, ima4, ALAC, G.721 and Sun AU, and names MP4 when skipping it (${colorScheme})`, async ({ page }) => {
    test.setTimeout(180_000)
    await page.emulateMedia({ colorScheme })
    await convert(page)
    const out = await page.evaluate(async () => {
      const root = await (await navigator.storage.getDirectory()).getDirectoryHandle('prepared-formats')
      const text = async (name: string) => (await (await root.getFileHandle(name)).getFile()).text()
      return { report: JSON.parse(await text('_prepare_report.json')) as { rows_written: number; files: { path: string; rows: number; audioSamples: number }[] }, skipped: await text('_prepare_skipped.jsonl') }
    })
    expect(out.report.rows_written).toBe(11)
    expect(out.report.files.map((f) => [f.path, f.rows])).toEqual([['version=0/corpus=formats/split=train/language=eng_Latn/part-0.parquet', 11]])
    expect(out.report.files[0].audioSamples).toBe(expectedSamples)
    const skipped = out.skipped.trim().split('\n').map((l) => JSON.parse(l) as { reason: string; message: string; audio: string })
    expect(skipped.map((s) => [s.audio, s.reason])).toEqual([['audio/tone.m4a', 'unreadable-audio']])
    expect(skipped[0].message).toMatch(/an MP4\/M4A file \(AAC, ALAC\): libsndfile, which the reference decodes with, does not read MP4/)
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: test.info().outputPath(`prepare-formats-${colorScheme}-${width}.png`), fullPage: true })
    }
  })
}
