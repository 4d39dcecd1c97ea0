/** What every CLI command writes to; tests pass collectors, `main` passes process streams. */
export interface CliIo {
  /** Standard output; a command that streams awaits what it returns (backpressure, see src/cli/lib/output.ts). */
  stdout: (text: string) => void | Promise<void>
  stderr: (text: string) => void
}

/** Exit codes (docs/conventions.md "Findings and exit codes"). */
export const exitCodes = { ok: 0, findings: 1, usage: 2 } as const

/** Serializes a `--json` document: NaN/±Infinity become `null` (their findings say why), two-space indent. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, jsonReplacer, 2) + '\n'
}

/** The replacer `formatJson` uses: NaN/±Infinity → null, BigInt → Number. */
function jsonReplacer(_key: string, v: unknown): unknown {
  return typeof v === 'number' && !Number.isFinite(v) ? null : typeof v === 'bigint' ? Number(v) : v
}

/**
 * `formatJson(value)`, written in pieces: the top levels of objects and arrays (down to `depth`) one member at a
 * time, deeper values each as one `JSON.stringify`, so a document of hundreds of MB (a merged audit's findings) is
 * never one string in memory. The bytes are `formatJson`'s.
 */
export async function writeJson(value: unknown, write: (text: string) => Promise<void> | void, depth = 2): Promise<void> {
  let buffer = ''
  const emit = async (text: string) => {
    buffer += text
    if (buffer.length >= 1 << 20) {
      const out = buffer
      buffer = ''
      await write(out)
    }
  }
  const indent = (n: number) => '  '.repeat(n)
  const skipped = (x: unknown) => x === undefined || typeof x === 'function' || typeof x === 'symbol'
  const visit = async (key: string, v: unknown, level: number): Promise<void> => {
    v = jsonReplacer(key, v)
    if (level >= depth || v === null || typeof v !== 'object') {
      const text = JSON.stringify(v, jsonReplacer, 2)
      await emit(text === undefined ? 'null' : text.replaceAll('\n', `\n${indent(level)}`))
      return
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return emit('[]')
      await emit('[')
      for (let i = 0; i < v.length; i++) {
        await emit(`${i ? ',' : ''}\n${indent(level + 1)}`)
        await visit(String(i), skipped(v[i]) ? null : v[i], level + 1)
      }
      return emit(`\n${indent(level)}]`)
    }
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => !skipped(x))
    if (entries.length === 0) return emit('{}')
    await emit('{')
    for (let i = 0; i < entries.length; i++) {
      const [k, x] = entries[i]
      await emit(`${i ? ',' : ''}\n${indent(level + 1)}${JSON.stringify(k)}: `)
      await visit(k, x, level + 1)
    }
    await emit(`\n${indent(level)}}`)
  }
  await visit('', value, 0)
  await emit('\n')
  if (buffer) await write(buffer)
}
