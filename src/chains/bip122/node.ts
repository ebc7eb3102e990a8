/**
 * Reading a Bitcoin network through its node API (the network's `rpcUrls`, or the page's `rpc-urls`):
 * the local regtest node's (bcoin's REST API, server/dev/bitcoin) or an Esplora API (mempool.space) for
 * the public networks. Balances, unspent outputs, fee rates, broadcasting; every answer zod-checked.
 */
import * as z from 'zod/mini'
import type { BitcoinNetworkKind } from './networks.ts'
import type { Utxo } from './psbt.ts'

type Fetch = typeof fetch

export interface BitcoinBalance {
  /** Satoshis in mined blocks. */
  confirmed: bigint
  /** The mempool's change to it, in satoshis (negative while spending). */
  pending: bigint
}

/** How fast a payment should confirm: within 6, 3 or 1 block(s). */
export type FeeSpeed = 'slow' | 'normal' | 'fast'
export const FEE_TARGETS: Record<FeeSpeed, number> = { slow: 6, normal: 3, fast: 1 }

const Sats = z.union([z.int(), z.pipe(z.string().check(z.regex(/^-?\d+$/)), z.transform(Number))])
const BcoinBalance = z.object({ confirmed: Sats, pending: Sats })
const BcoinCoins = z.array(
  z.object({ hash: z.string().check(z.regex(/^[0-9a-f]{64}$/)), index: z.int(), value: Sats }),
)
const BcoinFee = z.object({ rate: z.number() })
const Stats = z.object({ funded_txo_sum: z.int(), spent_txo_sum: z.int() })
const EsploraAddress = z.object({ chain_stats: Stats, mempool_stats: Stats })
const EsploraUtxos = z.array(
  z.object({ txid: z.string().check(z.regex(/^[0-9a-f]{64}$/)), vout: z.int(), value: z.int() }),
)
const EsploraFees = z.record(z.string(), z.number())

const isLocal = (network: BitcoinNetworkKind) => network === 'regtest'
const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`

async function getJson<T>(doFetch: Fetch, url: string, schema: z.ZodMiniType<T>): Promise<T> {
  const response = await doFetch(url)
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
  const parsed = schema.safeParse(await response.json())
  if (!parsed.success) throw new Error(`${url}: ${parsed.error.issues[0]?.message ?? 'malformed answer'}`)
  return parsed.data
}

/**
 * An address's confirmed and pending satoshis.
 *
 * @example
 * const { confirmed, pending } = await readBitcoinBalance(fetch, 'http://127.0.0.1:8794', 'regtest', 'bcrt1q…')
 */
export async function readBitcoinBalance(
  doFetch: Fetch,
  url: string,
  network: BitcoinNetworkKind,
  address: string,
): Promise<BitcoinBalance> {
  const path = encodeURIComponent(address)
  if (isLocal(network)) {
    const balance = await getJson(doFetch, join(url, `/balance/address/${path}`), BcoinBalance)
    return { confirmed: BigInt(balance.confirmed), pending: BigInt(balance.pending) }
  }
  const { chain_stats: chain, mempool_stats: mempool } = await getJson(
    doFetch,
    join(url, `/address/${path}`),
    EsploraAddress,
  )
  return {
    confirmed: BigInt(chain.funded_txo_sum - chain.spent_txo_sum),
    pending: BigInt(mempool.funded_txo_sum - mempool.spent_txo_sum),
  }
}

/**
 * An address's unspent outputs, mempool ones included (spent ones in the mempool left out).
 *
 * @example
 * const utxos = await readUtxos(fetch, url, 'regtest', 'bcrt1q…')
 */
export async function readUtxos(
  doFetch: Fetch,
  url: string,
  network: BitcoinNetworkKind,
  address: string,
): Promise<Utxo[]> {
  const path = encodeURIComponent(address)
  if (isLocal(network)) {
    const coins = await getJson(doFetch, join(url, `/coin/address/${path}`), BcoinCoins)
    return coins.map((coin) => ({ txid: coin.hash, vout: coin.index, value: BigInt(coin.value) }))
  }
  const utxos = await getJson(doFetch, join(url, `/address/${path}/utxo`), EsploraUtxos)
  return utxos.map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, value: BigInt(utxo.value) }))
}

/**
 * The fee rates for slow, normal and fast, in satoshis per virtual byte (at least 1), from the
 * node's estimates (`/fee?blocks=N`, satoshis per 1,000 vbytes; Esplora's `/fee-estimates`).
 *
 * @example
 * const rates = await readFeeRates(fetch, url, 'regtest') // { slow: 2n, normal: 5n, fast: 10n }
 */
export async function readFeeRates(
  doFetch: Fetch,
  url: string,
  network: BitcoinNetworkKind,
): Promise<Record<FeeSpeed, bigint>> {
  const perVbyte = (rate: number) => BigInt(Math.max(1, Math.ceil(rate)))
  const speeds = Object.keys(FEE_TARGETS) as FeeSpeed[]
  if (isLocal(network)) {
    const rates = await Promise.all(
      speeds.map((speed) => getJson(doFetch, join(url, `/fee?blocks=${FEE_TARGETS[speed]}`), BcoinFee)),
    )
    return Object.fromEntries(
      speeds.map((speed, i) => [speed, perVbyte((rates[i]?.rate ?? 1000) / 1000)]),
    ) as Record<FeeSpeed, bigint>
  }
  const estimates = await getJson(doFetch, join(url, '/fee-estimates'), EsploraFees)
  return Object.fromEntries(
    speeds.map((speed) => [speed, perVbyte(estimates[String(FEE_TARGETS[speed])] ?? 1)]),
  ) as Record<FeeSpeed, bigint>
}

/**
 * Broadcasts a signed transaction (hex); resolves its id, or throws the node's refusal.
 *
 * @example
 * const txid = await broadcastTransaction(fetch, url, 'regtest', hex, id)
 */
export async function broadcastTransaction(
  doFetch: Fetch,
  url: string,
  network: BitcoinNetworkKind,
  hex: string,
  txid: string,
): Promise<string> {
  const response = isLocal(network)
    ? await doFetch(join(url, '/broadcast'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tx: hex }),
      })
    : await doFetch(join(url, '/tx'), { method: 'POST', body: hex })
  if (!response.ok) {
    const text = await response.text().catch(() => '')
    throw new Error(`The node refused the transaction: ${text.slice(0, 300)}`)
  }
  return txid
}
