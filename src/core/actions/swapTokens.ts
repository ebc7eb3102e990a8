import { SwapQuoteExpiredError, summarizeError, toBaseError, ValidationError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { sendEvmTransaction } from '../evm/sendTransaction.ts'
import { dataApi } from '../tokenList.ts'
import { fetchBalance } from './fetchBalance.ts'
import { quoteSwap } from './quoteSwap.ts'

export type SwapTokensReturnType = {
  /** The swap's transaction hash. */
  hash: string
  /** Base units of the bought token the swap gave (from the pool's `Swap` event). */
  received: bigint | undefined
}

/**
 * Swaps as the Swap view's quote says, through the active connector's wallet: when the sold token's
 * allowance is short, an approval of exactly the amount first (the service's build approve), then the
 * swap (its build transaction, accepting no less than the quote's minimum, 1 % under it). A quote
 * older than 30 s, or one the pools no longer honour, is replaced by a new one and nothing more is
 * sent (`SwapQuoteExpiredError`). Balances are read again once the swap is in.
 *
 * @example
 * await quoteSwap(config, { from: 'native', to: usdc, amount: '0.1' })
 * const { received } = await swapTokens(config)
 */
export async function swapTokens(config: Config): Promise<SwapTokensReturnType> {
  const { quote, request, needsApproval, status } = config.$swap.get()
  const account = config.$account.get()
  const api = await dataApi(config)
  const busy = status === 'quoting' || status === 'approving' || status === 'swapping'
  if (!quote || !request || !account || !api || busy) {
    const error = new ValidationError('Get a quote first', { messageId: 'quoteFirst' })
    config.$swap.setKey('error', summarizeError(error))
    throw error
  }
  /** A new quote for the same request; the error says to check it. */
  const expired = async (cause?: unknown) => {
    await quoteSwap(config, request)
    const error = new SwapQuoteExpiredError(cause === undefined ? {} : { cause })
    if (config.$swap.get().status === 'quoted') config.$swap.setKey('error', summarizeError(error))
    return error
  }
  if (config.platform.now() > quote.expiresAt) throw await expired()

  // What is sold, for the result (the Swap view may be replaced by the wallet's approval meanwhile).
  const sold = config.$swap.get().tokens.find((token) => token.address === request.from)
  config.$swap.setKey('paid', `${request.amount} ${sold?.symbol ?? ''}`.trim())
  try {
    const chainId = quote.chainId
    if (needsApproval) {
      config.$swap.set({ ...config.$swap.get(), status: 'approving', error: undefined })
      const { transaction } = await api.buildApprove({ chainId, token: quote.from, amount: quote.amountIn })
      await sendEvmTransaction(config, { from: account.address, to: transaction.to, data: transaction.data })
      config.$swap.setKey('needsApproval', false)
    }
    config.$swap.set({ ...config.$swap.get(), status: 'swapping', error: undefined })
    const { transaction } = await api.buildSwap({
      chainId,
      from: quote.from,
      to: quote.to,
      amount: quote.amountIn,
      userAddress: account.address,
      minimumReceived: quote.minimumReceived,
    })
    const { hash, receipt } = await sendEvmTransaction(config, {
      from: account.address,
      to: transaction.to,
      data: transaction.data,
      value: BigInt(transaction.value),
      ...(transaction.gas ? { gas: BigInt(transaction.gas) } : {}),
    })
    const { swapOutput } = await import('../../chains/eip155/receipt.ts')
    const received = swapOutput(receipt)
    config.$swap.set({ ...config.$swap.get(), status: 'swapped', received, hash, error: undefined })
    void fetchBalance(config, { force: true }).catch(() => {})
    return { hash, received }
  } catch (error) {
    const base = toBaseError(error)
    if (base.name === 'SwapQuoteExpiredError') throw await expired(base)
    // The quote stays on screen, so the person can try again.
    config.$swap.set({ ...config.$swap.get(), status: 'error', error: summarizeError(base) })
    if (base.name !== 'ValidationError')
      config.events.emit('error', { code: base.code, message: base.shortMessage })
    throw base
  }
}
