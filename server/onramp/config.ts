import { z } from 'zod'
import { isCaip2 } from '../../src/protocol/api/index.ts'
import { blankToUndefined, commaItems, isHttpUrl } from '../config/env.ts'

/** The on-ramp provider's settings. */
export interface OnrampConfig {
  /** The provider's API (`ONRAMP_PROVIDER_URL`); null: no on-ramp. */
  providerUrl: string | null
  /** Sent to the provider as a bearer token (`ONRAMP_API_KEY`); never logged. */
  apiKey: string | null
  /** HMAC-SHA256 key of the provider's completion webhook (`ONRAMP_WEBHOOK_SECRET`, 32 or more characters). */
  webhookSecret: string | null
  /**
   * Addresses the provider delivers from, per CAIP-2 network (`ONRAMP_SENDER_ADDRESSES`,
   * `eip155:31337=0xabc…|0xdef…,eip155:1=…`): a transfer from one of them is an on-ramp delivery.
   */
  senderAddresses: Record<string, string[]>
}

/** The on-ramp's variables: `ONRAMP_PROVIDER_URL`, `ONRAMP_API_KEY`, `ONRAMP_WEBHOOK_SECRET`, `ONRAMP_SENDER_ADDRESSES`. */
export const onrampEnv = z.object({
  // Problems name the variable, never the URL or key.
  ONRAMP_PROVIDER_URL: z.preprocess(
    blankToUndefined,
    z.string().refine(isHttpUrl, 'ONRAMP_PROVIDER_URL must be an http:// or https:// URL').optional(),
  ),
  ONRAMP_API_KEY: z.preprocess(blankToUndefined, z.string().max(4096).optional()),
  ONRAMP_WEBHOOK_SECRET: z.preprocess(
    blankToUndefined,
    z.string().min(32, 'ONRAMP_WEBHOOK_SECRET must have 32 characters or more').max(4096).optional(),
  ),
  ONRAMP_SENDER_ADDRESSES: z.preprocess(
    (value) => (typeof value === 'string' ? value : ''),
    z.string().transform((value, context) => {
      const senders: Record<string, string[]> = {}
      for (const [index, item] of commaItems(value).entries()) {
        const separator = item.indexOf('=')
        const chainId = separator === -1 ? '' : item.slice(0, separator).trim()
        const addresses =
          separator === -1
            ? []
            : item
                .slice(separator + 1)
                .split('|')
                .map((a) => a.trim())
        if (
          !isCaip2(chainId) ||
          addresses.length === 0 ||
          !addresses.every((a) => /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/.test(a))
        ) {
          context.addIssue({
            code: 'custom',
            message: `ONRAMP_SENDER_ADDRESSES entry ${index + 1}: expected CAIP-2-id=address|address such as eip155:31337=0x…`,
          })
        } else {
          senders[chainId] = addresses
        }
      }
      return senders
    }),
  ),
})

/**
 * The on-ramp slice; off when `providerUrl` is null.
 *
 * @example
 * const onramp = onrampConfig(onrampEnv.parse({}))
 */
export function onrampConfig(values: z.output<typeof onrampEnv>): OnrampConfig {
  return {
    providerUrl: values.ONRAMP_PROVIDER_URL ?? null,
    apiKey: values.ONRAMP_API_KEY ?? null,
    webhookSecret: values.ONRAMP_WEBHOOK_SECRET ?? null,
    senderAddresses: values.ONRAMP_SENDER_ADDRESSES,
  }
}
