import { bitcoinAddressType } from '../../chains/bip122/address.ts'
import { type FeeSpeed, readFeeRates, readUtxos } from '../../chains/bip122/node.ts'
import { buildPaymentPsbt, InsufficientFundsError } from '../../chains/bip122/psbt.ts'
import { ValidationError } from '../../errors/index.ts'
import { toBase64 } from '../../protocol/base64.ts'
import { SignPsbtResultSchema } from '../../protocol/bip122.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import { getProvider } from '../actions/getProvider.ts'
import type { Config } from '../config.ts'
import { bitcoinNode } from './node.ts'

/**
 * Sends BTC from the connected Bitcoin account: checks the receiver is an address of the network
 * (P2WPKH, P2TR, P2SH, P2WSH or legacy; `Invalid Bitcoin address` otherwise), builds the payment PSBT from
 * the account's unspent outputs at the node's fee rate for `speed`, and has the wallet sign and
 * broadcast it (`signPsbt` with `broadcast`). Resolves the transaction id.
 *
 * @example
 * const txid = await sendBitcoin(config, 'bip122:0f9188f1…', { from, to, amount: 1_000_000n, speed: 'normal' })
 */
export async function sendBitcoin(
  config: Config,
  caipNetworkId: CaipNetworkId,
  parameters: { from: string; to: string; amount: bigint; speed?: FeeSpeed | undefined },
): Promise<string> {
  const node = bitcoinNode(config, caipNetworkId)
  if (!bitcoinAddressType(parameters.to, node.kind))
    throw new ValidationError('Invalid Bitcoin address', {
      messageId: 'invalidBitcoinAddress',
      fields: ['receiver'],
    })
  const [utxos, rates] = await Promise.all([
    readUtxos(node.fetch, node.url, node.kind, parameters.from),
    readFeeRates(node.fetch, node.url, node.kind),
  ])
  let built: ReturnType<typeof buildPaymentPsbt>
  try {
    built = buildPaymentPsbt({
      network: node.kind,
      from: parameters.from,
      to: parameters.to,
      amount: parameters.amount,
      utxos,
      feeRate: rates[parameters.speed ?? 'normal'],
    })
  } catch (error) {
    if (!(error instanceof InsufficientFundsError)) throw error
    // The amount fits the balance but not with the fee on top.
    throw new ValidationError('Insufficient balance', {
      messageId: 'insufficientBalance',
      fields: ['amount'],
    })
  }
  const answer = await getProvider(config, 'bip122').request({
    method: 'signPsbt',
    params: {
      account: parameters.from,
      psbt: toBase64(built.psbt),
      signInputs: built.inputs.map((index) => ({ address: parameters.from, index })),
      broadcast: true,
    },
  })
  const parsed = SignPsbtResultSchema.safeParse(answer)
  if (!parsed.success || !parsed.data.txid)
    throw new ValidationError('The wallet returned no transaction hash', { messageId: 'noTransactionHash' })
  return parsed.data.txid
}
