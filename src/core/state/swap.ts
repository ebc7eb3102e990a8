import type { ErrorSummary } from '../../errors/base.ts'
import type { SwapQuote } from '../../protocol/api/blockchain.ts'

/** A token the Swap view offers: the native currency (`native`) or one of the network's token list. */
export interface SwapToken {
  address: string
  symbol: string
  name: string
  decimals: number
  price: number | null
  imageId?: string | undefined
}

/** The Swap view's state (SPEC: quotes, allowance, gas price, build approve and transaction). */
export interface SwapState {
  status:
    | 'idle'
    | 'loading'
    | 'unsupported'
    | 'quoting'
    | 'quoted'
    | 'approving'
    | 'swapping'
    | 'swapped'
    | 'error'
  /** The network's swappable tokens, the native currency first. */
  tokens: readonly SwapToken[]
  /** What the quote is for: token addresses (`native` for the native currency) and the amount as typed. */
  request?: { from: string; to: string; amount: string } | undefined
  quote?: SwapQuote | undefined
  /** Gas price × the quote's gas, in wei; undefined while unknown. */
  networkFee?: bigint | undefined
  /** Why the network fee is unknown (`Network not supported for Gas Price`). */
  feeError?: ErrorSummary | undefined
  /** The ERC-20 sold must be approved for the quote's spender before the swap. */
  needsApproval?: boolean | undefined
  /** Base units of the bought token the swap gave, once done. */
  received?: bigint | undefined
  hash?: string | undefined
  error?: ErrorSummary | undefined
  /**
   * What the person chose and typed (tokens, amount as typed): kept here, not in the view, so the
   * form is still there when the wallet's approval view gives the screen back.
   */
  form?: SwapForm | undefined
  /** What the swap in progress (or done) sells, as shown (`0.1 ETH`), for its result. */
  paid?: string | undefined
}

/** The Swap view's form: token addresses (`native` for the native currency) and the amount as typed. */
export interface SwapForm {
  from: string
  to: string
  amount: string
}

/** The Swap view before loading its tokens. */
export const IDLE_SWAP: SwapState = { status: 'idle', tokens: [] }
