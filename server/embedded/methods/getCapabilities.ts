/**
 * `wallet_getCapabilities` (EIP-5792): `atomic` per EVM network, supported where the person's smart
 * account sends (one UserOperation per batch), unsupported elsewhere (an EOA sends one after another);
 * `paymasterService` (ERC-7677) where the smart account sends and the project sponsors gas;
 * `permissions` (ERC-7715) where the smart account sends: the signer, permission and policy types granted.
 */
import * as z from 'zod/mini'
import { permissionTypes, policyTypes, signerTypes } from '../../../src/protocol/embedded/permissions.ts'
import { evmChainHex } from './params.ts'
import { walletMethod } from './types.ts'

export const getCapabilities = walletMethod({
  method: 'wallet_getCapabilities',
  // The answer covers every network whatever the page asks for.
  params: z.unknown(),
  async answer(ctx) {
    const preferred = await ctx.smart.preference(ctx.userId)
    const entries = await Promise.all(
      ctx.networks
        .filter((network) => network.caipNetworkId.startsWith('eip155:'))
        .map(async (network) => {
          const smart = preferred === 'smartAccount' && ctx.smart.supports(network.caipNetworkId)
          const sponsored = smart && (await ctx.smart.sponsors(ctx.projectId, network.caipNetworkId))
          return [
            evmChainHex(network.caipNetworkId),
            {
              atomic: { status: smart ? 'supported' : 'unsupported' },
              ...(sponsored ? { paymasterService: { supported: true } } : {}),
              ...(smart
                ? {
                    permissions: {
                      supported: true,
                      signerTypes: [...signerTypes],
                      permissionTypes: [...permissionTypes],
                      policyTypes: [...policyTypes],
                    },
                  }
                : {}),
            },
          ] as const
        }),
    )
    return Object.fromEntries(entries)
  },
})
