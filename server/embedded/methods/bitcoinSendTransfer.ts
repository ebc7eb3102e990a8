/**
 * `sendTransfer` (bip122): the service builds the PSBT from the person's coins (the network's fee rate,
 * change back to their address), the frame shows it from its bytes, signs, and the service broadcasts.
 */
import { Address, OutScript, Script, selectUTXO } from '@scure/btc-signer'
import * as z from 'zod/mini'
import { btcSignerNetworkOfHrp } from '../../../src/protocol/bitcoinNetworks.ts'
import { p2wpkhScript } from '../../../src/protocol/embedded/bitcoin.ts'
import { accountParam, bitcoinAccountOf, psbtPreview, signedTransaction } from './bitcoinTransactions.ts'
import { invalidParams } from './params.ts'
import { approvalMethod } from './types.ts'

const params = z.object({
  account: accountParam,
  recipientAddress: z.string().check(z.maxLength(100)),
  /** Satoshis, as a decimal string. */
  amount: z.string().check(z.regex(/^[1-9]\d{0,15}$/)),
  changeAddress: z.optional(z.string().check(z.maxLength(100))),
  memo: z.optional(z.string().check(z.maxLength(80))),
})

/** A recipient that is not an address of this network. */
export const invalidBitcoinAddressMessage = 'Invalid Bitcoin address'
/** Not enough coins for the amount and the fee. */
export const insufficientBalanceMessage = 'Insufficient balance'
/** An output so small the network would not relay it. */
export const dustMessage = 'The amount is below the dust limit (546 satoshis)'
/** A memo longer than an OP_RETURN output carries. */
export const memoTooLongMessage = 'The memo must be at most 80 bytes'

/** Blocks the fee rate aims to confirm within. */
const TARGET_BLOCKS = 2
/** Bitcoin Core's dust threshold for the outputs this wallet pays (P2PKH's, the strictest common one). */
const DUST = 546n

export const bitcoinSendTransfer = approvalMethod({
  method: 'sendTransfer',
  params,
  async preview(ctx, { account, recipientAddress, amount, changeAddress, memo }) {
    const own = await bitcoinAccountOf(ctx, account, changeAddress)
    const network = btcSignerNetworkOfHrp(own.network.hrp)
    let recipient: Uint8Array
    try {
      recipient = OutScript.encode(Address(network).decode(recipientAddress))
    } catch {
      throw invalidParams(invalidBitcoinAddressMessage)
    }
    const value = BigInt(amount)
    if (value < DUST) throw invalidParams(dustMessage)
    const outputs: { script: Uint8Array; amount: bigint }[] = [{ script: recipient, amount: value }]
    if (memo !== undefined) {
      const bytes = new TextEncoder().encode(memo)
      if (bytes.length > 80) throw invalidParams(memoTooLongMessage)
      outputs.push({ script: Script.encode(['RETURN', bytes]), amount: 0n })
    }
    const script = p2wpkhScript(own.publicKey)
    const coins = await own.node.coins(ctx.chainId, own.address)
    const feePerByte = BigInt(await own.node.feeRate(ctx.chainId, TARGET_BLOCKS))
    const selected = selectUTXO(
      coins.map((coin) => ({
        txid: coin.txid,
        index: coin.index,
        witnessUtxo: { script, amount: coin.value },
      })),
      outputs,
      'default',
      {
        feePerByte,
        changeAddress: own.address,
        network,
        bip69: false,
        createTx: true,
        allowUnknownOutputs: true,
      },
    )
    if (!selected?.tx) throw invalidParams(insufficientBalanceMessage)
    const psbt = Buffer.from(selected.tx.toPSBT()).toString('base64')
    return psbtPreview(own, psbt, undefined)
  },
  async execute(ctx, _params, prepared, signatures) {
    const tx = await signedTransaction(ctx, prepared, signatures)
    const account = await bitcoinAccountOf(ctx)
    await account.node.broadcast(ctx.chainId, tx.hex)
    return { txid: tx.id }
  },
})
