/**
 * SOL and SPL token balances over plain JSON-RPC. No `@solana/web3.js` here: the modal shows
 * balances on first paint, and the library is only worth loading to send.
 */
import * as z from 'zod/mini'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import {
  AddressSchema,
  type SolanaRpc,
  solanaRequest,
  U64StringSchema,
  UnsignedSchema,
  withContext,
} from './rpc.ts'
import { knownToken, TOKEN_PROGRAM_ADDRESS } from './tokens.ts'

/** One SPL token held by an owner, all of its token accounts for that mint added up. */
export interface SplTokenBalance {
  readonly mint: string
  /** Base units. */
  readonly amount: bigint
  readonly decimals: number
  /** From the known tokens, else the mint's first 4 characters and `…`. */
  readonly symbol: string
  /** From the known tokens, else `Unknown token`. */
  readonly name: string
}

/**
 * The lamports an address holds, at `confirmed` commitment.
 *
 * @example
 * const lamports = await getSolBalance(rpc, 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96') // 1000000000000n
 */
export async function getSolBalance(rpc: SolanaRpc, address: string): Promise<bigint> {
  const { value } = await solanaRequest(
    rpc,
    'getBalance',
    [address, { commitment: 'confirmed' }],
    withContext(UnsignedSchema),
  )
  return BigInt(value)
}

const TokenAccountsSchema = withContext(
  z.array(
    z.object({
      pubkey: AddressSchema,
      account: z.object({
        data: z.object({
          parsed: z.object({
            info: z.object({
              mint: AddressSchema,
              tokenAmount: z.object({
                amount: U64StringSchema,
                decimals: z.int().check(z.nonnegative(), z.lte(255)),
              }),
            }),
          }),
        }),
      }),
    }),
  ),
)

/**
 * The SPL tokens (Token program) an owner holds, one entry per mint (several token accounts of one
 * mint are added up), zero balances included. Known tokens come first, then larger amounts, compared
 * in whole tokens so decimals do not skew the order.
 *
 * @example
 * const tokens = await getTokenBalances(rpc, 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9', owner)
 * tokens[0] // { mint: '3NgR9…', amount: 1000000000000n, decimals: 6, symbol: 'TEST', name: 'Test Token' }
 */
export async function getTokenBalances(
  rpc: SolanaRpc,
  caipNetworkId: CaipNetworkId,
  owner: string,
): Promise<SplTokenBalance[]> {
  const { value } = await solanaRequest(
    rpc,
    'getTokenAccountsByOwner',
    [owner, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'jsonParsed', commitment: 'confirmed' }],
    TokenAccountsSchema,
  )
  const byMint = new Map<string, { amount: bigint; decimals: number }>()
  for (const { account } of value) {
    const { mint, tokenAmount } = account.data.parsed.info
    const amount = BigInt(tokenAmount.amount)
    const seen = byMint.get(mint)
    byMint.set(mint, { amount: (seen?.amount ?? 0n) + amount, decimals: tokenAmount.decimals })
  }
  const balances = [...byMint].map(([mint, { amount, decimals }]) => {
    const known = knownToken(caipNetworkId, mint)
    return {
      mint,
      amount,
      decimals,
      symbol: known?.symbol ?? `${mint.slice(0, 4)}…`,
      name: known?.name ?? 'Unknown token',
      known: known !== undefined,
    }
  })
  const scale = Math.max(0, ...balances.map((balance) => balance.decimals))
  const whole = (balance: { amount: bigint; decimals: number }): bigint =>
    balance.amount * 10n ** BigInt(scale - balance.decimals)
  balances.sort((a, b) => {
    if (a.known !== b.known) return a.known ? -1 : 1
    const difference = whole(b) - whole(a)
    if (difference !== 0n) return difference > 0n ? 1 : -1
    return a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0
  })
  return balances.map(({ known: _known, ...balance }) => balance)
}
