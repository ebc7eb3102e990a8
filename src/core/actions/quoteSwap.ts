import {
  type BaseError,
  SwapsNetworkNotSupportedError,
  summarizeError,
  toBaseError,
  ValidationError,
} from '../../errors/index.ts'
import { NATIVE_TOKEN_ADDRESS, type SwapQuote } from '../../protocol/api/blockchain.ts'
import { balanceKey } from '../balanceKey.ts'
import type { Config } from '../config.ts'
import { dataApi } from '../tokenList.ts'

export interface QuoteSwapParameters {
  /** Token sold: `native` or a listed token's address. */
  from: string
  /** Token bought. */
  to: string
  /** Amount sold, in whole tokens as typed. */
  amount: string
}

export type QuoteSwapReturnType = SwapQuote | undefined

/**
 * Quotes a swap on the connected network (the service's quote: best of the direct pool and one hop)
 * with what the Swap view shows beside it: the network fee (gas price × gas) and whether the sold
 * token must be approved first. An empty amount clears the quote; an amount over the balance is
 * `Insufficient balance`. Answers to an older quote are dropped.
 *
 * @example
 * const quote = await quoteSwap(config, { from: 'native', to: usdc, amount: '0.1' })
 */
export async function quoteSwap(
  config: Config,
  parameters: QuoteSwapParameters,
): Promise<QuoteSwapReturnType> {
  config.internal.swapSeq += 1
  const seq = config.internal.swapSeq
  const current = config.$swap.get()
  const request = { from: parameters.from, to: parameters.to, amount: parameters.amount.trim() }
  const base = {
    ...current,
    request,
    quote: undefined,
    networkFee: undefined,
    feeError: undefined,
    needsApproval: false,
    received: undefined,
    hash: undefined,
    error: undefined,
  }
  const fail = (error: BaseError) => {
    if (seq === config.internal.swapSeq)
      config.$swap.set({ ...base, status: 'error', error: summarizeError(error) })
    return undefined
  }
  if (request.amount === '') {
    config.$swap.set({ ...base, status: 'idle' })
    return undefined
  }
  const account = config.$account.get()
  const network = config.$network.get()?.network
  const from = current.tokens.find((token) => token.address === request.from)
  const to = current.tokens.find((token) => token.address === request.to)
  if (!account || !network)
    return fail(new ValidationError('Connect a wallet first', { messageId: 'connectFirst' }))
  if (!from || !to)
    return fail(
      new ValidationError('A token is required', {
        messageId: 'tokenRequired',
        fields: [from ? 'to' : 'from'],
      }),
    )
  if (from.address === to.address)
    return fail(
      new ValidationError('Choose two different tokens', { messageId: 'differentTokens', fields: ['to'] }),
    )
  const { parseAmount } = await import('../amount.ts')
  const amountIn = parseAmount(request.amount, from.decimals)
  if (amountIn === undefined || amountIn <= 0n)
    return fail(new ValidationError('Invalid amount', { messageId: 'invalidAmount', fields: ['amount'] }))
  const balance = config.$balances.get()[balanceKey(network.caipNetworkId, account.address)]
  const held =
    from.address === NATIVE_TOKEN_ADDRESS
      ? balance?.value
      : (balance?.tokens.find((token) => token.address.toLowerCase() === from.address.toLowerCase())
          ?.amount ?? 0n)
  if (held !== undefined && amountIn > held)
    return fail(
      new ValidationError('Insufficient balance', { messageId: 'insufficientBalance', fields: ['amount'] }),
    )

  config.$swap.set({ ...base, status: 'quoting' })
  const api = await dataApi(config)
  if (!api) return fail(new SwapsNetworkNotSupportedError({ caipNetworkId: network.caipNetworkId }))
  const chainId = network.caipNetworkId
  const [quote, gas, allowance] = await Promise.allSettled([
    api.quote({
      chainId,
      from: from.address,
      to: to.address,
      amount: amountIn.toString(),
      userAddress: account.address,
    }),
    api.gasPrice(chainId),
    from.address === NATIVE_TOKEN_ADDRESS
      ? Promise.resolve(undefined)
      : api.allowance({ chainId, token: from.address, owner: account.address }),
  ])
  if (seq !== config.internal.swapSeq) return undefined
  if (quote.status === 'rejected') return fail(toBaseError(quote.reason))
  if (allowance.status === 'rejected') return fail(toBaseError(allowance.reason))
  config.$swap.set({
    ...base,
    status: 'quoted',
    quote: quote.value,
    networkFee: gas.status === 'fulfilled' ? BigInt(gas.value.gasPrice) * BigInt(quote.value.gas) : undefined,
    feeError: gas.status === 'rejected' ? summarizeError(toBaseError(gas.reason)) : undefined,
    needsApproval: allowance.value !== undefined && BigInt(allowance.value.allowance) < amountIn,
  })
  return quote.value
}
