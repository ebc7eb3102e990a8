'use client'
// The elements in a client component: registering them is one import, and it runs in the browser.
import type { WalletModalElement } from 'wallet-elements'
import type {} from 'wallet-elements/react'
import 'wallet-elements/elements'
import { useEffect, useRef, useState } from 'react'

type WalletProps = { projectId: string; apiUrl: string; relayUrl: string; frameUrl: string }

export function Wallet({ projectId, apiUrl, relayUrl, frameUrl }: WalletProps) {
  const [address, setAddress] = useState('')
  const modal = useRef<WalletModalElement>(null)
  // React 19 attaches `onwallet-connect={...}` (and sets `config={...}`) on an element it hydrates only
  // after a later render (react/react#35446): a server-rendered page listens itself.
  useEffect(() => {
    const element = modal.current
    const onConnect = (event: GlobalEventHandlersEventMap['wallet-connect']) =>
      setAddress(event.detail.address)
    element?.addEventListener('wallet-connect', onConnect)
    return () => element?.removeEventListener('wallet-connect', onConnect)
  }, [])
  return (
    <>
      <wallet-modal
        ref={modal}
        networks="eip155:31337,eip155:31338"
        project-id={projectId}
        api-url={apiUrl}
        relay-url={relayUrl}
        frame-url={frameUrl}
      />
      <wallet-button />
      <output aria-label="Connected address">{address}</output>
    </>
  )
}
