import type { FeeSpeed } from '../../chains/bip122/node.ts'
import { summarizeError, toBaseError, ValidationError } from '../../errors/index.ts'
import { EvmAddressSchema } from '../../protocol/address.ts'
import { toBase64 } from '../../protocol/base64.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import { balanceKey } from '../balanceKey.ts'
import type { Config } from '../config.ts'
import { sendEvmTransaction } from '../evm/sendTransaction.ts'
import { trackPending } from '../pending.ts'
import { networkRpc } from '../rpcUrl.ts'
import { fetchBalance } from './fetchBalance.ts'
import { getProvider } from './getProvider.ts'

/** The native currency in the send form's token choice. */
export const NATIVE_TOKEN = 'native'

export interface SendTokenParameters {
  /** `native`, or the token's mint (Solana) or contract (EVM) address. */
  token: string | undefined
  /** Decimal amount as typed, in whole tokens. */
  amount: string
  receiver: string
  /** Bitcoin: the node's fee rate to confirm within 6 (`slow`), 3 (`normal`, the default) or 1 (`fast`) block. */
  speed?: FeeSpeed | undefined
}

const tokenRequired = () =>
  new ValidationError('A token is required', { messageId: 'tokenRequired', fields: ['token'] })
const invalidEvmAddress = () =>
  new ValidationError('Invalid EVM address', { messageId: 'invalidEvmAddress', fields: ['receiver'] })

/**
 * Sends a token from the connected account (SPEC section 4: loading on, the send for the chain,
 * then the send state reset): EVM native or ERC-20 through the active connector's wallet, SOL or an SPL token
 * (creating the receiver's token account when needed) through the Solana wallet, BTC through the Bitcoin
 * wallet (a PSBT it signs and broadcasts). Validates first:
 * `An amount and receiver address are required`, `A token is required`, the receiver's address
 * format and the balance. Resolves the transaction hash (EVM) or signature (Solana) once confirmed.
 *
 * @example
 * const signature = await sendToken(config, { token: 'native', amount: '0.5', receiver: 'Gh9Z…' })
 */
export async function sendToken(config: Config, parameters: SendTokenParameters): Promise<string> {
  config.$send.set({
    ...config.$send.get(),
    status: 'sending',
    error: undefined,
    hash: undefined,
    sent: undefined,
  })
  try {
    const { hash, symbol } = await send(config, parameters)
    // The result replaces the form, which starts empty again (the token chosen stays).
    const { form } = config.$send.get()
    config.$send.set({
      status: 'sent',
      error: undefined,
      hash,
      form: { ...form, amount: '', receiver: '' },
      sent: { amount: parameters.amount.trim(), symbol, receiver: parameters.receiver.trim() },
    })
    void fetchBalance(config, { force: true }).catch(() => {})
    return hash
  } catch (error) {
    const base = toBaseError(error)
    // What was typed stays in the form, with the error beside it.
    config.$send.set({ ...config.$send.get(), status: 'error', error: summarizeError(base), hash: undefined })
    if (base.name !== 'ValidationError')
      config.events.emit('error', { code: base.code, message: base.shortMessage })
    throw base
  }
}

async function send(
  config: Config,
  parameters: SendTokenParameters,
): Promise<{ hash: string; symbol: string }> {
  const amountText = parameters.amount.trim()
  const receiver = parameters.receiver.trim()
  if (!amountText || !receiver)
    throw new ValidationError('An amount and receiver address are required', {
      messageId: 'amountAndReceiverRequired',
      fields: [...(amountText ? [] : ['amount']), ...(receiver ? [] : ['receiver'])],
    })
  if (!parameters.token) throw tokenRequired()
  const account = config.$account.get()
  const network = config.$network.get()?.network
  if (!account || !network) throw new ValidationError('Connect a wallet first', { messageId: 'connectFirst' })

  const balance = config.$balances.get()[balanceKey(network.caipNetworkId, account.address)]
  const isNative = parameters.token === NATIVE_TOKEN
  const token = isNative
    ? undefined
    : balance?.tokens.find((candidate) => candidate.address === parameters.token)
  if (!isNative && !token) throw tokenRequired()
  const decimals = token?.decimals ?? network.nativeCurrency.decimals
  const { parseAmount } = await import('../amount.ts')
  const amount = parseAmount(amountText, decimals)
  if (amount === undefined || amount <= 0n)
    throw new ValidationError('Invalid amount', { messageId: 'invalidAmount', fields: ['amount'] })
  const held = token ? token.amount : balance?.value
  if (held !== undefined && amount > held)
    throw new ValidationError('Insufficient balance', {
      messageId: 'insufficientBalance',
      fields: ['amount'],
    })

  // A receiver by name (`alice.wallet.test`): the first address of its addresses list (SPEC 7).
  let to = receiver
  if (/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(receiver)) {
    const { resolveName } = await import('../names.ts')
    const address = await resolveName(config, receiver)
    if (!address)
      throw new ValidationError(`${receiver} is not a registered name`, {
        messageId: 'nameNotFound',
        messageValues: { name: receiver },
        fields: ['receiver'],
      })
    to = address
  }

  const symbol = token?.symbol ?? network.nativeCurrency.symbol
  switch (network.chainNamespace) {
    case 'eip155':
      return {
        hash: await sendEvm(config, { from: account.address, to, amount, token: token?.address }),
        symbol,
      }
    case 'solana':
      return {
        hash: await sendSolana(config, network.caipNetworkId, {
          from: account.address,
          to,
          amount,
          token: token ? { mint: token.address, decimals } : undefined,
        }),
        symbol,
      }
    case 'bip122': {
      if (token) throw tokenRequired()
      const { sendBitcoin } = await import('../bitcoin/send.ts')
      return {
        hash: await sendBitcoin(config, network.caipNetworkId, {
          from: account.address,
          to,
          amount,
          speed: parameters.speed,
        }),
        symbol,
      }
    }
    default:
      throw new ValidationError(`Sending on ${network.chainNamespace} is not supported`, {
        messageId: 'sendNotSupported',
        messageValues: { namespace: network.chainNamespace },
      })
  }
}

async function sendEvm(
  config: Config,
  parameters: { from: string; to: string; amount: bigint; token: string | undefined },
): Promise<string> {
  if (!EvmAddressSchema.safeParse(parameters.to).success) throw invalidEvmAddress()
  const to = parameters.to.startsWith('0x') ? parameters.to : `0x${parameters.to}`
  // Mixed case is an EIP-55 checksum: a typo in it must not send funds elsewhere.
  const hex = to.slice(2)
  if (hex !== hex.toLowerCase() && hex !== hex.toUpperCase()) {
    const { isChecksumAddress } = await import('../../protocol/siwx/checksum.ts')
    if (!isChecksumAddress(to)) throw invalidEvmAddress()
  }
  const { encodeTransfer } = await import('../../chains/eip155/abi.ts')
  const { hash } = await sendEvmTransaction(
    config,
    parameters.token
      ? { from: parameters.from, to: parameters.token, data: encodeTransfer(to, parameters.amount) }
      : { from: parameters.from, to, value: parameters.amount },
  )
  return hash
}

async function sendSolana(
  config: Config,
  chainId: CaipNetworkId,
  parameters: {
    from: string
    to: string
    amount: bigint
    token: { mint: string; decimals: number } | undefined
  },
): Promise<string> {
  const { isSolanaAddress } = await import('../../chains/solana/address.ts')
  if (!isSolanaAddress(parameters.to))
    throw new ValidationError('Invalid Solana address', {
      messageId: 'invalidSolanaAddress',
      fields: ['receiver'],
    })
  const transfer = await import('../../chains/solana/transfer.ts')
  const rpc = networkRpc(config, chainId)
  const transaction = parameters.token
    ? await transfer.buildTokenTransfer(rpc, {
        from: parameters.from,
        to: parameters.to,
        mint: parameters.token.mint,
        amount: parameters.amount,
        decimals: parameters.token.decimals,
      })
    : await transfer.buildSolTransfer(rpc, {
        from: parameters.from,
        to: parameters.to,
        lamports: parameters.amount,
      })
  const provider = getProvider(config, 'solana')
  let signature: string
  try {
    const answer = (await provider.request({
      method: 'solana_signAndSendTransaction',
      params: { transaction: toBase64(transfer.serializeForWallet(transaction)) },
    })) as { signature?: unknown }
    if (typeof answer?.signature !== 'string')
      throw new ValidationError('The wallet returned no signature', { messageId: 'noSignature' })
    signature = answer.signature
  } catch (error) {
    // A wallet that only signs: send the signed transaction ourselves.
    if (toBaseError(error).code !== 4200) throw error
    signature = await provider.sendTransaction(transfer.serializeForWallet(transaction))
  }
  const settled = trackPending(config, `${chainId}:${parameters.from}`, signature)
  try {
    await transfer.confirmSignature(rpc, signature)
  } finally {
    settled()
  }
  return signature
}
