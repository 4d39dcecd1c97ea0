/** `?raw` imports (WGSL shaders): Vite and Vitest load them natively, Node via src/cli/lib/raw-loader.mjs. */
declare module '*?raw' {
  const text: string
  export default text
}
