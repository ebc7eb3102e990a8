import { SwapsNetworkNotSupportedError, summarizeError, toBaseError } from '../../errors/index.ts'
import { NATIVE_TOKEN_ADDRESS } from '../../protocol/api/blockchain.ts'
import type { Config, SwapState } from '../config.ts'
import { tokenList } from '../tokenList.ts'

/** A fresh swap: nothing chosen, quoted or sent. */
const IDLE_SWAP: SwapState = { status: 'idle', tokens: [] }

export type LoadSwapReturnType = SwapState

/**
 * Opens the Swap view's state for the connected network: its swappable tokens (the native currency,
 * then the companion service's token list) or, where the service has no swaps (another network,
 * Solana, no service at all), `Network not supported for Swaps` (SPEC section 8).
 *
 * @example
 * const { status, tokens } = await loadSwap(config)
 */
export async function loadSwap(config: Config): Promise<LoadSwapReturnType> {
  config.internal.swapSeq += 1
  config.$swap.set({ ...IDLE_SWAP, status: 'loading' })
  const network = config.$network.get()
  const unsupported = (cause?: unknown) => {
    const error = new SwapsNetworkNotSupportedError({
      caipNetworkId: network?.caipNetworkId,
      ...(cause === undefined ? {} : { cause }),
    })
    config.$swap.set({
      ...IDLE_SWAP,
      status: 'unsupported',
      error: summarizeError(error),
    })
    return config.$swap.get()
  }
  const definition = network?.network
  // Swaps are EVM transactions built by the service; no Solana swap source exists yet.
  if (definition?.chainNamespace !== 'eip155') return unsupported()
  try {
    const list = await tokenList(config, definition.caipNetworkId)
    if (!list?.swaps) return unsupported()
    const { nativeCurrency } = definition
    config.$swap.set({
      ...IDLE_SWAP,
      tokens: [
        {
          address: NATIVE_TOKEN_ADDRESS,
          symbol: nativeCurrency.symbol,
          name: nativeCurrency.name,
          decimals: nativeCurrency.decimals,
          price: list.native.price,
          imageId: nativeCurrency.symbol,
        },
        ...list.tokens,
      ],
    })
  } catch (error) {
    const base = toBaseError(error)
    if (base.name === 'SwapsNetworkNotSupportedError') return unsupported(base)
    config.$swap.set({
      ...IDLE_SWAP,
      status: 'error',
      error: summarizeError(base),
    })
  }
  return config.$swap.get()
}
