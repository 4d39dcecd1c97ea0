/**
 * A sum of doubles rounded once, at the end: Shewchuk's non-overlapping partials, as Python's `math.fsum` keeps them
 * (msum, https://code.activestate.com/recipes/393090/). The result does not depend on the order the values were
 * added in, nor on how they were grouped, so sums taken over pieces (shards) and merged equal the sum of the whole.
 */
export class ExactSum {
  /** Non-overlapping partials, smallest magnitude first. */
  private partials: number[] = []

  /** Adds one finite value. */
  add(x: number): void {
    const p = this.partials
    let i = 0
    for (let j = 0; j < p.length; j++) {
      let y = p[j]
      if (Math.abs(x) < Math.abs(y)) { const t = x; x = y; y = t }
      const hi = x + y
      const lo = y - (hi - x)
      if (lo !== 0) p[i++] = lo
      x = hi
    }
    p.length = i
    p.push(x)
  }

  /** Adds another sum's partials (a shard's). */
  addSum(other: ExactSum | readonly number[]): void {
    for (const x of Array.isArray(other) ? other : (other as ExactSum).partials) this.add(x)
  }

  /** The partials, to carry the sum elsewhere (`addSum` takes them back). */
  toJSON(): number[] {
    return [...this.partials]
  }

  /** The correctly rounded sum (0 when nothing was added). */
  value(): number {
    const p = this.partials
    let n = p.length
    if (n === 0) return 0
    let hi = p[--n]
    let lo = 0
    while (n > 0) {
      const x = hi
      const y = p[--n]
      hi = x + y
      const yr = hi - x
      lo = y - yr
      if (lo !== 0) break
    }
    // round half to even across the remaining partials, as fsum does
    if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
      const y = lo * 2
      const x = hi + y
      const yr = x - hi
      if (y === yr) hi = x
    }
    return hi
  }
}
