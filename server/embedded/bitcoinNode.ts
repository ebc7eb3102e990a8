// The embedded wallet's reads and broadcasts on a Bitcoin node (bcoin's HTTP API, the local regtest node's).
import {
  BcoinBroadcastSchema,
  BcoinCoinsSchema,
  BcoinFeeSchema,
  bcoinApi,
} from '../../src/protocol/bitcoinNode.ts'
import { EmbeddedError } from './errors.ts'

/** An unspent output of an address. */
export interface BitcoinCoin {
  /** The transaction id (hex, as explorers show it). */
  txid: string
  index: number
  /** Satoshis. */
  value: bigint
  /** Its block height; -1 while in the mempool. */
  height: number
}

/** The node of a network is down, or answered something else. */
const nodeFailed = () =>
  new EmbeddedError(502, 'UPSTREAM_ERROR', 'The Bitcoin network could not be reached: try again', {
    rpcCode: -32603,
  })

/** The Bitcoin nodes of the wallet's bip122 networks. */
export interface BitcoinNodes {
  /** The networks with a node. */
  networks(): string[]
  /** The address's unspent outputs, mempool included (spent ones in the mempool left out). */
  coins(chainId: string, address: string): Promise<BitcoinCoin[]>
  /** The fee rate to confirm within `blocks`, in satoshis per virtual byte (at least 1). */
  feeRate(chainId: string, blocks: number): Promise<number>
  /** Broadcasts a signed transaction (hex); a refusal is the node's words, 400. */
  broadcast(chainId: string, hex: string): Promise<void>
}

/**
 * The Bitcoin node of each bip122 network (`BITCOIN_NODE_URLS`), read over bcoin's HTTP API:
 * `GET /coin/address/:address`, `GET /fee?blocks=N`, `POST /broadcast`.
 *
 * @example
 * const nodes = createBitcoinNodes({ 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328': 'http://127.0.0.1:8794' })
 * const coins = await nodes.coins('bip122:0f9188f13cb7b2c71f2a335e3a4fc328', 'bcrt1q…')
 */
export function createBitcoinNodes(
  urls: Readonly<Record<string, string>>,
  { timeoutMs = 10_000 }: { timeoutMs?: number } = {},
): BitcoinNodes {
  const urlOf = (chainId: string) => {
    const url = Object.hasOwn(urls, chainId) ? urls[chainId] : undefined
    if (!url) throw new EmbeddedError(400, 'BAD_REQUEST', 'Chain is not supported', { field: 'chainId' })
    return url
  }

  async function call(chainId: string, path: string, init?: RequestInit): Promise<unknown> {
    let response: Response
    try {
      response = await fetch(`${urlOf(chainId)}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) })
    } catch {
      throw nodeFailed()
    }
    const body = (await response.json().catch(() => undefined)) as
      | { error?: { message?: unknown } }
      | undefined
    if (response.status === 400 && typeof body?.error?.message === 'string')
      throw new EmbeddedError(
        400,
        'BAD_REQUEST',
        `The Bitcoin network refused the transaction: ${body.error.message}`,
        {
          rpcCode: -32603,
        },
      )
    if (!response.ok) throw nodeFailed()
    return body
  }

  return {
    networks: () => Object.keys(urls),

    async coins(chainId, address) {
      const parsed = BcoinCoinsSchema.safeParse(await call(chainId, bcoinApi.coins(address)))
      if (!parsed.success) throw nodeFailed()
      return parsed.data.map((coin) => ({
        txid: coin.txid,
        index: coin.vout,
        value: coin.value,
        height: coin.height,
      }))
    },

    async feeRate(chainId, blocks) {
      const parsed = BcoinFeeSchema.safeParse(await call(chainId, bcoinApi.fee(blocks)))
      if (!parsed.success) throw nodeFailed()
      return parsed.data
    },

    async broadcast(chainId, hex) {
      const { path, init } = bcoinApi.broadcast(hex)
      const parsed = BcoinBroadcastSchema.safeParse(await call(chainId, path, init))
      if (!parsed.success) throw nodeFailed()
    },
  }
}
