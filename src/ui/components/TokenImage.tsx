import { useState } from 'react'

/**
 * A token's icon from the companion service (`/public/getTokenImage/{id}`); without one, or when it
 * fails, the symbol's first letter in a circle. Decorative: the symbol is written beside it.
 *
 * @example
 * <TokenImage src={tokenImageUrl(config, 'USDC')} symbol="USDC" />
 */
export function TokenImage({ src, symbol }: { src: string | undefined; symbol: string }) {
  const [failed, setFailed] = useState(false)
  if (!src || failed) {
    return (
      <span className="token-icon placeholder" aria-hidden="true">
        {symbol.slice(0, 1)}
      </span>
    )
  }
  return (
    <img
      className="token-icon"
      src={src}
      alt=""
      width={32}
      height={32}
      decoding="async"
      onError={() => setFailed(true)}
    />
  )
}
