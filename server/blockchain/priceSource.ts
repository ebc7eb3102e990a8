import { z } from 'zod'
import type { ServiceLogger } from '../logger.ts'
import { summarizeUpstreamFailure } from '../rpc/redact.ts'

/**
 * Where USD prices come from on networks without a market of the service's own: an adapter the
 * operator configures. None by default, and then those prices are absent (never made up).
 */
export interface PriceSource {
  /**
   * USD prices per whole token of the given tokens (`native` for the native currency), by the address
   * as asked; tokens it has no price for are left out. Never throws: a failure means no prices.
   */
  prices(chainId: string, addresses: readonly string[]): Promise<Map<string, number>>
}

/** Longest answer read from the price source. */
const MAX_ANSWER_BYTES = 1024 * 1024

const answerSchema = z.object({
  prices: z.record(z.string(), z.unknown()),
})

export interface HttpPriceSourceOptions {
  logger: ServiceLogger
  /** Default 5 s. */
  timeoutMs?: number
  fetch?: typeof fetch
}

/**
 * The HTTP price source (`PRICE_SOURCE_URL`): `GET {url}` with the query parameters `chainId` (CAIP-2)
 * and `addresses` (comma-separated, `native` for the native currency) added to the URL's own (an API key
 * may sit there), answered with `{ "prices": { "<address>": <USD per whole token>, … } }`. Addresses
 * match without regard to case; entries that are not finite numbers of zero or more are ignored.
 * Failures are logged without the URL and give no prices.
 *
 * @example
 * const source = httpPriceSource('https://prices.example/v1/usd?key=…', { logger })
 * const prices = await source.prices('eip155:1', ['native', '0xA0b8…'])
 */
export function httpPriceSource(url: string, options: HttpPriceSourceOptions): PriceSource {
  const timeoutMs = options.timeoutMs ?? 5000
  const fetchFn = options.fetch ?? fetch
  return {
    async prices(chainId, addresses) {
      const found = new Map<string, number>()
      if (addresses.length === 0) return found
      try {
        const target = new URL(url)
        target.searchParams.set('chainId', chainId)
        target.searchParams.set('addresses', addresses.join(','))
        const response = await fetchFn(target, {
          headers: { accept: 'application/json' },
          redirect: 'error',
          signal: AbortSignal.timeout(timeoutMs),
        })
        if (!response.ok) {
          options.logger.warn({ chainId, status: response.status }, 'The price source failed')
          return found
        }
        const text = await response.text()
        if (text.length > MAX_ANSWER_BYTES) {
          options.logger.warn({ chainId }, 'The price source answered too much')
          return found
        }
        let json: unknown
        try {
          json = JSON.parse(text)
        } catch {
          json = undefined
        }
        const parsed = answerSchema.safeParse(json)
        if (!parsed.success) {
          options.logger.warn({ chainId }, 'The price source answered something other than { prices }')
          return found
        }
        const byKey = new Map(
          Object.entries(parsed.data.prices).map(([address, price]) => [address.toLowerCase(), price]),
        )
        for (const address of addresses) {
          const price = byKey.get(address.toLowerCase())
          if (typeof price === 'number' && Number.isFinite(price) && price >= 0) found.set(address, price)
        }
      } catch (error) {
        options.logger.warn(
          { chainId, source: summarizeUpstreamFailure(error, [url]) },
          'The price source could not be reached',
        )
      }
      return found
    },
  }
}
