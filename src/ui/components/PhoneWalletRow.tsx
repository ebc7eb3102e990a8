import { type KeyboardEvent, type MouseEvent, type ReactElement, type ReactNode, useEffect } from 'react'
import { openWalletApp } from '../../core/actions/openWalletApp.ts'
import { preparePairing } from '../../core/actions/preparePairing.ts'
import type { Config } from '../../core/createConfig.ts'
import { appLink, opensOnPhone } from '../../core/pairing/links.ts'
import { linkableUri, walletConnectConfigured } from '../../core/pairing/rules.ts'
import type { CatalogueEntry } from '../../protocol/api/catalogue.ts'
import { useStore } from '../hooks/useStore.ts'

export interface PhoneWalletRowProps {
  config: Config
  entry: CatalogueEntry
  /**
   * The plain row, a button to the QR code view (`WalletRow`): what a wallet a phone cannot open by a
   * link shows; the link takes its inside (logo, name, badge) and its focus.
   */
  button: ReactElement<{ children?: ReactNode; autoFocus?: boolean | undefined }>
}

/**
 * Makes the pairing the rows link to when the page is idle, soon after the view's first paint (a person
 * may tap within a second); iOS Safari has no `requestIdleCallback`, so there it is the task after the
 * next frame. Returns the cancel.
 */
function prepareWhenIdle(config: Config): () => void {
  const task = () => preparePairing(config)
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: 300 })
    return () => cancelIdleCallback(id)
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task)
  })
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

/**
 * A phone's catalogue wallet: a link to the wallet's app carrying the pairing made while the view is
 * open (its mobile link, `target="_self"`). Following it inside the tap is what opens the app: iOS
 * Safari opens an app only from a navigation the tap itself starts. The tap also moves the modal to
 * ConnectingWalletConnect for the wallet (`openWalletApp`). Until the URI exists the same element
 * acts as a button (`role="button"`, Enter and Space) and its tap shows that view, which offers the link
 * as soon as the URI exists; being the same element, it keeps focus when it becomes a link. A wallet a
 * phone cannot open by a link, or a page without WalletConnect, has a plain row.
 */
export default function PhoneWalletRow({ config, entry, button }: PhoneWalletRowProps) {
  const pairing = useStore(config.$pairing)
  const options = useStore(config.$options)
  // The pairing the links carry, made while the rows are shown (one, however many rows ask).
  useEffect(() => prepareWhenIdle(config), [config])
  if (!opensOnPhone(entry) || !walletConnectConfigured(options)) return button
  const uri = linkableUri(pairing, config.platform.now())
  const href = uri ? appLink(entry, uri, { isMobile: true }) : undefined
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // A link carrying an older URI (replaced or expired meanwhile) is not followed: the view has the fresh one.
    if (!openWalletApp(config, entry, href).follow) event.preventDefault()
  }
  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>) => {
    if (href || (event.key !== 'Enter' && event.key !== ' ')) return
    event.preventDefault()
    event.currentTarget.click()
  }
  return (
    <a
      className="item"
      part="wallet-item"
      data-wallet-id={entry.id}
      href={href}
      target={href ? '_self' : undefined}
      role={href ? undefined : 'button'}
      tabIndex={href ? undefined : 0}
      autoFocus={button.props.autoFocus}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      {button.props.children}
    </a>
  )
}
