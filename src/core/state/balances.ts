/** A token held besides the native currency (an ERC-20 on EVM, an SPL token on Solana). */
export interface TokenHolding {
  /** The token's mint (Solana) or contract (EVM) address. */
  address: string
  symbol: string
  name: string
  decimals: number
  /** Base units. */
  amount: bigint
  /** US dollars per whole token, from the companion service; null when it has no price. */
  price: number | null
  /** For `/public/getTokenImage/{imageId}` of the companion service. */
  imageId?: string | undefined
}

export interface BalanceState {
  status: 'loading' | 'ready' | 'error'
  /** The native currency, in base units. */
  value: bigint | undefined
  decimals: number
  symbol: string
  /** US dollars per whole native coin; null when the companion service has no price. */
  nativePrice: number | null
  tokens: readonly TokenHolding[]
  fetchedAt: number
}
