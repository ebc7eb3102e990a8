/** `eth_accounts` / `eth_requestAccounts` and `solana_getAccounts` / `solana_requestAccounts`: the person's account, each on its own namespace. */
import * as z from 'zod/mini'
import { walletMethod } from './types.ts'

/** The EVM account requests on the network use (the smart account where the person prefers it). */
export const ethAccounts = walletMethod({
  method: 'eth_accounts',
  namespace: 'eip155',
  params: z.unknown(),
  answer: async (ctx) => [(await ctx.evmAccount()).address],
})

/** The same answer: the person is already signed in to the frame. */
export const ethRequestAccounts = walletMethod({ ...ethAccounts, method: 'eth_requestAccounts' })

/** The Solana account, as Wallet Standard's accounts list it. */
export const solanaGetAccounts = walletMethod({
  method: 'solana_getAccounts',
  namespace: 'solana',
  params: z.unknown(),
  answer: async (ctx) => [{ pubkey: ctx.own.solana }],
})

export const solanaRequestAccounts = walletMethod({ ...solanaGetAccounts, method: 'solana_requestAccounts' })
