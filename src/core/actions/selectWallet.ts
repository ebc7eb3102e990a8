import type { Connector } from '../../connectors/types.ts'
import type { CatalogueEntry } from '../../protocol/api/catalogue.ts'
import type { Config } from '../config.ts'
import { navigate } from './navigate.ts'

/** The browser wallet that is this catalogue entry, matched by EIP-6963 rdns. */
export function installedConnector(config: Config, entry: CatalogueEntry): Connector | undefined {
  return entry.rdns ? config.$connectors.get().find((connector) => connector.rdns === entry.rdns) : undefined
}

/**
 * Acts on a wallet chosen in a list: a browser wallet (or a catalogue entry installed as one)
 * connects through its extension; any other catalogue wallet goes to pairing.
 *
 * @example
 * selectWallet(config, { connector })
 * selectWallet(config, { entry })
 */
export async function selectWallet(
  config: Config,
  parameters: { connector: Connector } | { entry: CatalogueEntry },
): Promise<void> {
  const connector =
    'connector' in parameters ? parameters.connector : installedConnector(config, parameters.entry)
  if (connector) {
    navigate(config, 'ConnectingExternal', { connectorId: connector.id })
    const { connect } = await import('./connect.ts')
    // The view shows a rejection or the wallet's error from $connecting.
    await connect(config, { connector }).catch(() => {})
    return
  }
  if ('entry' in parameters) navigate(config, 'ConnectingWalletConnect', { wallet: parameters.entry })
}
