/**
 * Parser for `partition_filters` strings as users write them, without `eval` (docs/reference-pipeline.md §3): the Python subset
 * that the reference's `eval()` + `pq.filters_to_expression()` accept for partition filters.
 *
 * - DNF lists of tuples (pyarrow `filters_to_expression`): `[("language", "in", ["eng_Latn"])]` (AND of tuples)
 *   or `[[("a", "=", "x")], [("b", "!=", "y")]]` (OR of ANDs); ops `=`, `==`, `!=`, `<`, `>`, `<=`, `>=`,
 *   `in`, `not in`.
 * - Expressions: `pc.field("x") == "y"` (any comparison, field on either side), `pc.is_in(pc.field("x"),
 *   pa.array([...]))` (or `value_set=`), `pc.field("x").isin([...])`, `pc.equal`/`pc.not_equal`/`pc.less`/...,
 *   combined with `&`, `|`, `~` and parentheses, with Python precedence: comparisons bind looser than `&`/`|`,
 *   so `pc.field("a") == "x" & pc.field("b") == "y"` is an error, exactly as in Python.
 */

import { MixscopeError } from '../../core/findings.ts'

/** Comparison operators of the filter AST. */
export type CompareOp = '==' | '!=' | '<' | '>' | '<=' | '>='

/** A literal scalar: partition values are compared as strings (see `partition-filter.ts`). */
export type FilterScalar = string | number | boolean | null

/** One side of a comparison. */
export type FilterOperand = { kind: 'field'; name: string } | { kind: 'scalar'; value: FilterScalar }

/** Boolean filter expression over partition keys. */
export type FilterExpr =
  | { kind: 'compare'; op: CompareOp; left: FilterOperand; right: FilterOperand }
  | { kind: 'in'; field: string; values: FilterScalar[] }
  | { kind: 'and'; items: FilterExpr[] }
  | { kind: 'or'; items: FilterExpr[] }
  | { kind: 'not'; item: FilterExpr }

type Token = { type: 'str' | 'num' | 'name' | 'op'; text: string; value: string | number; at: number }

/** Python values the parser builds before interpreting them. */
type PyValue =
  | { t: 'scalar'; v: FilterScalar; at: number }
  | { t: 'seq'; items: PyValue[]; at: number }
  | { t: 'field'; name: string; at: number }
  | { t: 'expr'; e: FilterExpr; at: number }
  | { t: 'ref'; name: string; at: number }

/** Deepest nesting of parentheses, brackets and `~` a filter may have (pyarrow filters nest a few levels). */
export const maxFilterDepth = 100

function fail(source: string, at: number, what: string): never {
  const excerpt = source.slice(at, at + 30)
  const whole = source.length > 200 ? `${JSON.stringify(source.slice(0, 200))}… (${source.length} characters)` : JSON.stringify(source)
  throw new MixscopeError(`partition filter: ${what} at position ${at} (${JSON.stringify(excerpt)}) in ${whole}`,
    'partition-filter-invalid', 'usage')
}

const punctuation = ['==', '!=', '<=', '>=', '(', ')', '[', ']', '{', '}', ',', '.', '&', '|', '~', '<', '>', '=']

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < source.length) {
    const c = source[i]
    if (/\s/.test(c)) { i++; continue }
    if (c === '"' || c === '\'') {
      let j = i + 1
      let text = ''
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\') {
          const next = source[j + 1]
          const escapes: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', '\'': '\'', '"': '"' }
          if (next === undefined || !(next in escapes)) fail(source, j, 'unsupported escape in string')
          text += escapes[next]
          j += 2
        } else {
          text += source[j++]
        }
      }
      if (j >= source.length) fail(source, i, 'unterminated string')
      tokens.push({ type: 'str', text: source.slice(i, j + 1), value: text, at: i })
      i = j + 1
      continue
    }
    const number = /^-?(\d[\d_]*)(\.\d+)?([eE][-+]?\d+)?/.exec(source.slice(i))
    if (number && (c !== '-' || !/[\w)\]]$/.test(source.slice(0, i).trimEnd()))) {
      tokens.push({ type: 'num', text: number[0], value: Number(number[0].replaceAll('_', '')), at: i })
      i += number[0].length
      continue
    }
    const name = /^[A-Za-z_]\w*/.exec(source.slice(i))
    if (name) {
      tokens.push({ type: 'name', text: name[0], value: name[0], at: i })
      i += name[0].length
      continue
    }
    const op = punctuation.find((p) => source.startsWith(p, i))
    if (!op) fail(source, i, `unexpected character ${JSON.stringify(c)}`)
    tokens.push({ type: 'op', text: op, value: op, at: i })
    i += op.length
  }
  return tokens
}

class Parser {
  private position = 0
  /** Nesting depth now: the parser recurses per level, so a filter nested 50,000 deep is refused, not a stack overflow. */
  private depth = 0
  constructor(private readonly source: string, private readonly tokens: Token[]) {}

  parseAll(): PyValue {
    const value = this.comparison()
    const extra = this.peek()
    if (extra) fail(this.source, extra.at, `unexpected ${JSON.stringify(extra.text)}`)
    return value
  }

  private peek(): Token | undefined { return this.tokens[this.position] }
  private isOp(text: string): boolean { const t = this.peek(); return t?.type === 'op' && t.text === text }
  private take(): Token {
    const t = this.tokens[this.position++]
    if (!t) fail(this.source, this.source.length, 'unexpected end of filter')
    return t
  }
  private expect(text: string): Token {
    const t = this.take()
    if (t.type !== 'op' || t.text !== text) fail(this.source, t.at, `expected ${JSON.stringify(text)}`)
    return t
  }

  private comparison(): PyValue {
    if (++this.depth > maxFilterDepth) fail(this.source, this.peek()?.at ?? this.source.length, `nested more than ${maxFilterDepth} levels deep`)
    try {
      return this.comparisonAt()
    } finally {
      this.depth--
    }
  }

  private comparisonAt(): PyValue {
    const left = this.bitOr()
    const t = this.peek()
    if (!t || t.type !== 'op' || !['==', '!=', '<', '>', '<=', '>='].includes(t.text)) return left
    this.take()
    const right = this.bitOr()
    const next = this.peek()
    if (next?.type === 'op' && ['==', '!=', '<', '>', '<=', '>='].includes(next.text)) {
      fail(this.source, next.at, 'chained comparison (Python parses `a == "x" & b == "y"` as a chain: add parentheses)')
    }
    return { t: 'expr', e: this.compare(t.text as CompareOp, left, right, t.at), at: left.at }
  }

  compare(op: CompareOp, left: PyValue, right: PyValue, at: number): FilterExpr {
    const operand = (v: PyValue): FilterOperand => {
      if (v.t === 'field') return { kind: 'field', name: v.name }
      if (v.t === 'scalar') return { kind: 'scalar', value: v.v }
      return fail(this.source, v.at, 'comparison operand must be pc.field(...) or a literal')
    }
    const l = operand(left)
    const r = operand(right)
    if (l.kind !== 'field' && r.kind !== 'field') fail(this.source, at, 'comparison needs a pc.field(...) on one side')
    return { kind: 'compare', op, left: l, right: r }
  }

  private bitOr(): PyValue { return this.chain('|', () => this.bitAnd(), 'or') }
  private bitAnd(): PyValue { return this.chain('&', () => this.unary(), 'and') }

  private chain(op: string, next: () => PyValue, kind: 'and' | 'or'): PyValue {
    let value = next()
    while (this.isOp(op)) {
      const t = this.take()
      const right = next()
      value = { t: 'expr', e: { kind, items: [this.boolean(value, t.at), this.boolean(right, t.at)] }, at: value.at }
    }
    return value
  }

  boolean(v: PyValue, at: number): FilterExpr {
    if (v.t === 'expr') return v.e
    return fail(this.source, v.t === 'scalar' || v.t === 'seq' ? v.at : at, 'expected a boolean filter expression (a comparison, is_in, or & | ~ of them; comparisons bind looser than & and | in Python: add parentheses)')
  }

  private unary(): PyValue {
    if (this.isOp('~')) {
      const t = this.take()
      if (++this.depth > maxFilterDepth) fail(this.source, t.at, `nested more than ${maxFilterDepth} levels deep`)
      const inner = this.unary()
      this.depth--
      return { t: 'expr', e: { kind: 'not', item: this.boolean(inner, t.at) }, at: t.at }
    }
    return this.postfix()
  }

  private postfix(): PyValue {
    let value = this.atom()
    for (;;) {
      if (this.isOp('.')) {
        this.take()
        const name = this.take()
        if (name.type !== 'name') fail(this.source, name.at, 'expected a name after "."')
        if (value.t === 'ref') {
          value = { t: 'ref', name: `${value.name}.${name.text}`, at: value.at }
          continue
        }
        if (!this.isOp('(')) fail(this.source, name.at, `expected a call to .${name.text}(...)`)
        const args = this.arguments()
        value = this.method(value, name.text, args.positional, args.keywords, name.at)
      } else if (this.isOp('(') && value.t === 'ref') {
        const args = this.arguments()
        value = this.call(value.name, args.positional, args.keywords, value.at)
      } else {
        return value
      }
    }
  }

  private arguments(): { positional: PyValue[]; keywords: Map<string, PyValue> } {
    this.expect('(')
    const positional: PyValue[] = []
    const keywords = new Map<string, PyValue>()
    while (!this.isOp(')')) {
      const t = this.peek()
      const next = this.tokens[this.position + 1]
      if (t?.type === 'name' && next?.type === 'op' && next.text === '=') {
        this.position += 2
        keywords.set(t.text, this.comparison())
      } else {
        positional.push(this.comparison())
      }
      if (!this.isOp(')')) this.expect(',')
    }
    this.expect(')')
    return { positional, keywords }
  }

  private call(name: string, args: PyValue[], keywords: Map<string, PyValue>, at: number): PyValue {
    const compareFunctions: Record<string, CompareOp> = {
      'pc.equal': '==', 'pc.not_equal': '!=', 'pc.less': '<', 'pc.less_equal': '<=', 'pc.greater': '>', 'pc.greater_equal': '>=',
    }
    if (name === 'pc.field' || name === 'pa.compute.field' || name === 'pyarrow.compute.field') {
      if (args.length !== 1 || args[0].t !== 'scalar' || typeof args[0].v !== 'string') fail(this.source, at, 'pc.field takes one string')
      return { t: 'field', name: args[0].v as string, at }
    }
    if (name === 'pa.array') {
      if (args.length !== 1 || args[0].t !== 'seq' || keywords.size > 0) fail(this.source, at, 'pa.array takes one list literal')
      return args[0]
    }
    if (name === 'pa.scalar' || name === 'pc.scalar') {
      if (args.length !== 1 || args[0].t !== 'scalar') fail(this.source, at, `${name} takes one literal`)
      return args[0]
    }
    if (name === 'pc.is_in') {
      const valueSet = args[1] ?? keywords.get('value_set')
      if (!args[0] || !valueSet || args.length > 2) fail(this.source, at, 'pc.is_in takes pc.field(...) and a value set')
      return { t: 'expr', e: this.isIn(args[0], valueSet), at }
    }
    if (name in compareFunctions) {
      if (args.length !== 2) fail(this.source, at, `${name} takes two arguments`)
      return { t: 'expr', e: this.compare(compareFunctions[name], args[0], args[1], at), at }
    }
    if (name === 'pc.and_' || name === 'pc.and_kleene' || name === 'pc.or_' || name === 'pc.or_kleene') {
      if (args.length !== 2) fail(this.source, at, `${name} takes two arguments`)
      return { t: 'expr', e: { kind: name.startsWith('pc.and') ? 'and' : 'or', items: args.map((a) => this.boolean(a, at)) }, at }
    }
    if (name === 'pc.invert') {
      if (args.length !== 1) fail(this.source, at, 'pc.invert takes one argument')
      return { t: 'expr', e: { kind: 'not', item: this.boolean(args[0], at) }, at }
    }
    return fail(this.source, at, `unsupported call ${name}(...)`)
  }

  private method(self: PyValue, method: string, args: PyValue[], keywords: Map<string, PyValue>, at: number): PyValue {
    if (self.t === 'field' && method === 'isin') {
      const valueSet = args[0] ?? keywords.get('values')
      if (!valueSet || args.length > 1) fail(this.source, at, '.isin takes one value list')
      return { t: 'expr', e: this.isIn(self, valueSet), at }
    }
    return fail(this.source, at, `unsupported method .${method}(...)`)
  }

  isIn(field: PyValue, valueSet: PyValue): FilterExpr {
    if (field.t !== 'field') fail(this.source, field.at, 'is_in needs pc.field(...) as its first argument')
    if (valueSet.t !== 'seq' || valueSet.items.some((v) => v.t !== 'scalar')) fail(this.source, valueSet.at, 'is_in needs a list of literals')
    return { kind: 'in', field: field.name, values: valueSet.items.map((v) => (v as { v: FilterScalar }).v) }
  }

  private atom(): PyValue {
    const t = this.take()
    if (t.type === 'str' || t.type === 'num') return { t: 'scalar', v: t.value, at: t.at }
    if (t.type === 'name') {
      if (t.text === 'True' || t.text === 'False') return { t: 'scalar', v: t.text === 'True', at: t.at }
      if (t.text === 'None') return { t: 'scalar', v: null, at: t.at }
      if (['not', 'and', 'or', 'in', 'lambda'].includes(t.text)) fail(this.source, t.at, `unsupported Python keyword "${t.text}" (use ~, &, |)`)
      return { t: 'ref', name: t.text, at: t.at }
    }
    if (t.text === '(' || t.text === '[' || t.text === '{') {
      const close = t.text === '(' ? ')' : t.text === '[' ? ']' : '}'
      const items: PyValue[] = []
      let sawComma = false
      while (!this.isOp(close)) {
        items.push(this.comparison())
        if (!this.isOp(close)) { this.expect(','); sawComma = true }
      }
      this.take()
      if (t.text === '(' && items.length === 1 && !sawComma) return items[0]
      return { t: 'seq', items, at: t.at }
    }
    return fail(this.source, t.at, `unexpected ${JSON.stringify(t.text)}`)
  }
}

/** Interprets a Python list as pyarrow DNF (`filters_to_expression`). */
function fromDnf(source: string, list: PyValue & { t: 'seq' }): FilterExpr {
  if (list.items.length === 0) fail(source, list.at, 'empty filter list')
  const isTuple = (v: PyValue) => v.t === 'seq' && v.items.length === 3 && v.items[0].t === 'scalar' && typeof v.items[0].v === 'string'
  const conjunction = (group: PyValue): FilterExpr => {
    if (group.t !== 'seq' || group.items.length === 0) fail(source, group.at, 'expected a non-empty list of (column, op, value) tuples')
    return { kind: 'and', items: group.items.map((tuple) => fromTuple(source, tuple)) }
  }
  if (list.items.every(isTuple)) return conjunction(list)
  return { kind: 'or', items: list.items.map(conjunction) }
}

function fromTuple(source: string, tuple: PyValue): FilterExpr {
  if (tuple.t !== 'seq' || tuple.items.length !== 3) fail(source, tuple.at, 'expected a (column, op, value) tuple')
  const [column, opValue, value] = tuple.items
  if (column.t !== 'scalar' || typeof column.v !== 'string') fail(source, column.at, 'column name must be a string')
  if (opValue.t !== 'scalar' || typeof opValue.v !== 'string') fail(source, opValue.at, 'operator must be a string')
  const op = opValue.v
  const field = column.v
  if (op === 'in' || op === 'not in') {
    if (value.t !== 'seq' || value.items.some((v) => v.t !== 'scalar')) fail(source, value.at, `"${op}" needs a list of literals`)
    const inExpr: FilterExpr = { kind: 'in', field, values: value.items.map((v) => (v as { v: FilterScalar }).v) }
    return op === 'in' ? inExpr : { kind: 'not', item: inExpr }
  }
  const ops: Record<string, CompareOp> = { '=': '==', '==': '==', '!=': '!=', '<': '<', '>': '>', '<=': '<=', '>=': '>=' }
  if (!(op in ops)) fail(source, opValue.at, `unknown operator "${op}" (expected =, ==, !=, <, >, <=, >=, in, not in)`)
  if (value.t !== 'scalar') fail(source, value.at, 'comparison value must be a literal')
  return { kind: 'compare', op: ops[op], left: { kind: 'field', name: field }, right: { kind: 'scalar', value: value.v } }
}

/**
 * Parses one `partition_filters` string into a boolean expression.
 * @throws MixscopeError `partition-filter-invalid` (exit class `usage`) naming the position and the text.
 */
export function parseFilterString(source: string): FilterExpr {
  const tokens = tokenize(source)
  if (tokens.length === 0) fail(source, 0, 'empty filter')
  const value = new Parser(source, tokens).parseAll()
  if (value.t === 'expr') return value.e
  if (value.t === 'seq') return fromDnf(source, value)
  return fail(source, value.at, 'expected a filter expression or a DNF list of tuples')
}
