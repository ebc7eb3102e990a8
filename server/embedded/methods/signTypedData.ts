/** `eth_signTypedData_v4`: EIP-712 typed data, shown from its declared types, never for the wallet's own domains. */
import type { TypedDataDefinition } from 'viem'
import * as z from 'zod/mini'
import type { SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { refuseReservedDomain, typedDataRows } from '../preview/typedData.ts'
import { evmSigner, viaSmartAccount } from './accountChecks.ts'
import { address, evmChainId, invalidParams, paramsOf } from './params.ts'
import { verifiedSignature } from './plan.ts'
import { approvalMethod } from './types.ts'

const method = 'eth_signTypedData_v4'

/** [signer, typed data as JSON text or an object]. */
const params = z.tuple([address, z.union([z.string(), z.record(z.string(), z.unknown())])])

const typedDataShape = z.object({
  domain: z.optional(z.record(z.string(), z.unknown())),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
})

/** The typed data of a stored request, as viem signs it (no EIP712Domain type). */
function storedTypedData(raw: string | Record<string, unknown>): TypedDataDefinition {
  const typed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as TypedDataDefinition
  const { EIP712Domain: _domain, ...types } = typed.types as Record<string, unknown>
  return { ...typed, types } as TypedDataDefinition
}

export const signTypedData = approvalMethod({
  method,
  params,
  async preview(ctx, [signer, raw]) {
    const from = await evmSigner(ctx, signer)
    let json: unknown = raw
    if (typeof raw === 'string') {
      try {
        json = JSON.parse(raw)
      } catch {
        throw invalidParams('The typed data is not JSON')
      }
    }
    const typed = paramsOf(typedDataShape, json, method)
    const typedData = typedDataRows(typed, {
      chainId: evmChainId(ctx.chainId),
      ownAccounts: await ctx.ownSmartAccounts(),
    })
    const request = (from.smart
      ? {
          kind: 'evm-account-typed-data',
          account: from.address,
          chainId: evmChainId(ctx.chainId),
          typedData: storedTypedData(raw),
        }
      : { kind: 'evm-typed-data', typedData: storedTypedData(raw) }) as unknown as SignRequest
    return { shown: { from: from.address, typedData }, prepared: { ...from.prepared, plan: [request] } }
  },
  async execute(ctx, [, raw], prepared, signatures) {
    const typedData = storedTypedData(raw)
    // Checked again where the signature is relayed (the signer checks it where the key signs too).
    refuseReservedDomain(typedData.domain as Record<string, unknown>, await ctx.ownSmartAccounts())
    const [, signature] = await verifiedSignature(ctx, prepared, signatures)
    return viaSmartAccount(prepared)
      ? ctx.smart.accountSignature(ctx.userId, ctx.chainId, signature)
      : signature
  },
})
