import type { ViewProps } from '../modal/viewProps.ts'
import { PairingPanel } from './PairingPanel.tsx'

/** ConnectingWalletConnectBasic: a generic QR code any WalletConnect wallet can scan. */
export default function ConnectingWalletConnectBasicView({ config }: ViewProps) {
  return <PairingPanel config={config} wallet={undefined} />
}
