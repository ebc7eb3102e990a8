import type { Eip1193Provider } from '../../connectors/types.ts'
import { WalletNoSignatureError, WalletNoTransactionError } from '../../errors/wallet.ts'
import * as base58 from '../../protocol/siwx/base58.ts'
import type { Config } from '../config.ts'
import { recordOf } from '../connection/recordOf.ts'
import { disconnectedError } from '../providerErrors.ts'
import type { SolanaSendConnection, SolanaSendOptions, SolanaTransactionLike } from './transactions.ts'
import * as tx from './transactions.ts'

/**
 * The Solana methods of `getProvider(config, 'solana')`, over WalletConnect-style Solana requests
 * to the active connection.
 */
export function solanaMethods(config: Config, provider: Eip1193Provider) {
  const current = async () => {
    const record = recordOf(config, 'solana')
    const address = record.accounts[0]
    if (record.status !== 'connected' || !address || !record.chainId) throw await disconnectedError()
    return { address, chainId: record.chainId, tx }
  }
  const signBytes = async (transaction: SolanaTransactionLike) => {
    const { address, chainId, tx } = await current()
    const wire = await tx.toWireBytes(config, transaction, { address, chainId })
    const answer = (await provider.request({
      method: 'solana_signTransaction',
      params: { transaction: tx.toBase64(wire) },
    })) as { transaction?: unknown }
    if (typeof answer?.transaction !== 'string') throw new WalletNoTransactionError()
    return { signed: tx.fromBase64(answer.transaction), chainId, tx }
  }
  return {
    async signMessage(message: Uint8Array) {
      const { address } = await current()
      const { encodeBase58, decodeBase58 } = base58
      const answer = (await provider.request({
        method: 'solana_signMessage',
        params: { message: encodeBase58(message), pubkey: address },
      })) as { signature?: unknown }
      const signature = typeof answer?.signature === 'string' ? decodeBase58(answer.signature) : null
      if (!signature) throw new WalletNoSignatureError()
      return signature
    },
    async signTransaction<T extends SolanaTransactionLike>(transaction: T): Promise<T> {
      const { signed, tx } = await signBytes(transaction)
      return tx.fromWireBytes(transaction, signed)
    },
    async signAndSendTransaction(transaction: SolanaTransactionLike, options?: SolanaSendOptions) {
      const { address, chainId, tx } = await current()
      const wire = await tx.toWireBytes(config, transaction, { address, chainId })
      const answer = (await provider.request({
        method: 'solana_signAndSendTransaction',
        params: { transaction: tx.toBase64(wire), ...(options ? { sendOptions: options } : {}) },
      })) as { signature?: unknown }
      if (typeof answer?.signature !== 'string') throw new WalletNoSignatureError()
      return answer.signature
    },
    async sendTransaction(
      transaction: SolanaTransactionLike,
      connection?: SolanaSendConnection,
      options?: SolanaSendOptions,
    ) {
      const { signed, chainId, tx } = await signBytes(transaction)
      return tx.sendRaw(config, chainId, signed, connection, options)
    },
  }
}
