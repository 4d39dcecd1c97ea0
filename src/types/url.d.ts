/** `?url` imports (a bundled asset's URL): Vite resolves them; only browser-only modules use them. */
declare module '*?url' {
  const url: string
  export default url
}
