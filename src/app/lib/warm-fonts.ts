/**
 * Looking the page's fonts up before the first layout needs them. On Linux, Chromium's renderer asks the browser
 * process, synchronously, for every font family × size × weight the first time a layout uses it (fontconfig
 * matching and render settings, `FontCache::GetFontPlatformData`: 2–6 ms each on 2 cores, more while the browser
 * process is busy with the page's requests). The app's first layout used ~30 of them: a task of 60–140 ms of which
 * 15–20 ms was the page's own work. Laid out a few at a time in tasks of their own, before React mounts, the same
 * lookups cost the first layout nothing. The sizes are the type scale's tokens (styles.css), the weights those it
 * uses (400, 500, 600), the monospace face that of `code`.
 */

/** The type scale's tokens (styles.css `--text-*`). */
const sizes = ['2xs', 'xs', 'sm', 'base', 'md', 'lg', 'xl', '2xl']
const weights = [400, 600]
/**
 * Letters and digits: the primary face. Symbols are left out: each one the face lacks is a fallback lookup per
 * style (with ten of them a batch of three styles was 43 lookups, itself a task of 40–60 ms).
 */
const sample = 'Hours 0123456789'

/** One batch per call: the text styles to lay out, each a span (or `code`) in a hidden box. */
export function fontWarmBatches(): { tag: 'span' | 'code'; size: string; weight: number }[][] {
  const styles = [...sizes.flatMap((size) => weights.map((weight) => ({ tag: 'span' as const, size, weight }))), { tag: 'code' as const, size: 'sm', weight: 400 }, { tag: 'span' as const, size: 'xs', weight: 500 }]
  const batches: (typeof styles)[] = []
  for (let i = 0; i < styles.length; i += 2) batches.push(styles.slice(i, i + 2))
  return batches
}

/**
 * Lays out one batch of text styles in a hidden box under `parent` and removes it (a forced layout of a few nodes:
 * the font lookups happen in it). Call once per task.
 */
export function warmFontBatch(parent: HTMLElement, batch: ReturnType<typeof fontWarmBatches>[number]): void {
  const box = document.createElement('div')
  box.setAttribute('aria-hidden', 'true')
  box.style.cssText = 'position:absolute;left:-10000px;top:0;visibility:hidden;white-space:nowrap;contain:layout style'
  for (const style of batch) {
    const el = document.createElement(style.tag)
    el.textContent = sample
    el.style.fontSize = `var(--text-${style.size})`
    el.style.fontWeight = String(style.weight)
    box.append(el, document.createElement('br'))
    const tabular = document.createElement('span')
    tabular.textContent = '0123456789'
    tabular.style.cssText = `font-size:var(--text-${style.size});font-weight:${style.weight};font-variant-numeric:tabular-nums`
    box.append(tabular, document.createElement('br'))
  }
  parent.append(box)
  void box.offsetWidth
  box.remove()
}
