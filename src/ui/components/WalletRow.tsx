import type { ReactNode } from 'react'
import type { Config } from '../../core/createConfig.ts'
import type { CatalogueEntry } from '../../protocol/api/catalogue.ts'
import { useModule } from '../hooks/useModule.ts'

// Phones only, a chunk of its own: a computer's rows never fetch it.
const loadPhoneRow = () => import('./PhoneWalletRow.tsx')

/**
 * One wallet in a list: logo, name (one line, ellipsis when long; the whole name on hover), a badge; a
 * button. With `catalogue` (the catalogue wallet it is), on a phone the row is a link to the wallet's
 * app carrying the pairing made while the list is shown (`PhoneWalletRow`).
 */
export function WalletRow(props: {
  image: ReactNode
  name: string
  badge?: string | undefined
  id: string
  autoFocus?: boolean
  onSelect: () => void
  catalogue?: { config: Config; entry: CatalogueEntry } | undefined
}) {
  const PhoneRow = useModule(props.catalogue?.config.platform.isMobile() ? loadPhoneRow : undefined)
  const button = (
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
  return PhoneRow && props.catalogue ? <PhoneRow {...props.catalogue} button={button} /> : button
}
