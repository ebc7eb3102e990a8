// What the Demo Phone Wallet's Bitcoin payments share: the regtest network's parameters, the node the
// wallet pays through, and a transaction's outputs and fee as the person approves them.
import * as btc from '@scure/btc-signer'
import { formatUnits } from 'viem'
import { broadcastTransaction } from '../../../src/chains/bip122/node.ts'
import { btcSignerNetwork } from '../../../src/protocol/bitcoinNetworks.ts'
import { errorMessage, TRANSACTION_REJECTED, WalletRpcError } from './errors.ts'
import type { SummaryLine } from './types.ts'

/** Bitcoin Core's regtest parameters for `@scure/btc-signer`, from the network table. */
export const REGTEST = btcSignerNetwork('regtest')

/** Where the wallet reads coins and fee rates and broadcasts: the local regtest node. */
export type Bip122NodeOptions = {
  /** The regtest node's URL (bcoin's REST API; default `http://127.0.0.1:8794`). */
  nodeUrl?: string
  fetch?: typeof fetch
}

/** The regtest node as the wallet's actions use it. */
export type Bip122Node = { url: string; fetch: typeof fetch }

/** The account the payment methods sign for, and its node. */
export type Bip122Account = { address: string; privateKey: Uint8Array; node: Bip122Node }

/**
 * What a transaction pays, as the person approves it: each output's amount and address (the wallet's
 * own marked as change) and the fee.
 *
 * @example
 * paymentSummary(tx, 'bcrt1q…') // [{ label: 'Pay', value: '0.01 BTC to bcrt1q…' }, …, { label: 'Fee', value: '0.0000141 BTC' }]
 */
export function paymentSummary(tx: btc.Transaction, own: string): SummaryLine[] {
  const lines: SummaryLine[] = []
  for (let index = 0; index < tx.outputsLength; index++) {
    const output = tx.getOutput(index)
    const amount = `${formatUnits(output.amount ?? 0n, 8)} BTC`
    let to = '(unreadable script)'
    try {
      if (output.script) to = btc.Address(REGTEST).encode(btc.OutScript.decode(output.script))
    } catch {
      // An OP_RETURN or a script without an address: shown as unreadable.
    }
    lines.push(
      to === own
        ? { label: 'Change', value: `${amount} back to ${to}` }
        : { label: 'Pay', value: `${amount} to ${to}` },
    )
  }
  let fee = 'unknown (an input without its amount)'
  try {
    fee = `${formatUnits(tx.fee, 8)} BTC`
  } catch {
    // Left as unknown.
  }
  lines.push({ label: 'Fee', value: fee })
  return lines
}

/**
 * Sends a finalized transaction to the node; resolves its id. The node's refusal (a double spend, a bad
 * signature) is answered with code -32003 and the node's words, which WalletConnect passes on.
 *
 * @example
 * const txid = await broadcast(node, tx)
 */
export async function broadcast(node: Bip122Node, tx: btc.Transaction): Promise<string> {
  try {
    return await broadcastTransaction(node.fetch, node.url, 'regtest', tx.hex, tx.id)
  } catch (error) {
    throw new WalletRpcError(TRANSACTION_REJECTED, errorMessage(error))
  }
}
