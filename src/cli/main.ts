/** CLI entry: dispatches `mixscope <command>`; each command lives in src/cli/commands/<name>.ts. */
export async function main(argv: string[]): Promise<number> {
  process.stdout.write(`mixscope ${argv.join(' ')}\n`)
  return 0
}
