import type { Address, Hex } from 'viem'
import { z } from 'zod'
import { isCaip2 } from '../../src/protocol/api/index.ts'
import { blankToUndefined, commaItems } from '../config/env.ts'

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
export function paymasterConfig(values: z.output<typeof paymasterEnv>): PaymasterConfig {
  return {
    paymasterSignerKey: (values.PAYMASTER_SIGNER_KEY as Hex | undefined) ?? null,
    paymasterAddresses: values.PAYMASTER_ADDRESSES,
  }
}
