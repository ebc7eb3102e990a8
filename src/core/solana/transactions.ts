import { InvalidResponseError } from '../../errors/rpc.ts'
import { toBase64 } from '../../protocol/base64.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Config } from '../config.ts'
import { networkRpc } from '../rpcUrl.ts'

/** A transaction as a page holds it: `@solana/web3.js` `Transaction` or `VersionedTransaction`, or its bytes. */
export type SolanaTransactionLike =
  | Uint8Array
  | {
      serialize(config?: { requireAllSignatures?: boolean; verifySignatures?: boolean }): Uint8Array
      recentBlockhash?: string | undefined
      feePayer?: unknown
      version?: unknown
    }

/** What `sendTransaction` needs of a page's `Connection`, if it brings one. */
export interface SolanaSendConnection {
  sendRawTransaction(raw: Uint8Array, options?: SolanaSendOptions): Promise<string>
}

export interface SolanaSendOptions {
  skipPreflight?: boolean | undefined
  preflightCommitment?: string | undefined
  maxRetries?: number | undefined
}

export { fromBase64, toBase64 } from '../../protocol/base64.ts'

const isLegacy = (tx: Exclude<SolanaTransactionLike, Uint8Array>) =>
  !('version' in tx) || tx.version === undefined

/**
 * The bytes a wallet signs. A legacy transaction without a fee payer or recent blockhash gets the
 * connected account and the network's latest blockhash first, as wallet adapters do.
 */
export async function toWireBytes(
  config: Config,
  transaction: SolanaTransactionLike,
  parameters: { address: string; chainId: CaipNetworkId },
): Promise<Uint8Array> {
  if (transaction instanceof Uint8Array) return transaction
  if (isLegacy(transaction)) {
    const tx = transaction as { recentBlockhash?: string | undefined; feePayer?: unknown }
    if (!tx.feePayer) {
      const { PublicKey } = await import('@solana/web3.js')
      tx.feePayer = new PublicKey(parameters.address)
    }
    if (!tx.recentBlockhash) {
      const answer = (await networkRpc(config, parameters.chainId)('getLatestBlockhash', [
        { commitment: 'confirmed' },
      ])) as { value?: { blockhash?: unknown } } | undefined
      if (typeof answer?.value?.blockhash !== 'string')
        throw new InvalidResponseError({
          method: 'getLatestBlockhash',
          received: answer,
          details: 'No recent blockhash from the network',
        })
      tx.recentBlockhash = answer.value.blockhash
    }
    return transaction.serialize({ requireAllSignatures: false, verifySignatures: false })
  }
  return transaction.serialize()
}

/** The signed bytes in the same form the page gave: bytes, or a web3.js transaction. */
export async function fromWireBytes<T extends SolanaTransactionLike>(
  original: T,
  signed: Uint8Array,
): Promise<T> {
  if (original instanceof Uint8Array) return signed as T
  const web3 = await import('@solana/web3.js')
  return (isLegacy(original)
    ? web3.Transaction.from(signed)
    : web3.VersionedTransaction.deserialize(signed)) as unknown as T
}

/** Sends signed bytes: through the page's `Connection` when given, else the network's RPC. */
export async function sendRaw(
  config: Config,
  chainId: CaipNetworkId,
  signed: Uint8Array,
  connection?: SolanaSendConnection,
  options: SolanaSendOptions = {},
): Promise<string> {
  if (connection) return connection.sendRawTransaction(signed, options)
  const signature = await networkRpc(config, chainId)('sendTransaction', [
    toBase64(signed),
    { encoding: 'base64', ...options },
  ])
  if (typeof signature !== 'string')
    throw new InvalidResponseError({
      method: 'sendTransaction',
      received: signature,
      details: 'The network returned no signature',
    })
  return signature
}
