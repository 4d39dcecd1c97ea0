/**
 * The hover box of the plain-SVG charts: a title and lines, in the panel's colours (readable in both themes), placed
 * beside the pointer and kept inside the chart's box. Visual only (`aria-hidden`): the tables beside every chart
 * carry the same numbers as text.
 */

/** What the box says: a bold title and lines under it. */
export interface TooltipContent {
  title: string
  lines: string[]
}

/**
 * The box at `(x, y)` px inside a chart `width` × `height` px: flipped to the pointer's left near the right edge and
 * above it in the lower half, so it stays inside the chart's box (the Overview's blocks contain their paint:
 * `content-visibility`, overview.css).
 */
export function ChartTooltip({ content, x, y, width, height }: { content: TooltipContent; x: number; y: number; width: number; height: number }) {
  const right = x > width * 0.6
  const above = y > height * 0.5
  return (
    <div className="chart-tooltip" aria-hidden="true"
      style={{ ...(above ? { bottom: Math.max(0, height - y - 8) } : { top: Math.max(0, y - 8) }), ...(right ? { right: width - x + 12 } : { left: x + 12 }) }}>
      <div className="chart-tooltip-title">{content.title}</div>
      {content.lines.map((line, i) => <div key={i}>{line}</div>)}
    </div>
  )
}
