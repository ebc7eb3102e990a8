import type { Address, Hex } from 'viem'
import { z } from 'zod'
import { isCaip2 } from '../../src/protocol/api/index.ts'
import { blankToUndefined, commaItems, isHttpUrl } from '../config/env.ts'

// The paymaster's configuration slice: its signing key and the WalletPaymaster contract of each network.

/** Sponsored gas (ERC-7677, docs/SELF-HOSTING.md "Sponsored gas"); off while either is missing. */
export interface PaymasterConfig {
  /**
   * The key the paymaster contracts trust (`PAYMASTER_SIGNER_KEY`, 0x and 64 hex digits); never logged.
   * `npm start` makes one at each start.
   */
  paymasterSignerKey: Hex | null
  /** The WalletPaymaster contract of each CAIP-2 network (`PAYMASTER_ADDRESSES`, `eip155:31337=0x…,…`). */
  paymasterAddresses: Record<string, Address>
  /**
   * Where dapps reach `POST /paymaster/v1` (`PAYMASTER_PUBLIC_URL`, default `http://HOST:PORT/paymaster/v1`):
   * the embedded wallet honours a `paymasterService` capability only with this URL and the project's id.
   */
  paymasterPublicUrl: string
}

/** The paymaster's variables: `PAYMASTER_SIGNER_KEY`, `PAYMASTER_ADDRESSES`. */
export const paymasterEnv = z.object({
  // Problems name the variable, never the key.
  PAYMASTER_SIGNER_KEY: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.trim()) : value),
    z
      .string()
      .regex(
        /^0x[0-9a-fA-F]{64}$/,
        'PAYMASTER_SIGNER_KEY must be 0x and 64 hex digits (a secp256k1 private key)',
      )
      .optional(),
  ),
  PAYMASTER_PUBLIC_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine(
        (value) => isHttpUrl(value) && !value.includes('?'),
        'PAYMASTER_PUBLIC_URL must be an http:// or https:// URL without a query, such as https://api.example.com/paymaster/v1',
      )
      .optional(),
  ),
  PAYMASTER_ADDRESSES: z.preprocess(
    (value) => (typeof value === 'string' ? value : ''),
    z.string().transform((value, context) => {
      const addresses: Record<string, Address> = {}
      for (const [index, item] of commaItems(value).entries()) {
        const separator = item.indexOf('=')
        const chainId = separator === -1 ? '' : item.slice(0, separator).trim()
        const address = separator === -1 ? '' : item.slice(separator + 1).trim()
        if (!isCaip2(chainId) || !chainId.startsWith('eip155:') || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
          context.addIssue({
            code: 'custom',
            message: `PAYMASTER_ADDRESSES entry ${index + 1}: expected eip155:CHAIN-ID=0x… (the WalletPaymaster contract)`,
          })
        } else {
          addresses[chainId] = address as Address
        }
      }
      return addresses
    }),
  ),
})

/**
 * The paymaster slice.
 *
 * @example
 * const paymaster = paymasterConfig(paymasterEnv.parse({}))
 * paymaster.paymasterSignerKey // null: nothing is sponsored
 */
export function paymasterConfig(
  values: z.output<typeof paymasterEnv>,
  listen: { host: string; port: number } = { host: '127.0.0.1', port: 8787 },
): PaymasterConfig {
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host
  return {
    paymasterSignerKey: (values.PAYMASTER_SIGNER_KEY as Hex | undefined) ?? null,
    paymasterAddresses: values.PAYMASTER_ADDRESSES,
    paymasterPublicUrl: values.PAYMASTER_PUBLIC_URL ?? `http://${host}:${listen.port}/paymaster/v1`,
  }
}
