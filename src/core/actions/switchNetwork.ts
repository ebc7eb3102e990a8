import type { AddNetworkParameters } from '../../connectors/types.ts'
import { NetworkNotFoundError, ProviderDisconnectedError } from '../../errors/index.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Network } from '../../protocol/entities.ts'
import type { Config } from '../config.ts'
import { recordOf, rememberChain, step } from '../connection/records.ts'
import { loadNetworks } from './loadNetworks.ts'
import { reportError } from './reportError.ts'

const toAddParameters = (network: Network): AddNetworkParameters => ({
  caipNetworkId: network.caipNetworkId,
  name: network.name,
  nativeCurrency: network.nativeCurrency,
  rpcUrls: network.rpcUrls.default.http,
  blockExplorerUrls: network.blockExplorers ? [network.blockExplorers.default.url] : [],
})

/**
 * Switches to a network of the `networks` list: asks the connected wallet (which adds the chain
 * when it does not know it), or, when disconnected, selects it for the next connection. A network
 * of another namespace becomes the active one: already connected, connected through the same
 * wallet when it serves both, or selected for the next connection.
 *
 * @example
 * await switchNetwork(config, { caipNetworkId: 'eip155:8453' })
 */
export async function switchNetwork(
  config: Config,
  parameters: { caipNetworkId: CaipNetworkId },
): Promise<void> {
  const { caipNetworkId } = parameters
  const networks = await loadNetworks(config)
  const network = networks.find((candidate) => candidate.caipNetworkId === caipNetworkId)
  if (!network) throw reportError(config, new NetworkNotFoundError({ caipNetworkId }))
  const namespace = network.chainNamespace
  const record = recordOf(config, namespace)
  if (record.status === 'connected') {
    const connector = config.$connectors.get().find((candidate) => candidate.id === record.connectorId)
    // Without the wallet nothing can switch; reporting success would leave the page on the wrong chain.
    if (!connector) throw reportError(config, new ProviderDisconnectedError())
    try {
      await connector.switchNetwork({ namespace, network: toAddParameters(network) })
    } catch (error) {
      throw reportError(config, error)
    }
    // Most wallets also emit chainChanged; this covers the ones that don't (the event handler dedups).
    if (recordOf(config, namespace).chainId !== caipNetworkId) {
      step(config, namespace, { type: 'connected' }, { chainId: caipNetworkId })
      config.events.emit('network-change', { chainId: caipNetworkId, namespace, supported: true })
    }
    if (config.$activeNamespace.get() !== namespace) {
      config.$activeNamespace.set(namespace)
      config.events.emit('network-change', { chainId: caipNetworkId, namespace, supported: true })
    }
    // Balances and the view (Account instead of UnsupportedChain) follow the change (core/follow).
  } else {
    // Another ecosystem: the wallet connected now connects it too when it can (one prompt);
    // otherwise the network is selected and the next connection is for it.
    const active = recordOf(config, config.$activeNamespace.get())
    const connector =
      active.status === 'connected'
        ? config.$connectors.get().find((candidate) => candidate.id === active.connectorId)
        : undefined
    config.$selectedNetworkId.set(caipNetworkId)
    if (connector?.namespaces.includes(namespace)) {
      const { connect } = await import('./connect.ts')
      await connect(config, { connector, namespace, keepOpen: true })
    } else {
      config.$activeNamespace.set(namespace)
    }
    config.events.emit('network-change', { chainId: caipNetworkId, namespace, supported: true })
  }
  rememberChain(config, caipNetworkId)
}
