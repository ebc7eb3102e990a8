const DECIMAL = /^(\d*)(?:\.(\d*))?$/

/**
 * Turns a decimal amount typed by a person into base units (lamports, token units, wei), or
 * `undefined` when the text is not a plain non-negative decimal: empty, signed, exponent form,
 * thousands separators, or more fraction digits than `decimals` (trailing zeros aside, since
 * `1.50` is exactly `1.5`). Surrounding whitespace is ignored; `.5` and `5.` are accepted.
 * Chain-neutral: the EVM side uses it with 18 decimals.
 *
 * @example
 * parseAmount('0.5', 9) // 500000000n
 * parseAmount('1.2345678', 6) // undefined (too many decimals)
 * parseAmount('1e3', 6) // undefined
 */
export function parseAmount(text: string, decimals: number): bigint | undefined {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new RangeError(`decimals must be an integer from 0 to 255, got ${decimals}`)
  }
  const match = DECIMAL.exec(text.trim())
  if (!match) return undefined
  const whole = match[1] ?? ''
  const fraction = (match[2] ?? '').replace(/0+$/, '')
  // '' and '.' have digits on neither side.
  if (whole === '' && !match[2]) return undefined
  if (fraction.length > decimals) return undefined
  return BigInt(whole || '0') * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
}
