import * as z from 'zod/mini'
import { caip2NetworkId } from './common.ts'
import { accountAddress } from './names.ts'

/**
 * The on-ramp API of the companion service (`/onramp/v1/*`, SPEC sections 3, 4, 7 and 9): what can be
 * bought and paid with (currencies, payment methods and their limits), a quote, and the provider's
 * checkout URL for the visitor. The provider is an adapter the operator configures (docs/SELF-HOSTING.md).
 */

/** Error codes of the on-ramp API besides the common ones. */
export const onrampErrorCodes = [
  'ONRAMP_DISABLED',
  'ONRAMP_NOT_CONFIGURED',
  'ONRAMP_CURRENCY_NOT_SUPPORTED',
  'ONRAMP_AMOUNT_OUT_OF_RANGE',
] as const

export type OnrampErrorCode = (typeof onrampErrorCodes)[number]

/** The payment methods of SPEC section 9. */
export const onrampPaymentMethods = ['card', 'ach_bank_account'] as const
export type OnrampPaymentMethod = (typeof onrampPaymentMethods)[number]

/** How the service's messages name each payment method. */
export const onrampPaymentMethodNames: Record<OnrampPaymentMethod, string> = {
  card: 'Card',
  ach_bank_account: 'Bank transfer (ACH)',
}

/** A fiat amount: a decimal string with at most 2 decimals, below a billion. */
export const fiatAmount = z
  .string()
  .check(z.regex(/^\d{1,9}(\.\d{1,2})?$/, 'Expected an amount such as 50 or 50.00'))

/** A purchase currency's network (SPEC 3): field names as the entity has them. */
export const onrampNetwork = z.object({
  name: z.string(),
  display_name: z.string(),
  chain_id: caip2NetworkId,
  contract_address: z.string(),
})

/** A currency that can be bought (SPEC 3): id, name, symbol, networks. */
export const purchaseCurrency = z.object({
  id: z.string(),
  name: z.string(),
  symbol: z.string(),
  networks: z.array(onrampNetwork),
})

export type PurchaseCurrency = z.infer<typeof purchaseCurrency>

/** A currency that can be paid with and each method's limits (SPEC 3, 9): decimal strings. */
export const paymentCurrency = z.object({
  id: z.string(),
  payment_method_limits: z.array(
    z.object({ id: z.enum(onrampPaymentMethods), min: z.string(), max: z.string() }),
  ),
})

export type PaymentCurrency = z.infer<typeof paymentCurrency>

/** Answer of `GET /onramp/v1/options`. */
export const onrampOptionsResponse = z.object({
  purchaseCurrencies: z.array(purchaseCurrency),
  paymentCurrencies: z.array(paymentCurrency),
})

export type OnrampOptionsResponse = z.infer<typeof onrampOptionsResponse>

const currencyId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,32}$/, 'Expected a currency id'))

/** Query of `GET /onramp/v1/quote` (SPEC 7: purchaseCurrency, paymentCurrency, amount, network). */
export const onrampQuoteQuery = z.object({
  purchaseCurrency: currencyId,
  paymentCurrency: currencyId,
  amount: fiatAmount,
  network: caip2NetworkId,
  paymentMethod: z.enum(onrampPaymentMethods),
})

export type OnrampQuoteQuery = z.infer<typeof onrampQuoteQuery>

const money = z.object({ amount: z.string(), currency: z.string() })

/** Answer of the quote (SPEC 7: `purchaseAmount.amount`), with what is paid and the provider's fee. */
export const onrampQuoteResponse = z.object({
  purchaseAmount: money,
  paymentTotal: money,
  fee: money,
})

export type OnrampQuoteResponse = z.infer<typeof onrampQuoteResponse>

/** Body of `POST /onramp/v1/url`: the quote's fields and the address that receives the tokens. */
export const onrampUrlBody = z.object({
  purchaseCurrency: currencyId,
  paymentCurrency: currencyId,
  amount: fiatAmount,
  network: caip2NetworkId,
  paymentMethod: z.enum(onrampPaymentMethods),
  address: accountAddress,
})

export type OnrampUrlBody = z.infer<typeof onrampUrlBody>

/** Answer of `POST /onramp/v1/url`: the provider's checkout page and the recorded purchase. */
export const onrampUrlResponse = z.object({ url: z.string(), purchaseId: z.string() })

export type OnrampUrlResponse = z.infer<typeof onrampUrlResponse>

/**
 * The message of an amount outside a payment method's limits.
 *
 * @example
 * onrampLimitMessage('card', '10.00', '7500.00', 'USD') // 'Card payments take 10.00 to 7500.00 USD'
 */
export const onrampLimitMessage = (method: OnrampPaymentMethod, min: string, max: string, currency: string) =>
  `${onrampPaymentMethodNames[method]} payments take ${min} to ${max} ${currency}`

/**
 * Whether a decimal amount lies within `[min, max]`, compared in cents (no floating point).
 *
 * @example
 * withinLimits('50', { min: '10.00', max: '7500.00' }) // true
 */
export function withinLimits(amount: string, limits: { min: string; max: string }): boolean {
  const cents = (value: string) => {
    const [whole = '0', fraction = ''] = value.split('.')
    return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2) || '0')
  }
  const value = cents(amount)
  return value >= cents(limits.min) && value <= cents(limits.max)
}

/** Answer of `GET /onramp/v1/purchases/{id}`: where the purchase stands (`completed` once delivered). */
export const onrampPurchaseResponse = z.object({
  purchaseId: z.string(),
  status: z.enum(['pending', 'completed', 'failed']),
  address: z.string(),
  network: z.string(),
  purchaseAmount: money,
  txHash: z.nullable(z.string()),
})

export type OnrampPurchaseResponse = z.infer<typeof onrampPurchaseResponse>
