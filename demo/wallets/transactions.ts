import { createPublicClient, type HDAccount, type Hex, http } from 'viem'
import { prepareTransactionRequest, sendRawTransaction } from 'viem/actions'

/** The fields of an `eth_sendTransaction` a demo wallet has already checked. */
export interface CheckedTransaction {
  to: string | undefined
  data: string | undefined
  value: bigint
  gas: bigint | undefined
  nonce: bigint | undefined
  gasPrice: bigint | undefined
  maxFeePerGas: bigint | undefined
  maxPriorityFeePerGas: bigint | undefined
}

/**
 * Fills what the page left out (nonce, gas, fees) from the chain with viem, signs with the dev
 * account and sends the raw transaction: the key never leaves the demo wallet. Shared by the
 * browser Demo Wallet and the demo phone wallet.
 *
 * @example
 * const hash = await signAndSend(account, 'http://127.0.0.1:8545', 31337, checked)
 */
export async function signAndSend(
  account: HDAccount,
  rpcUrl: string,
  chainId: number,
  tx: CheckedTransaction,
): Promise<Hex> {
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) })
  const request = await prepareTransactionRequest(client, {
    account,
    chain: null,
    chainId,
    value: tx.value,
    ...(tx.to ? { to: tx.to as Hex } : {}),
    ...(tx.data && tx.data !== '0x' ? { data: tx.data as Hex } : {}),
    ...(tx.gas !== undefined ? { gas: tx.gas } : {}),
    ...(tx.nonce !== undefined ? { nonce: Number(tx.nonce) } : {}),
    ...(tx.gasPrice !== undefined
      ? { gasPrice: tx.gasPrice }
      : {
          ...(tx.maxFeePerGas !== undefined ? { maxFeePerGas: tx.maxFeePerGas } : {}),
          ...(tx.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: tx.maxPriorityFeePerGas } : {}),
        }),
  })
  const serializedTransaction = await account.signTransaction(
    request as Parameters<HDAccount['signTransaction']>[0],
  )
  return sendRawTransaction(client, { serializedTransaction })
}
