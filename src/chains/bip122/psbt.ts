import { Address, OutScript, selectUTXO } from '@scure/btc-signer'
import { BTC_SIGNER_NETWORKS } from './address.ts'
import type { BitcoinNetworkKind } from './networks.ts'

/** An unspent output of the sender's address. */
export interface Utxo {
  txid: string
  vout: number
  /** Satoshis. */
  value: bigint
}

export interface PaymentPsbtParameters {
  network: BitcoinNetworkKind
  /** The sender's address: its outputs are spent, the change goes back to it. */
  from: string
  to: string
  /** Satoshis to `to`. */
  amount: bigint
  utxos: readonly Utxo[]
  /** Satoshis per virtual byte. */
  feeRate: bigint
}

export interface PaymentPsbt {
  /** The unsigned PSBT (BIP-174) bytes, with each input's witness UTXO. */
  psbt: Uint8Array
  /** The indexes of the inputs the sender signs (all of them). */
  inputs: number[]
  /** Satoshis paid in fees. */
  fee: bigint
}

/** Not enough to pay the amount and the fee. */
export class InsufficientFundsError extends Error {
  override name = 'InsufficientFundsError'
}

/**
 * Builds the unsigned PSBT of one payment from a single-address (P2WPKH or P2TR) wallet: coins chosen
 * oldest first, the fee at `feeRate`, the change back to `from` (left out when it would be dust).
 * Throws {@link InsufficientFundsError} when the coins do not cover amount and fee.
 *
 * @example
 * const { psbt, inputs } = buildPaymentPsbt({ network: 'regtest', from, to, amount: 1_000_000n, utxos, feeRate: 2n })
 */
export function buildPaymentPsbt(parameters: PaymentPsbtParameters): PaymentPsbt {
  const network = BTC_SIGNER_NETWORKS[parameters.network]
  const script = OutScript.encode(Address(network).decode(parameters.from))
  const inputs = parameters.utxos.map((utxo) => ({
    txid: utxo.txid,
    index: utxo.vout,
    witnessUtxo: { script, amount: utxo.value },
  }))
  const selected = selectUTXO(inputs, [{ address: parameters.to, amount: parameters.amount }], 'default', {
    changeAddress: parameters.from,
    feePerByte: parameters.feeRate,
    network,
    createTx: true,
    bip69: false,
  })
  if (!selected?.tx || selected.fee === undefined) throw new InsufficientFundsError('Insufficient balance')
  return {
    psbt: selected.tx.toPSBT(),
    inputs: selected.inputs.map((_, index) => index),
    fee: selected.fee,
  }
}
