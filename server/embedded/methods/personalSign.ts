/** `personal_sign`: an EIP-191 message, signed by the EOA, or by the smart account when the page names it. */
import { bytesToHex, hexToBytes, isAddress, isHex } from 'viem'
import * as z from 'zod/mini'
import { evmSigner, viaSmartAccount } from './accountChecks.ts'
import { messagePreview } from './messages.ts'
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
    return {
      shown: { from: from.address, message: messagePreview(bytes) },
      prepared: from.prepared ?? { plan: [{ kind: 'evm-message' as const, message: bytesToHex(bytes) }] },
    }
  },
  async execute(ctx, pair, prepared, signatures) {
    if (viaSmartAccount(prepared))
      return ctx.smart.sign(ctx.userId, ctx.chainId, { message: bytesOf(messageOf(pair)) })
    const [, signature] = await verifiedSignature(ctx, prepared, signatures)
    return signature
  },
})
