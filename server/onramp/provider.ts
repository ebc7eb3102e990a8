/**
 * The on-ramp provider adapter (SPEC sections 3, 4, 7, 9). The service speaks one provider
 * protocol, "checkout API" (docs/SELF-HOSTING.md, "On-ramp"): currencies, quotes and hosted checkout
 * sessions over HTTPS with a bearer key, and a signed webhook when a purchase completes. The dev stand-in
 * (server/dev/onramp) speaks it on the local chain; an operator points `ONRAMP_PROVIDER_URL` at a
 * provider that does, or at a small bridge in front of one that does not.
 */
import { z } from 'zod'
import type { OnrampQuoteQuery, OnrampQuoteResponse, OnrampUrlBody } from '../../src/protocol/api/index.ts'
import { onrampQuoteResponse, paymentCurrency, purchaseCurrency } from '../../src/protocol/api/index.ts'
import { ServiceError } from '../errors.ts'

/** What the provider sells and takes; `paymentCurrencies` absent: SPEC section 9's defaults. */
const currenciesAnswer = z.object({
  purchaseCurrencies: z.array(purchaseCurrency).max(200),
  paymentCurrencies: z.array(paymentCurrency).max(50).optional(),
})

export type ProviderCurrencies = z.infer<typeof currenciesAnswer>

const sessionAnswer = z.object({ url: z.string().max(2048) })

export interface OnrampProvider {
  /** The provider's name, stored with each purchase. */
  readonly name: string
  currencies(): Promise<ProviderCurrencies>
  quote(query: OnrampQuoteQuery): Promise<OnrampQuoteResponse>
  /** Opens a checkout for the purchase; resolves to the page the visitor pays on (on the provider's origin). */
  checkout(body: OnrampUrlBody & { reference: string }): Promise<{ url: string }>
}

export interface CheckoutApiOptions {
  url: string
  apiKey: string | null
  timeoutMs: number
  fetch?: typeof fetch
}

function upstreamFailure(what: string, timeout: boolean): ServiceError {
  // Never the provider's URL or key: the message names the step only.
  return new ServiceError(
    timeout ? 504 : 502,
    timeout ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR',
    `The on-ramp provider did not answer the ${what}`,
  )
}

/**
 * The "checkout API" adapter.
 *
 * @example
 * const provider = checkoutApiProvider({ url: config.onramp.providerUrl, apiKey: config.onramp.apiKey, timeoutMs: 10_000 })
 */
export function checkoutApiProvider(options: CheckoutApiOptions): OnrampProvider {
  const base = options.url.replace(/\/+$/, '')
  const origin = new URL(base).origin
  const fetcher = options.fetch ?? fetch

  async function call<T>(what: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    let response: Response
    try {
      response = await fetcher(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: AbortSignal.timeout(options.timeoutMs),
      })
    } catch (error) {
      throw upstreamFailure(what, (error as Error).name === 'TimeoutError')
    }
    const text = await response.text().catch(() => '')
    if (!response.ok || text.length > 1_000_000) throw upstreamFailure(what, false)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw upstreamFailure(what, false)
    }
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw upstreamFailure(what, false)
    return parsed.data
  }

  return {
    name: `checkout-api ${origin}`,
    currencies: () => call('currencies', '/v1/currencies', currenciesAnswer),
    quote: (query) =>
      call('quote', '/v1/quotes', onrampQuoteResponse as unknown as z.ZodType<OnrampQuoteResponse>, query),
    async checkout(body) {
      const { url } = await call('checkout', '/v1/sessions', sessionAnswer, body)
      // The visitor is sent only to the provider's own origin, over the provider's scheme.
      let parsed: URL
      try {
        parsed = new URL(url)
      } catch {
        throw upstreamFailure('checkout', false)
      }
      if (parsed.origin !== origin) throw upstreamFailure('checkout', false)
      return { url: parsed.href }
    },
  }
}
