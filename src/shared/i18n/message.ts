/**
 * A small ICU MessageFormat subset for the locale catalogues: `{name}` arguments, `{n, number}`,
 * `{n, plural, =0 {…} one {# wallet} other {# wallets}}` (plural categories from
 * `Intl.PluralRules`, `#` the formatted number) and `{kind, select, a {…} other {…}}`.
 * Apostrophes follow ICU: `'{'` quotes a brace, `''` is one apostrophe, any other `'` is literal.
 */

/** One piece of a parsed message: text, or an argument with its branches. */
export type Part = string | Argument | Choice
type Argument = { name: string; kind: 'value' | 'number' }
type Choice = { name: string; kind: 'plural' | 'select'; branches: Record<string, Part[]> }

export type MessageValues = Readonly<Record<string, string | number>>

class MessageSyntaxError extends Error {
  override name = 'MessageSyntaxError'
}

/**
 * Parses a catalogue message; throws on a syntax error (the catalogue tests parse every message).
 *
 * @example
 * parseMessage('{count, plural, one {# wallet} other {# wallets}}')
 */
export function parseMessage(text: string): Part[] {
  let index = 0
  const fail = (problem: string): never => {
    throw new MessageSyntaxError(`${problem} at ${index} in "${text}"`)
  }
  const skipSpace = () => {
    while (/\s/.test(text[index] ?? '')) index++
  }
  const word = () => {
    skipSpace()
    const start = index
    while (index < text.length && !/[\s,{}]/.test(text[index] as string)) index++
    if (index === start) fail('expected a name')
    return text.slice(start, index)
  }
  const expect = (char: string) => {
    skipSpace()
    if (text[index] !== char) fail(`expected "${char}"`)
    index++
  }

  const parts = (inPlural: boolean, nested: boolean): Part[] => {
    const out: Part[] = []
    let literal = ''
    const flush = () => {
      if (literal) out.push(literal)
      literal = ''
    }
    while (index < text.length) {
      const char = text[index] as string
      if (char === '}') {
        if (!nested) fail('unmatched "}"')
        break
      }
      if (char === "'") {
        const next = text[index + 1]
        if (next === "'") {
          literal += "'"
          index += 2
        } else if (next === '{' || next === '}' || (inPlural && next === '#')) {
          const end = text.indexOf("'", index + 1)
          if (end < 0) fail('unclosed quote')
          literal += text.slice(index + 1, end)
          index = end + 1
        } else {
          literal += char
          index++
        }
      } else if (char === '#' && inPlural) {
        flush()
        out.push({ name: '#', kind: 'number' })
        index++
      } else if (char === '{') {
        flush()
        index++
        out.push(argument())
      } else {
        literal += char
        index++
      }
    }
    flush()
    return out
  }

  const argument = (): Part => {
    const name = word()
    skipSpace()
    if (text[index] === '}') {
      index++
      return { name, kind: 'value' }
    }
    expect(',')
    const kind = word()
    skipSpace()
    if (kind === 'number') {
      expect('}')
      return { name, kind: 'number' }
    }
    if (kind !== 'plural' && kind !== 'select') return fail(`unknown argument type "${kind}"`)
    expect(',')
    const branches: Record<string, Part[]> = {}
    for (skipSpace(); text[index] !== '}'; skipSpace()) {
      if (index >= text.length) fail('unclosed argument')
      const key = word()
      expect('{')
      branches[key] = parts(kind === 'plural', true)
      expect('}')
    }
    index++
    if (!branches.other) fail(`"${name}" needs an "other" branch`)
    return { name, kind, branches }
  }

  const result = parts(false, false)
  if (index < text.length) fail('unexpected "}"')
  return result
}

/** Formats parsed messages in one language. */
export interface MessageFormatter {
  format(text: string, values?: MessageValues): string
  number(value: number): string
}

/**
 * A formatter for one language; parsed messages and `Intl` objects are kept for reuse. `isolate`
 * wraps every argument in Unicode isolates (FSI…PDI) so an address or an amount keeps its own
 * direction inside a right-to-left sentence.
 *
 * @example
 * createFormatter('ru').format('{count, plural, one {# кошелёк} few {# кошелька} many {# кошельков} other {# кошелька}}', { count: 3 })
 */
export function createFormatter(locale: string, options: { isolate?: boolean } = {}): MessageFormatter {
  const parsed = new Map<string, Part[]>()
  // Made on first use: a first Intl object costs milliseconds, and most messages have no number.
  let numberFormat: Intl.NumberFormat | undefined
  let pluralRules: Intl.PluralRules | undefined
  const numbers = {
    format(value: number) {
      numberFormat ??= new Intl.NumberFormat(locale)
      return numberFormat.format(value)
    },
  }
  const plurals = {
    select(value: number) {
      pluralRules ??= new Intl.PluralRules(locale)
      return pluralRules.select(value)
    },
  }
  const isolate = (value: string) => (options.isolate ? `\u2068${value}\u2069` : value)
  const show = (value: string | number | undefined) =>
    typeof value === 'number' ? numbers.format(value) : (value ?? '')

  const render = (parts: readonly Part[], values: MessageValues, count: number | undefined): string =>
    parts
      .map((part) => {
        if (typeof part === 'string') return part
        if (part.name === '#') return numbers.format(count ?? 0)
        const value = values[part.name]
        if (!('branches' in part))
          return isolate(part.kind === 'number' ? numbers.format(Number(value)) : String(show(value)))
        const key = String(value)
        if (part.kind === 'select')
          return render(part.branches[key] ?? part.branches.other ?? [], values, count)
        const n = Number(value)
        const branch = part.branches[`=${n}`] ?? part.branches[plurals.select(n)] ?? part.branches.other
        return render(branch ?? [], values, n)
      })
      .join('')

  return {
    format(text, values = {}) {
      let parts = parsed.get(text)
      if (!parts) {
        parts = parseMessage(text)
        parsed.set(text, parts)
      }
      return render(parts, values, undefined)
    },
    number: (value) => numbers.format(value),
  }
}
