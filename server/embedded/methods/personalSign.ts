/** `personal_sign`: an EIP-191 message, signed by the EOA, or by the smart account when the page names it. */
import { bytesToHex, hexToBytes, isAddress, isHex } from 'viem'
import * as z from 'zod/mini'
import { messagePreview } from '../../../src/protocol/embedded/preview/messages.ts'
import type { SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { evmSigner, viaSmartAccount } from './accountChecks.ts'
import { evmChainId } from './params.ts'
import { verifiedSignature } from './plan.ts'
import { approvalMethod } from './types.ts'

const params = z.tuple([z.string(), z.string()])

/** The message of `personal_sign`: wallets take [message, address]; a few libraries send [address, message]. */
function messageOf([first, second]: readonly [string, string]): string {
  return isAddress(first, { strict: false }) && !isAddress(second, { strict: false }) ? second : first
}

/** The bytes `personal_sign` signs: hex is raw bytes, anything else UTF-8 text. */
const bytesOf = (message: string): Uint8Array =>
  isHex(message) ? hexToBytes(message) : new TextEncoder().encode(message)

export const personalSign = approvalMethod({
  method: 'personal_sign',
  params,
  async preview(ctx, pair) {
    const message = messageOf(pair)
    const signer = message === pair[0] ? pair[1] : pair[0]
    const from = await evmSigner(ctx, signer)
    const bytes = bytesOf(message)
    const request: SignRequest = from.smart
      ? {
          kind: 'evm-account-message',
          account: from.address,
          chainId: evmChainId(ctx.chainId),
          message: bytesToHex(bytes),
        }
      : { kind: 'evm-message', message: bytesToHex(bytes) }
    return {
      shown: { from: from.address, message: messagePreview(bytes) },
      prepared: { ...from.prepared, plan: [request] },
    }
  },
  async execute(ctx, _pair, prepared, signatures) {
    const [, signature] = await verifiedSignature(ctx, prepared, signatures)
    return viaSmartAccount(prepared)
      ? ctx.smart.accountSignature(ctx.userId, ctx.chainId, signature)
      : signature
  },
})
