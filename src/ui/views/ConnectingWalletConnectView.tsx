import { useMemo } from 'react'
import { walletImageUrl } from '../../core/walletImageUrl.ts'
import type { CatalogueEntry } from '../../protocol/api/catalogue.ts'
import { useStore } from '../hooks/useStore.ts'
import type { ViewProps } from '../modal/viewProps.ts'
import type { PairingWallet } from './PairingPanel.tsx'
import { PairingPanel } from './PairingPanel.tsx'

/** ConnectingWalletConnect: pairing with a chosen catalogue wallet (its logo in the QR code). */
export default function ConnectingWalletConnectView({ config }: ViewProps) {
  const modal = useStore(config.$modal)
  const entry = modal.router.data?.wallet as CatalogueEntry | undefined
  const wallet = useMemo<PairingWallet | undefined>(
    () =>
      entry && {
        id: entry.id,
        name: entry.name,
        logo: walletImageUrl(config, entry.image_id),
        mobile_link: entry.mobile_link,
        desktop_link: entry.desktop_link,
        webapp_link: entry.webapp_link,
        app_store: entry.app_store,
        play_store: entry.play_store,
      },
    [config, entry],
  )
  return <PairingPanel config={config} wallet={wallet} />
}
