import type { WalletConnectConnector } from '../connectors/walletconnect/connector.ts'
import type { ModalOptions } from '../protocol/config.ts'
import { loadNetworks } from './actions/loadNetworks.ts'
import type { Config } from './config.ts'
import { rpcUrlFor } from './rpcUrl.ts'

export { walletLink } from '../connectors/walletconnect/namespaces.ts'

/** WalletConnect's public relay: the default, which needs a WalletConnect project id. */
export const DEFAULT_RELAY_URL = 'wss://relay.walletconnect.org'

/**
 * Whether `relayUrl` is one of WalletConnect's own relays (`relay.walletconnect.org` or `.com`), whose
 * projects WalletConnect's Verify service knows.
 *
 * @example
 * isWalletConnectRelay('wss://relay.walletconnect.org') // true
 * isWalletConnectRelay('ws://127.0.0.1:8789') // false: the dev relay
 */
export function isWalletConnectRelay(relayUrl: string): boolean {
  return /^wss:\/\/relay\.walletconnect\.(org|com)(?:[/?]|$)/i.test(relayUrl)
}

/**
 * The project id the sign-client gives the relay (the `projectId` of its connection URL): the
 * WalletConnect Cloud project (`walletconnect-project-id`) when given, otherwise the companion
 * service's project (`project-id`, which a self-hosted relay such as the dev relay takes as it is),
 * otherwise empty (WalletConnect's public relay refuses it).
 *
 * @example
 * relayProjectId({ ...options, projectId: 'dev-project', walletConnectProjectId: '3f2a…' }) // '3f2a…'
 * relayProjectId({ ...options, projectId: 'dev-project', walletConnectProjectId: undefined }) // 'dev-project'
 */
export function relayProjectId(options: Pick<ModalOptions, 'projectId' | 'walletConnectProjectId'>): string {
  return options.walletConnectProjectId ?? options.projectId ?? ''
}

/**
 * The config's WalletConnect connector, created (and its client loaded) on first use and added to
 * `$connectors`, so reconnecting on reload finds it like any other. The relay and its project id
 * are the options' at that moment (see `relayProjectId`); WalletConnect's Verify attestation is asked
 * for on WalletConnect's own relays only (`isWalletConnectRelay`).
 *
 * @example
 * const connector = await walletConnectConnector(config)
 */
export function walletConnectConnector(config: Config): Promise<WalletConnectConnector> {
  config.internal.walletConnect ??= (async () => {
    await loadNetworks(config).catch(() => {})
    const [{ createWalletConnectConnector }, { buildNamespaces }] = await Promise.all([
      import('../connectors/walletconnect/connector.ts'),
      import('../connectors/walletconnect/namespaces.ts'),
    ])
    const win = config.platform.window
    const relayUrl = config.$options.get().relayUrl ?? DEFAULT_RELAY_URL
    const connector = createWalletConnectConnector({
      projectId: relayProjectId(config.$options.get()),
      relayUrl,
      verify: isWalletConnectRelay(relayUrl),
      metadata: {
        name: win?.document.title || win?.location.host || 'wallet-elements',
        description: win?.location.host ?? '',
        url: win?.location.origin ?? 'http://localhost',
        icons: [],
      },
      namespaces: () => buildNamespaces(config.$options.get().networks, (id) => rpcUrlFor(config, id)),
      rpcUrl: (id) => rpcUrlFor(config, id),
      fetch: config.platform.fetch,
      window: win,
    })
    config.internal.connectorsExtra.set([...config.internal.connectorsExtra.get(), connector])
    return connector
  })()
  return config.internal.walletConnect
}
