/**
 * The US dollar value of a base-unit amount at a price per whole token, or undefined without a price.
 *
 * @example
 * usdValue(25_000_000n, 6, 1) // 25
 */
export function usdValue(
  amount: bigint,
  decimals: number,
  price: number | null | undefined,
): number | undefined {
  if (price === null || price === undefined) return undefined
  // Whole units with 6 decimals are plenty for dollars and keep the number exact enough.
  const scale = decimals > 6 ? 10n ** BigInt(decimals - 6) : 1n
  const micro = Number(amount / scale) / 10 ** Math.min(decimals, 6)
  return micro * price
}
