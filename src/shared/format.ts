import { BALANCE_DECIMALS } from '../protocol/constants.ts'

/**
 * Formats a base-unit amount to 3 decimals (SPEC section 9), rounding down so a balance is
 * never shown larger than it is, with the separators of `locale` (default `en-US`). Every digit
 * is kept, however large the amount.
 *
 * @example
 * formatBalance(1234567890000000000n, 18) // '1.234'
 * formatBalance(10n ** 22n, 18, { locale: 'de' }) // '10.000,000'
 */
export function formatBalance(
  value: bigint,
  decimals: number,
  { places = BALANCE_DECIMALS, locale = 'en-US' }: { places?: number; locale?: string } = {},
): string {
  const negative = value < 0n
  const abs = negative ? -value : value
  const base = 10n ** BigInt(decimals)
  const whole = abs / base
  const fraction = (((abs % base) * 10n ** BigInt(places)) / base).toString().padStart(places, '0')
  // A decimal string keeps every digit (Intl.NumberFormat reads it exactly, unlike a number).
  const text = `${negative ? '-' : ''}${whole}${places ? `.${fraction}` : ''}` as unknown as number
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: places,
    maximumFractionDigits: places,
  }).format(text)
}

/**
 * Shortens an address for display: `0x1234…abcd`.
 *
 * @example
 * shortAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // '0xf39F…2266'
 */
export function shortAddress(address: string): string {
  return address.length <= 12 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`
}

/**
 * Formats a base-unit amount exactly, without trailing zeros, with the separators of `locale` (what
 * an approval shows: nothing rounded away).
 *
 * @example
 * formatExact(1500000000000000000n, 18) // '1.5'
 * formatExact(1234500000000n, 9, 'de') // '1.234,5'
 */
export function formatExact(value: bigint, decimals: number, locale = 'en-US'): string {
  const base = 10n ** BigInt(decimals)
  const whole = value / base
  const fraction = (value % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  // A decimal string keeps every digit (Intl formats strings exactly).
  const text = fraction ? `${whole}.${fraction}` : `${whole}`
  return new Intl.NumberFormat(locale, { maximumFractionDigits: Math.min(decimals, 100) }).format(
    text as unknown as number,
  )
}
