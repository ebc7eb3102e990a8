import type { CatalogueEntry } from '../../protocol/api/catalogue.ts'
import type { Config } from '../config.ts'
import { watchAppLaunch } from '../pairing/launch.ts'
import { isPairingExpired } from '../pairing/rules.ts'
import { navigate } from './navigate.ts'
import { startPairing } from './startPairing.ts'

export interface OpenWalletAppReturnType {
  /** Whether the link may be followed: its URI is the pairing's current one, not expired. */
  follow: boolean
}

/**
 * What the tap on a phone's wallet row (a link to the app carrying the pairing URI) does besides opening
 * the app: the pairing made ahead is used for this wallet (remembered among recent wallets when it
 * connects), the modal moves to ConnectingWalletConnect for it (coming back shows the pairing waiting,
 * or connected), and whether the app opened is followed (`$pairing.launch`). Runs inside the tap, so
 * nothing here waits. `href` is the link the row carried: when it is not the current pairing's (the
 * pairing was replaced or expired meanwhile), the link must not be followed and the view offers the
 * fresh one.
 *
 * @example
 * anchor.onclick = (event) => { if (!openWalletApp(config, entry, anchor.href).follow) event.preventDefault() }
 */
export function openWalletApp(
  config: Config,
  entry: CatalogueEntry,
  href: string | undefined,
): OpenWalletAppReturnType {
  void startPairing(config, { wallet: { id: entry.id, name: entry.name } })
  navigate(config, 'ConnectingWalletConnect', { wallet: entry })
  const pairing = config.$pairing.get()
  const current =
    href !== undefined &&
    pairing.status === 'waiting' &&
    pairing.uri !== undefined &&
    href.includes(encodeURIComponent(pairing.uri)) &&
    !isPairingExpired(pairing.createdAt, config.platform.now())
  if (current) watchAppLaunch(config, entry.id)
  return { follow: current }
}
