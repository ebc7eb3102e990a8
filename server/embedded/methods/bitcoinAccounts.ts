/** `getAccountAddresses` (bip122): the person's native segwit account on the network, without approval. */
import * as z from 'zod/mini'
import { accountParam, bitcoinAccountOf } from './bitcoinTransactions.ts'
import { walletMethod } from './types.ts'

const params = z.optional(
  z.object({ account: accountParam, intentions: z.optional(z.array(z.string().check(z.maxLength(40)))) }),
)

/** WalletConnect's shape: the first external BIP-84 address as the account, for payments. */
export const getAccountAddresses = walletMethod({
  method: 'getAccountAddresses',
  namespace: 'bip122',
  params,
  async answer(ctx, asked) {
    const account = await bitcoinAccountOf(ctx)
    if (asked?.intentions && !asked.intentions.includes('payment')) return []
    return [
      {
        address: account.address,
        publicKey: Buffer.from(account.publicKey).toString('hex'),
        path: account.path,
        intention: 'payment',
      },
    ]
  },
})
