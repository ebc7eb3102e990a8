import { NetworkNotFoundError, ValidationError } from '../../errors/index.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Network } from '../../protocol/entities.ts'
import { NetworkSchema } from '../../protocol/entities.ts'
import type { Config } from '../config.ts'
import { reportError } from './reportError.ts'

/** The data-only network modules of the namespaces reached over WalletConnect only, loaded when listed. */
const walletConnectOnly: Record<string, () => Promise<(id: CaipNetworkId) => Network | undefined>> = {
  polkadot: () => import('../../chains/polkadot/networks.ts').then((module) => module.resolvePolkadotNetwork),
  cosmos: () => import('../../chains/cosmos/networks.ts').then((module) => module.resolveCosmosNetwork),
}

/**
 * Resolves the definitions of the configured networks (custom ones first, then the chain
 * modules, loaded on demand: for EVM only the parts of the network table that hold them), applies
 * RPC overrides and fills `$networks`. Ids that resolve to nothing are reported as
 * `Network Not Found` and left out.
 *
 * @example
 * const networks = await loadNetworks(config)
 */
export function loadNetworks(config: Config): Promise<readonly Network[]> {
  config.internal.networksLoad ??= (async () => {
    const options = config.$options.get()
    const eip155Ids = options.networks.filter(
      (id) => id.startsWith('eip155:') && !options.customNetworks.some((n) => n.caipNetworkId === id),
    )
    const needsSolana = options.networks.some((id) => id.startsWith('solana:'))
    const others = new Map<string, (id: CaipNetworkId) => Network | undefined>()
    const needsBitcoin = options.networks.some((id) => id.startsWith('bip122:'))
    const [eip155, solana, bitcoin] = await Promise.all([
      eip155Ids.length > 0
        ? import('../../chains/eip155/networks.ts').then((module) => module.resolveEip155Networks(eip155Ids))
        : undefined,
      needsSolana ? import('../../chains/solana/networks.ts') : undefined,
      needsBitcoin ? import('../../chains/bip122/networks.ts') : undefined,
      ...Object.entries(walletConnectOnly)
        .filter(([namespace]) => options.networks.some((id) => id.startsWith(`${namespace}:`)))
        .map(([namespace, load]) => load().then((resolve) => others.set(namespace, resolve))),
    ])
    const networks: Network[] = []
    const custom: Network[] = []
    for (const candidate of options.customNetworks) {
      const parsed = NetworkSchema.safeParse(candidate)
      if (parsed.success) custom.push(parsed.data)
      else reportError(config, new ValidationError(parsed.error.issues[0]?.message ?? 'Invalid network'))
    }
    for (const id of options.networks) {
      const network =
        custom.find((candidate) => candidate.caipNetworkId === id) ??
        eip155?.get(id) ??
        (id.startsWith('solana:') ? solana?.resolveSolanaNetwork(id) : undefined) ??
        (id.startsWith('bip122:') ? bitcoin?.resolveBitcoinNetwork(id) : undefined) ??
        others.get(id.split(':')[0] ?? '')?.(id)
      if (!network) {
        reportError(config, new NetworkNotFoundError({ caipNetworkId: id }))
        continue
      }
      const rpc = options.rpcUrls[id]
      networks.push(
        rpc ? { ...network, rpcUrls: { ...network.rpcUrls, default: { http: [...rpc] } } } : network,
      )
    }
    config.$networks.set(networks)
    return networks
  })()
  return config.internal.networksLoad
}
