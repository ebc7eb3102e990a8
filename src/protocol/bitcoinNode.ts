/**
 * The two Bitcoin node APIs the wallet reads, as wire formats: the local regtest node's (bcoin's REST
 * API, server/dev/bitcoin) and Esplora's (mempool.space, blockstream.info, a self-hosted one). Each read
 * is a path and a schema that turns the answer into the wallet's shape; the callers bring their own
 * `fetch`, timeouts and errors (the modal's node reads in src/chains/bip122/node.ts, the service's in
 * server/embedded/bitcoinNode.ts and server/history/bitcoin.ts).
 */
import * as z from 'zod/mini'

/** An unspent output: its transaction id (hex, as explorers show it), output index and satoshis. */
export interface NodeCoin {
  txid: string
  vout: number
  value: bigint
}

/** Satoshis as a JSON number or a decimal string (bcoin answers either), signed. */
const Sats = z.union([z.int(), z.pipe(z.string().check(z.regex(/^-?\d+$/)), z.transform(Number))])
const Txid = z.string().check(z.regex(/^[0-9a-f]{64}$/))
const Index = z.int().check(z.nonnegative())

const encode = encodeURIComponent

/** A POST of a signed transaction (hex): its path and request. */
export interface BroadcastRequest {
  path: string
  init: RequestInit
}

/**
 * bcoin's REST API paths.
 *
 * @example
 * fetch(`${url}${bcoinApi.coins('bcrt1q…')}`) // GET /coin/address/bcrt1q…
 */
export const bcoinApi = {
  /** `{ confirmed, pending, … }` satoshis of an address. */
  balance: (address: string) => `/balance/address/${encode(address)}`,
  /** The address's unspent outputs, mempool included. */
  coins: (address: string) => `/coin/address/${encode(address)}`,
  /** `{ rate }`: satoshis per 1,000 virtual bytes to confirm within `blocks`. */
  fee: (blocks: number) => `/fee?blocks=${blocks}`,
  /** The address's transactions, mempool included. */
  transactions: (address: string) => `/tx/address/${encode(address)}`,
  /** Sends `{ tx: hex }`; answers `{ success: true }`, or 400 with `{ error: { message } }`. */
  broadcast: (hex: string): BroadcastRequest => ({
    path: '/broadcast',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: hex }),
    },
  }),
}

/**
 * Esplora's REST API paths (https://github.com/Blockstream/esplora/blob/master/API.md).
 *
 * @example
 * fetch(`${url}${esploraApi.utxos('bc1q…')}`) // GET /address/bc1q…/utxo
 */
export const esploraApi = {
  /** `{ chain_stats, mempool_stats }` of an address. */
  address: (address: string) => `/address/${encode(address)}`,
  /** The address's unspent outputs, mempool included. */
  utxos: (address: string) => `/address/${encode(address)}/utxo`,
  /** `{ "1": 87.9, "3": 50.1, … }`: satoshis per virtual byte by confirmation target (blocks). */
  feeEstimates: () => '/fee-estimates',
  /** Confirmed transactions, newest first, 25 a page after the txid `cursor`. */
  chainTransactions: (address: string, cursor?: string) =>
    `/address/${encode(address)}/txs/chain${cursor ? `/${cursor}` : ''}`,
  /** Sends the hex as the body; answers the txid as text, or 400 with the node's words. */
  broadcast: (hex: string): BroadcastRequest => ({ path: '/tx', init: { method: 'POST', body: hex } }),
}

/**
 * bcoin's `GET /balance/address/:address`: confirmed and pending satoshis.
 *
 * @example
 * BcoinBalanceSchema.parse({ confirmed: 5000, pending: -1200 }) // { confirmed: 5000n, pending: -1200n }
 */
export const BcoinBalanceSchema = z.pipe(
  z.object({ confirmed: Sats, pending: Sats }),
  z.transform(({ confirmed, pending }) => ({ confirmed: BigInt(confirmed), pending: BigInt(pending) })),
)

/**
 * bcoin's `GET /coin/address/:address`: unspent outputs with their height (-1 in the mempool).
 *
 * @example
 * BcoinCoinsSchema.parse([{ hash: 'ab…', index: 0, value: 5000, height: 101 }])
 * // [{ txid: 'ab…', vout: 0, value: 5000n, height: 101 }]
 */
export const BcoinCoinsSchema = z.pipe(
  z.array(
    z.object({
      hash: Txid,
      index: Index,
      value: z.pipe(Sats, z.number().check(z.nonnegative())),
      height: z.int(),
    }),
  ),
  z.transform((coins): (NodeCoin & { height: number })[] =>
    coins.map((coin) => ({
      txid: coin.hash,
      vout: coin.index,
      value: BigInt(coin.value),
      height: coin.height,
    })),
  ),
)

/**
 * bcoin's `GET /fee?blocks=N`, in satoshis per virtual byte (at least 1; bcoin answers per 1,000).
 *
 * @example
 * BcoinFeeSchema.parse({ rate: 2500 }) // 3
 */
export const BcoinFeeSchema = z.pipe(
  z.object({ rate: z.number().check(z.nonnegative()) }),
  z.transform(({ rate }) => feeRatePerVbyte(rate / 1000)),
)

/** bcoin's answer to a broadcast it accepted. */
export const BcoinBroadcastSchema = z.object({ success: z.literal(true) })

const EsploraStats = z.object({ funded_txo_sum: z.int(), spent_txo_sum: z.int() })

/**
 * Esplora's `GET /address/:address`: confirmed (`chain_stats`) and pending (`mempool_stats`) satoshis.
 *
 * @example
 * EsploraAddressSchema.parse({ chain_stats: { funded_txo_sum: 9, spent_txo_sum: 2 }, mempool_stats: … })
 * // { confirmed: 7n, pending: … }
 */
export const EsploraAddressSchema = z.pipe(
  z.object({ chain_stats: EsploraStats, mempool_stats: EsploraStats }),
  z.transform(({ chain_stats: chain, mempool_stats: mempool }) => ({
    confirmed: BigInt(chain.funded_txo_sum - chain.spent_txo_sum),
    pending: BigInt(mempool.funded_txo_sum - mempool.spent_txo_sum),
  })),
)

/**
 * Esplora's `GET /address/:address/utxo`.
 *
 * @example
 * EsploraUtxosSchema.parse([{ txid: 'ab…', vout: 1, value: 5000, status: { confirmed: true } }])
 * // [{ txid: 'ab…', vout: 1, value: 5000n }]
 */
export const EsploraUtxosSchema = z.pipe(
  z.array(z.object({ txid: Txid, vout: z.int(), value: z.int() })),
  z.transform((utxos): NodeCoin[] =>
    utxos.map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, value: BigInt(utxo.value) })),
  ),
)

/**
 * Esplora's `GET /fee-estimates`: satoshis per virtual byte by confirmation target.
 *
 * @example
 * EsploraFeesSchema.parse({ '1': 12.4, '3': 8, '6': 4.1 })
 */
export const EsploraFeesSchema = z.record(z.string(), z.number())

/**
 * A fee rate in whole satoshis per virtual byte, rounded up, at least 1.
 *
 * @example
 * feeRatePerVbyte(2.5) // 3
 * feeRatePerVbyte(0) // 1
 */
export function feeRatePerVbyte(rate: number): number {
  return Math.max(1, Math.ceil(rate))
}
