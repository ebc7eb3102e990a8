import type { Hex } from 'viem'
import { z } from 'zod'
import { blankToUndefined } from '../config/env.ts'

/** The name registry's slice of the service configuration. */
export interface NamesConfig {
  /** The name registry's suffix (`NAME_SUFFIX`, default `wallet.test`): names are `label.suffix`. */
  nameSuffix: string
  /**
   * The signing key of the names' EIP-3668 gateway (`NAME_GATEWAY_KEY`, 0x and 64 hex digits); the
   * gateway is off when null. `npm start` makes one at each start.
   */
  nameGatewayKey: Hex | null
}

/** The names' variables: `NAME_SUFFIX`, `NAME_GATEWAY_KEY`. */
export const namesEnv = z.object({
  NAME_SUFFIX: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.trim().toLowerCase()) : value),
    z
      .string()
      .regex(/^[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63}){0,3}$/, 'NAME_SUFFIX must be a domain such as wallet.test')
      .default('wallet.test'),
  ),
  // Never quoted back: a problem names the variable only.
  NAME_GATEWAY_KEY: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value.trim()) : value),
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'NAME_GATEWAY_KEY must be 0x and 64 hex digits (a secp256k1 private key)')
      .optional(),
  ),
})

/**
 * The names slice.
 *
 * @example
 * const names = namesConfig(namesEnv.parse({ NAME_SUFFIX: 'names.example' }))
 */
export function namesConfig(values: z.output<typeof namesEnv>): NamesConfig {
  return {
    nameSuffix: values.NAME_SUFFIX,
    nameGatewayKey: (values.NAME_GATEWAY_KEY as Hex | undefined) ?? null,
  }
}
