/**
 * Reading a Bitcoin network through its node API (the network's `rpcUrls`, or the page's `rpc-urls`):
 * the local regtest node's (bcoin's REST API, server/dev/bitcoin) or an Esplora API (mempool.space) for
 * the public networks. Balances, unspent outputs, fee rates, broadcasting; every answer zod-checked
 * against the APIs' wire formats (src/protocol/bitcoinNode.ts), which the service reads too.
 */
import type * as z from 'zod/mini'
import {
  BcoinBalanceSchema,
  BcoinCoinsSchema,
  BcoinFeeSchema,
  type BroadcastRequest,
  bcoinApi,
  EsploraAddressSchema,
  EsploraFeesSchema,
  EsploraUtxosSchema,
  esploraApi,
  feeRatePerVbyte,
} from '../../protocol/bitcoinNode.ts'
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

const isLocal = (network: BitcoinNetworkKind) => network === 'regtest'
const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`

async function getJson<T>(doFetch: Fetch, url: string, schema: z.ZodMiniType<T>): Promise<T> {
  const response = await doFetch(url)
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`)
  const body: unknown = await response.json().catch(() => {
    throw new Error(`${url}: the node answered something other than JSON`)
  })
  const parsed = schema.safeParse(body)
  if (!parsed.success) {
    // zod/mini's messages are bare ("Invalid input"): name where the answer went wrong and what was expected.
    const issue = parsed.error.issues[0]
    const at = issue?.path.length ? ` at ${issue.path.join('.')}` : ''
    const expected = issue && 'expected' in issue ? ` (expected ${String(issue.expected)})` : ''
    throw new Error(`${url}: malformed answer${at}${expected}`)
  }
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
  return isLocal(network)
    ? getJson(doFetch, join(url, bcoinApi.balance(address)), BcoinBalanceSchema)
    : getJson(doFetch, join(url, esploraApi.address(address)), EsploraAddressSchema)
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
  const coins = isLocal(network)
    ? await getJson(doFetch, join(url, bcoinApi.coins(address)), BcoinCoinsSchema)
    : await getJson(doFetch, join(url, esploraApi.utxos(address)), EsploraUtxosSchema)
  return coins.map(({ txid, vout, value }) => ({ txid, vout, value }))
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
  const speeds = Object.keys(FEE_TARGETS) as FeeSpeed[]
  const rates = isLocal(network)
    ? await Promise.all(
        speeds.map((speed) => getJson(doFetch, join(url, bcoinApi.fee(FEE_TARGETS[speed])), BcoinFeeSchema)),
      )
    : await getJson(doFetch, join(url, esploraApi.feeEstimates()), EsploraFeesSchema).then((estimates) =>
        speeds.map((speed) => feeRatePerVbyte(estimates[String(FEE_TARGETS[speed])] ?? 1)),
      )
  return Object.fromEntries(speeds.map((speed, i) => [speed, BigInt(rates[i] ?? 1)])) as Record<
    FeeSpeed,
    bigint
  >
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
  const request: BroadcastRequest = isLocal(network) ? bcoinApi.broadcast(hex) : esploraApi.broadcast(hex)
  const response = await doFetch(join(url, request.path), request.init)
  if (!response.ok) {
    const text = await response.text().catch(() => '')
    throw new Error(`The node refused the transaction: ${text.slice(0, 300)}`)
  }
  return txid
}
