// The Demo Phone Wallet's sendTransfer (WalletConnect's bip122 method): one payment of `amount`
// satoshis (a decimal string) to `recipientAddress`, built from the account's coins on the regtest
// node at its fee rate for 3 blocks, change back to the account. The request is checked and the PSBT
// built before the person is asked, so the prompt shows what will be signed and a payment the coins do
// not cover is refused at once (code -32000, whose message WalletConnect passes on). Approve signs,
// finalizes and broadcasts; the answer is `{ txid }`.
import { Transaction } from '@scure/btc-signer'
import { bitcoinAddressType } from '../../../src/chains/bip122/address.ts'
import { readFeeRates, readUtxos } from '../../../src/chains/bip122/node.ts'
import { buildPaymentPsbt, InsufficientFundsError } from '../../../src/chains/bip122/psbt.ts'
import { type Bip122Account, broadcast, paymentSummary } from './bip122-payment.ts'
import { INVALID_INPUT, WalletRpcError } from './errors.ts'
import { display } from './readable.ts'
import type { Action } from './requests.ts'

/** Satoshis as WalletConnect writes them: a decimal string, no sign, no fraction. */
const SATOSHIS = /^[1-9]\d{0,15}$/

/**
 * The sendTransfer request understood: its checks (`recipientAddress` a regtest address, `amount`
 * positive whole satoshis as a string, `changeAddress` the account's own, no `memo`), then the payment
 * built from the node's coins. Rejects with a {@link WalletRpcError} (-32000, invalid input) otherwise.
 *
 * @example
 * const action = await sendTransferAction(account, { recipientAddress: 'bcrt1q…', amount: '1000000' })
 * const { txid } = (await action.run()) as { txid: string }
 */
export async function sendTransferAction(
  { address, privateKey, node }: Bip122Account,
  fields: Record<string, unknown>,
): Promise<Action> {
  const { recipientAddress, amount, changeAddress, memo } = fields
  if (typeof recipientAddress !== 'string' || !bitcoinAddressType(recipientAddress, 'regtest'))
    throw new WalletRpcError(
      INVALID_INPUT,
      `recipientAddress is not a Bitcoin regtest address: ${display(recipientAddress, 80)}`,
    )
  if (typeof amount !== 'string' || !SATOSHIS.test(amount))
    throw new WalletRpcError(
      INVALID_INPUT,
      `amount is a whole number of satoshis as a string, not ${display(amount, 40)}`,
    )
  if (changeAddress !== undefined && changeAddress !== address)
    throw new WalletRpcError(INVALID_INPUT, `This wallet takes its change at ${address}`)
  // OP_RETURN memos are optional for wallets; this one sends none rather than drop one silently.
  if (memo !== undefined && memo !== '')
    throw new WalletRpcError(INVALID_INPUT, 'This wallet does not add a memo (OP_RETURN) output')

  const [utxos, rates] = await Promise.all([
    readUtxos(node.fetch, node.url, 'regtest', address),
    readFeeRates(node.fetch, node.url, 'regtest'),
  ])
  let built: ReturnType<typeof buildPaymentPsbt>
  try {
    built = buildPaymentPsbt({
      network: 'regtest',
      from: address,
      to: recipientAddress.trim(),
      amount: BigInt(amount),
      utxos,
      feeRate: rates.normal,
    })
  } catch (error) {
    if (!(error instanceof InsufficientFundsError)) throw error
    const balance = utxos.reduce((sum, utxo) => sum + utxo.value, 0n)
    throw new WalletRpcError(
      INVALID_INPUT,
      `Insufficient balance: ${amount} satoshis and the fee are more than the ${balance} this account holds`,
    )
  }
  const tx = Transaction.fromPSBT(built.psbt)
  return {
    summary: [...paymentSummary(tx, address), { label: 'From', value: address }],
    run: async () => {
      for (const index of built.inputs) tx.signIdx(privateKey, index)
      tx.finalize()
      return { txid: await broadcast(node, tx) }
    },
  }
}
