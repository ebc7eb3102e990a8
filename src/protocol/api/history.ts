import * as z from 'zod/mini'
import { caip2NetworkId } from './common.ts'

/**
 * The transactions API of the companion service (`GET /blockchain/v1/transactions`, SPEC section 7's
 * "Transactions fetch: input account, cursor, onramp, chainId; returns data and next"): an account's
 * history on one network, newest first, a page at a time, in SPEC section 3's Transaction shape.
 */

/** Transactions per page when the request does not say; `limit` may ask for 1 to 50. */
export const defaultTransactionsPageSize = 20
export const maxTransactionsPageSize = 50

const booleanFlag = z.optional(z.enum(['true', 'false']))

/**
 * Query of `GET /blockchain/v1/transactions`: the account (an EVM or Solana address), the network, the `next`
 * of the previous page as `cursor`, `onramp=true` for on-ramp purchases only, `includeSpam=true` to
 * show transfers of tokens the network's token list does not have.
 *
 * @example
 * transactionsQuery.parse({ chainId: 'eip155:31337', account: '0xf39F…2266', cursor: '12-0' })
 */
export const transactionsQuery = z
  .object({
    chainId: caip2NetworkId,
    // An EVM address, a Solana one (base58, 32 to 44 characters: SPEC 5) on a solana: network, or a
    // Bitcoin one (segwit or base58) on a bip122: network.
    account: z
      .string()
      .check(
        z.regex(
          /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{25,44}|(bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87})$/,
          'Expected an address',
        ),
      ),
    // `block-index` on EVM networks, the last signature of the previous page on Solana, the last txid on Bitcoin.
    cursor: z.optional(
      z
        .string()
        .check(z.regex(/^(\d{1,15}-\d{1,9}|[1-9A-HJ-NP-Za-km-z]{64,88}|[0-9a-f]{64})$/, 'Invalid cursor')),
    ),
    onramp: booleanFlag,
    includeSpam: booleanFlag,
    limit: z.optional(
      z.string().check(
        z.regex(/^\d{1,2}$/, `Expected 1 to ${maxTransactionsPageSize}`),
        z.refine(
          (value) => Number(value) >= 1 && Number(value) <= maxTransactionsPageSize,
          `Expected 1 to ${maxTransactionsPageSize}`,
        ),
      ),
    ),
  })
  .check(
    z.refine(
      (query) =>
        query.chainId.startsWith('bip122:')
          ? !query.account.startsWith('0x') &&
            (query.cursor === undefined || /^[0-9a-f]{64}$/.test(query.cursor))
          : query.chainId.startsWith('solana:')
            ? !query.account.startsWith('0x') &&
              query.account.length >= 32 &&
              (query.cursor === undefined || !query.cursor.includes('-'))
            : query.account.startsWith('0x') && (query.cursor === undefined || query.cursor.includes('-')),
      'The account or cursor is not of this network',
    ),
  )

export type TransactionsQuery = z.output<typeof transactionsQuery>

/**
 * One movement of value inside a transaction, as seen from the account: `direction` in, out or self,
 * `quantity.numeric` in whole tokens, the token (`native` or its contract) and the other side.
 */
export const historyTransfer = z.object({
  direction: z.enum(['in', 'out', 'self']),
  quantity: z.object({ numeric: z.string(), decimals: z.int() }),
  token: z.string(),
  counterparty: z.string(),
  fungible_info: z.object({ name: z.string(), symbol: z.string(), imageId: z.optional(z.string()) }),
  nft_info: z.object({ flags: z.object({ is_spam: z.boolean() }) }),
})

export type HistoryTransfer = z.infer<typeof historyTransfer>

/** `send`, `receive`, `self`, `trade` (a swap) or `onramp` (an on-ramp delivery). */
export const historyOperationTypes = ['send', 'receive', 'self', 'trade', 'onramp'] as const

/**
 * One transaction of the account's history (SPEC section 3: id, metadata {minedAt, chain}, transfers).
 *
 * @example
 * const { data, next } = transactionsResponse.parse(await response.json())
 */
export const historyTransaction = z.object({
  id: z.string(),
  metadata: z.object({
    minedAt: z.string(),
    chain: caip2NetworkId,
    hash: z.string(),
    blockNumber: z.number(),
    status: z.enum(['confirmed']),
    operationType: z.enum(historyOperationTypes),
    sentFrom: z.string(),
    sentTo: z.string(),
  }),
  transfers: z.array(historyTransfer),
})

export type HistoryTransaction = z.infer<typeof historyTransaction>

/** Answer of `GET /blockchain/v1/transactions`: a page, and the cursor of the next one (null: the last). */
export const transactionsResponse = z.object({
  data: z.array(historyTransaction),
  next: z.nullable(z.string()),
})

export type TransactionsResponse = z.infer<typeof transactionsResponse>
