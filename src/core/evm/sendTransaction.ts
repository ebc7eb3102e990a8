import type { TransactionReceipt } from '../../chains/eip155/receipt.ts'
import { ValidationError } from '../../errors/index.ts'
import { getProvider } from '../actions/getProvider.ts'
import type { Config } from '../config.ts'
import { trackPending } from '../pending.ts'
import { networkRpc } from '../rpcUrl.ts'

/** A transaction for `eth_sendTransaction`: amounts in wei. */
export interface EvmTransaction {
  from: string
  to: string
  data?: string | undefined
  value?: bigint | undefined
  gas?: bigint | undefined
}

const quantity = (value: bigint) => `0x${value.toString(16)}`

/**
 * Has the active connector's wallet send a transaction (`getProvider(config, 'eip155')`, so a browser
 * wallet, a WalletConnect session or the embedded wallet alike), then waits for its receipt on the
 * connected network, tracked as pending until then (at most 99 per account, SPEC section 9).
 *
 * @example
 * const { hash, receipt } = await sendEvmTransaction(config, { from, to: usdc, data: encodeTransfer(bob, amount) })
 */
export async function sendEvmTransaction(
  config: Config,
  transaction: EvmTransaction,
): Promise<{ hash: string; receipt: TransactionReceipt }> {
  const network = config.$network.get()?.network
  if (!network) throw new ValidationError('Connect a wallet first', { messageId: 'connectFirst' })
  const hash = await getProvider(config, 'eip155').request({
    method: 'eth_sendTransaction',
    params: [
      {
        from: transaction.from,
        to: transaction.to,
        ...(transaction.data ? { data: transaction.data } : {}),
        ...(transaction.value ? { value: quantity(transaction.value) } : {}),
        ...(transaction.gas ? { gas: quantity(transaction.gas) } : {}),
      },
    ],
  })
  if (typeof hash !== 'string')
    throw new ValidationError('The wallet returned no transaction hash', { messageId: 'noTransactionHash' })
  const settled = trackPending(config, `${network.caipNetworkId}:${transaction.from}`, hash)
  try {
    const { waitForReceipt } = await import('../../chains/eip155/receipt.ts')
    return { hash, receipt: await waitForReceipt(networkRpc(config, network.caipNetworkId), hash) }
  } finally {
    settled()
  }
}
