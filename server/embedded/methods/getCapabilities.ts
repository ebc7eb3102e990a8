/**
 * `wallet_getCapabilities` (EIP-5792): `atomic` per EVM network, supported where the person's smart
 * account sends (one UserOperation per batch), unsupported elsewhere (an EOA sends one after another).
 */
import * as z from 'zod/mini'
import { evmChainHex } from './params.ts'
import { walletMethod } from './types.ts'

export const getCapabilities = walletMethod({
  method: 'wallet_getCapabilities',
  // The answer covers every network whatever the page asks for.
  params: z.unknown(),
  async answer(ctx) {
    const preferred = await ctx.smart.preference(ctx.userId)
    const entries = ctx.networks
      .filter((network) => network.caipNetworkId.startsWith('eip155:'))
      .map((network) => [
        evmChainHex(network.caipNetworkId),
        {
          atomic: {
            status:
              preferred === 'smartAccount' && ctx.smart.supports(network.caipNetworkId)
                ? 'supported'
                : 'unsupported',
          },
        },
      ])
    return Object.fromEntries(entries)
  },
})
