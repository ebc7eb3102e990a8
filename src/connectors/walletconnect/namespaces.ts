import { isSafeWalletLink } from '../../protocol/api/catalogue.ts'
import type { CaipNetworkId, ChainNamespace } from '../../protocol/caip.ts'

/**
 * What a session asks for in each chain namespace the modal serves over WalletConnect, one record
 * per namespace: the request methods and events (WalletConnect's names for the namespace), and
 * whether the proposal carries an rpcMap (the namespaces whose reads go to RPC from here).
 */
export interface NamespaceRecord {
  methods: readonly string[]
  events: readonly string[]
  rpcMap: boolean
}

export const WALLETCONNECT_NAMESPACES = {
  eip155: {
    methods: [
      'personal_sign',
      'eth_signTypedData_v4',
      'eth_sendTransaction',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      // EIP-5792, asked for in the optional namespace: a wallet that lacks them leaves them out and the
      // page sends one transaction after another (core/evm/callsFallback.ts).
      'wallet_sendCalls',
      'wallet_getCallsStatus',
      'wallet_getCapabilities',
      'wallet_showCallsStatus',
    ],
    events: ['accountsChanged', 'chainChanged'],
    rpcMap: true,
  },
  solana: {
    methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction'],
    events: [],
    rpcMap: true,
  },
  // Bitcoin: WalletConnect's bip122 methods; the wallet reports a new address set with the event.
  bip122: {
    methods: ['getAccountAddresses', 'signMessage', 'sendTransfer', 'signPsbt'],
    events: ['bip122_addressesChanged'],
    rpcMap: false,
  },
  polkadot: {
    methods: ['polkadot_signTransaction', 'polkadot_signMessage'],
    events: [],
    rpcMap: false,
  },
  cosmos: {
    methods: ['cosmos_getAccounts', 'cosmos_signDirect', 'cosmos_signAmino'],
    events: [],
    rpcMap: false,
  },
} as const satisfies Record<ChainNamespace, NamespaceRecord>

/** The namespace's record, or undefined for one the modal does not serve over WalletConnect. */
export function namespaceRecord(namespace: string): NamespaceRecord | undefined {
  return Object.hasOwn(WALLETCONNECT_NAMESPACES, namespace)
    ? WALLETCONNECT_NAMESPACES[namespace as ChainNamespace]
    : undefined
}

export interface SessionNamespace {
  chains: string[]
  methods: string[]
  events: string[]
  rpcMap?: Record<string, string>
}

/**
 * The namespaces a session asks for, built from the configured networks: for each namespace with a
 * record in {@link WALLETCONNECT_NAMESPACES} (eip155, solana, bip122, polkadot, cosmos), its chains,
 * methods and events, and for eip155 and solana an rpcMap (chain reference -> RPC URL, the service's
 * proxy when configured). Networks of other namespaces are left out.
 *
 * @example
 * buildNamespaces(['eip155:1', 'cosmos:cosmoshub-4'], (id) => proxyUrl(id))
 * // { eip155: { chains: ['eip155:1'], …, rpcMap: { 1: '…' } }, cosmos: { chains: ['cosmos:cosmoshub-4'], methods: ['cosmos_getAccounts', …], events: [] } }
 */
export function buildNamespaces(
  networks: readonly CaipNetworkId[],
  rpcUrl: (id: CaipNetworkId) => string | undefined,
): Record<string, SessionNamespace> {
  const namespaces: Record<string, SessionNamespace> = {}
  for (const id of networks) {
    const [namespace, reference] = id.split(':') as [string, string]
    const record = namespaceRecord(namespace)
    if (!record) continue
    let entry = namespaces[namespace]
    if (!entry) {
      entry = {
        chains: [],
        methods: [...record.methods],
        events: [...record.events],
        ...(record.rpcMap ? { rpcMap: {} } : {}),
      }
      namespaces[namespace] = entry
    }
    entry.chains.push(id)
    const url = entry.rpcMap ? rpcUrl(id) : undefined
    if (url && entry.rpcMap) entry.rpcMap[reference] = url
  }
  return namespaces
}

/**
 * A wallet's deep link for a pairing URI: universal links (https) get `/wc?uri=…`, native schemes
 * (`rainbow:`, `trust://`) get `scheme://wc?uri=…`; the URI is percent-encoded either way. Undefined for
 * a link the modal must not open (`javascript:`, `data:`, `http:`, …).
 *
 * @example
 * walletLink('rainbow:', 'wc:abc@2?relay-protocol=irn') // 'rainbow://wc?uri=wc%3Aabc%402%3Frelay-protocol%3Dirn'
 * walletLink('javascript:alert(1)//', 'wc:abc@2') // undefined
 */
export function walletLink(link: string, uri: string): string | undefined {
  if (!isSafeWalletLink('mobile_link', link)) return undefined
  const encoded = encodeURIComponent(uri)
  if (/^https?:\/\//i.test(link)) return `${link.replace(/\/+$/, '')}/wc?uri=${encoded}`
  let scheme = link.includes('://') ? link : `${link.replace(/:+$/, '')}://`
  if (!scheme.endsWith('/')) scheme += '/'
  return `${scheme}wc?uri=${encoded}`
}
