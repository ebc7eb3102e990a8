import type { ReactNode } from 'react'

/** One wallet in a list: logo, name (one line, ellipsis when long; the whole name on hover), a badge. */
export function WalletRow(props: {
  image: ReactNode
  name: string
  badge?: string | undefined
  id: string
  autoFocus?: boolean
  onSelect: () => void
}) {
  return (
    <button
      type="button"
      className="item"
      part="wallet-item"
      data-wallet-id={props.id}
      autoFocus={props.autoFocus}
      onClick={props.onSelect}
    >
      {props.image}
      <span className="name" title={props.name}>
        {props.name}
      </span>
      {props.badge ? <span className="badge">{props.badge}</span> : null}
    </button>
  )
}
