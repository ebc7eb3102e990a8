/** `signMessage` (bip122): the page's text signed with the network's BIP-84 key, by BIP-137 or BIP-322 "simple". */
import * as z from 'zod/mini'
import { bitcoinMessageHash, messageSignatureBase64 } from '../../../src/protocol/embedded/bitcoinSigner.ts'
import { messagePreview } from '../../../src/protocol/embedded/preview/messages.ts'
import { accountParam, bitcoinAccountOf } from './bitcoinTransactions.ts'
import { verifiedSignature } from './plan.ts'
import { approvalMethod } from './types.ts'

const params = z.object({
  account: accountParam,
  address: z.optional(z.string().check(z.maxLength(100))),
  message: z.string().check(z.maxLength(65_536)),
  protocol: z.optional(z.enum(['ecdsa', 'bip322'])),
})

export const bitcoinSignMessage = approvalMethod({
  method: 'signMessage',
  params,
  async preview(ctx, { account, address, message, protocol }) {
    const own = await bitcoinAccountOf(ctx, account, address)
    const bytes = new TextEncoder().encode(message)
    return {
      shown: { from: own.address, message: messagePreview(bytes) },
      prepared: {
        plan: [
          {
            kind: 'bip122-message' as const,
            key: own.network.key,
            protocol: protocol ?? 'ecdsa',
            message: Buffer.from(bytes).toString('base64'),
          },
        ],
      },
    }
  },
  async execute(ctx, { message, protocol }, prepared, signatures) {
    const own = await bitcoinAccountOf(ctx)
    const [, signature] = await verifiedSignature(ctx, prepared, signatures)
    const hash = bitcoinMessageHash(new TextEncoder().encode(message))
    return {
      address: own.address,
      signature: messageSignatureBase64(signature),
      ...((protocol ?? 'ecdsa') === 'ecdsa' ? { messageHash: Buffer.from(hash).toString('hex') } : {}),
    }
  },
})
