import { InvalidResponseError } from '../../errors/rpc.ts'
import { balanceKey } from '../balanceKey.ts'
import type { Config } from '../config.ts'
import { networkRpc } from '../rpcUrl.ts'
import { NATIVE_TOKEN } from './sendToken.ts'

/** Gas of a plain EVM transfer of the native currency. */
const NATIVE_TRANSFER_GAS = 21_000n
/** The fee is counted twice over, so a rise before the block does not make the send fail. */
const FEE_MARGIN = 2n
/** Lamports a Solana transfer pays (one signature). */
const SOLANA_SIGNATURE_FEE = 5_000n

export type MaxSendAmountReturnType = bigint | undefined

/**
 * The most of a token the Send view's Max offers: all of a token; of the native currency, the balance
 * less what the send's fee may cost (the network's gas price × 21,000, twice over, on EVM; one
 * signature's 5,000 lamports on Solana). Undefined while the balance is unknown.
 *
 * @example
 * const max = await maxSendAmount(config, 'native') // 9999999958000000000000n
 */
export async function maxSendAmount(config: Config, token: string): Promise<MaxSendAmountReturnType> {
  const account = config.$account.get()
  const network = config.$network.get()?.network
  if (!account || !network) return undefined
  const balance = config.$balances.get()[balanceKey(network.caipNetworkId, account.address)]
  if (token !== NATIVE_TOKEN) return balance?.tokens.find((holding) => holding.address === token)?.amount
  const held = balance?.value
  if (held === undefined) return undefined
  let fee = SOLANA_SIGNATURE_FEE
  if (network.chainNamespace === 'eip155') {
    const gasPrice = await networkRpc(config, network.caipNetworkId)('eth_gasPrice', [])
    if (typeof gasPrice !== 'string' || !/^0x[0-9a-fA-F]+$/.test(gasPrice))
      throw new InvalidResponseError({
        method: 'eth_gasPrice',
        received: gasPrice,
        details: 'malformed gas price',
      })
    fee = BigInt(gasPrice) * NATIVE_TRANSFER_GAS * FEE_MARGIN
  }
  return held > fee ? held - fee : 0n
}
