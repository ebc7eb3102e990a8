import type { ErrorSummary } from '../../errors/base.ts'
import type { Locale } from '../../protocol/locales.ts'
import { formatBalance } from '../format.ts'
import type { MessageKey, Messages } from '../locales/en.ts'
import type { MessageValues } from './message.ts'
import { createFormatter } from './message.ts'

/** Languages written right to left. */
const RTL = new Set<string>(['ar'])

export const localeDirection = (locale: string): 'ltr' | 'rtl' => (RTL.has(locale) ? 'rtl' : 'ltr')

/** Everything the views need to speak one language: messages, errors, numbers, money and dates. */
export interface Strings {
  locale: Locale
  dir: 'ltr' | 'rtl'
  /** The catalogue these strings speak from (a scope adds its own to it: `CatalogueScope`). */
  messages: Readonly<Partial<Record<MessageKey, string>>>
  /** A catalogue message with its values: `t('walletCount', { count: 3 })`. */
  t(key: MessageKey, values?: MessageValues): string
  /** An error in this language (its catalogue entry), or its own words when it has none. */
  error(error: ErrorSummary): string
  /** A count or other plain number: `1.234` in German. */
  number(value: number): string
  /** The decimal separator people type in this language: `,` in German. */
  decimalSeparator: string
  /** A base-unit amount to 3 decimals, rounded down (SPEC section 9): `10.000,000` in German. */
  balance(value: bigint, decimals: number): string
  /** Money: `currency(1234.5, 'USD')` is `1.234,50 $` in German. */
  currency(value: number, currency: string): string
  /** A date and time, medium date and short time by default. */
  date(value: Date | number, options?: Intl.DateTimeFormatOptions): string
}

/**
 * The strings of one language. In a right-to-left modal every value inserted into a message is
 * isolated, so `0xf39F…2266` or `10,000.000 ETH` reads the same as in English.
 *
 * @example
 * const strings = createStrings('de', messages, 'ltr')
 * strings.t('walletCount', { count: 1 }) // '1 Wallet'
 */
export function createStrings(
  locale: Locale,
  catalogue: Messages | Readonly<Partial<Record<MessageKey, string>>>,
  dir: 'ltr' | 'rtl',
): Strings {
  const messages = catalogue as Readonly<Partial<Record<MessageKey, string>>>
  const formatter = createFormatter(locale, { isolate: dir === 'rtl' })
  const warned = new Set<string>()
  const t = (key: MessageKey, values?: MessageValues) => {
    const text = messages[key]
    if (text === undefined) {
      if (!warned.has(key)) console.warn(`wallet-elements: no "${key}" in the ${locale} catalogue`)
      warned.add(key)
      return key
    }
    return formatter.format(text, values)
  }
  let decimalSeparator: string | undefined
  return {
    locale,
    dir,
    messages,
    t,
    error: (error) => {
      const key = `error.${error.messageId}` as MessageKey
      return error.messageId && key in messages ? t(key, error.messageValues) : error.message
    },
    number: formatter.number,
    get decimalSeparator() {
      decimalSeparator ??=
        new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.'
      return decimalSeparator
    },
    balance: (value, decimals) => formatBalance(value, decimals, { locale }),
    currency: (value, currency) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value),
    date: (value, options = { dateStyle: 'medium', timeStyle: 'short' }) =>
      new Intl.DateTimeFormat(locale, options).format(value),
  }
}
