// The local regtest node as the end-to-end tests read it: bcoin's REST API at the stack's Bitcoin URL,
// blocks mined on demand (`POST /dev/mine`), and receivers no one has paid before.
import assert from 'node:assert/strict'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { p2wpkh } from '@scure/btc-signer'
import { REGTEST_NETWORK } from '../../server/dev/bitcoin/keys.ts'
import { BITCOIN_NETWORKS } from '../../src/protocol/bitcoinNetworks.ts'

/** The CAIP-2 id of the local regtest network. */
export const REGTEST = BITCOIN_NETWORKS.regtest.caipNetworkId

/** An address's balance in satoshis as the node answers it. */
export type NodeBalance = { address: string; confirmed: number; pending: number; total: number }

/**
 * Reads of the regtest node whose URL `url()` gives once the stack is up.
 *
 * @example
 * const { read, balance, mine, freshAddress } = regtestNode(() => stack.urls.bitcoin)
 * await mine(); (await balance(freshAddress())).confirmed // 0
 */
export function regtestNode(url: () => string) {
  const read = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await fetch(new URL(path, url()), init)
    assert.ok(response.ok, `${path}: HTTP ${response.status} ${await response.clone().text()}`)
    return (await response.json()) as T
  }
  return {
    read,
    balance: (address: string) => read<NodeBalance>(`/balance/address/${address}`),
    /** Mines one block and waits for the node's answer. */
    mine: () =>
      read('/dev/mine', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ blocks: 1 }),
      }),
    /** A P2WPKH address of a new random key: its balance starts at nothing. */
    freshAddress: () =>
      p2wpkh(secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), true), REGTEST_NETWORK)
        .address as string,
  }
}
