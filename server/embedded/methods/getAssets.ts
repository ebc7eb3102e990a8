/** `wallet_getAssets` (EIP-7811): the native balance on each EVM network the service serves. */
import * as z from 'zod/mini'
import { mustBeOwn } from './accountChecks.ts'
import { address, evmChainHex, evmChainId, quantity } from './params.ts'
import { walletMethod } from './types.ts'

export const getAssets = walletMethod({
  method: 'wallet_getAssets',
  params: z.tuple([z.object({ account: address, chainFilter: z.optional(z.array(quantity)) })]),
  async answer(ctx, [filter]) {
    mustBeOwn(filter.account, ctx.own.evm)
    const chains = ctx.networks.filter(
      (network) =>
        network.caipNetworkId.startsWith('eip155:') &&
        (!filter.chainFilter ||
          filter.chainFilter.some((chain) => Number(chain) === evmChainId(network.caipNetworkId))),
    )
    const entries = await Promise.all(
      chains.map(async (network) => {
        const balance = (await ctx.upstream.call(network.caipNetworkId, 'eth_getBalance', [
          ctx.own.evm,
          'latest',
        ])) as string
        return [
          evmChainHex(network.caipNetworkId),
          [
            {
              address: 'native',
              balance,
              type: 'native',
              metadata: { name: network.name, symbol: network.symbol, decimals: network.decimals },
            },
          ],
        ] as const
      }),
    )
    return Object.fromEntries(entries)
  },
})
