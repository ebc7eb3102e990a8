import { isSafeWalletLink } from '../../protocol/api/catalogue.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'

export const EIP155_METHODS = [
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
] as const
export const EIP155_EVENTS = ['accountsChanged', 'chainChanged'] as const
export const SOLANA_METHODS = [
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAndSendTransaction',
] as const

export interface SessionNamespace {
  chains: string[]
  methods: string[]
  events: string[]
  rpcMap?: Record<string, string>
}

/**
 * The namespaces a session asks for, built from the configured networks: eip155 with the signing
 * and chain methods and the account/chain events, solana with its signing methods, each with the
 * chains and an rpcMap (chain reference -> RPC URL, the service's proxy when configured).
 *
 * @example
 * buildNamespaces(['eip155:1', 'eip155:8453'], (id) => proxyUrl(id))
 */
export function buildNamespaces(
  networks: readonly CaipNetworkId[],
  rpcUrl: (id: CaipNetworkId) => string | undefined,
): Record<string, SessionNamespace> {
  const namespaces: Record<string, SessionNamespace> = {}
  for (const id of networks) {
    const [namespace, reference] = id.split(':') as [string, string]
    if (namespace !== 'eip155' && namespace !== 'solana') continue
    let entry = namespaces[namespace]
    if (!entry) {
      entry = {
        chains: [],
        methods: [...(namespace === 'eip155' ? EIP155_METHODS : SOLANA_METHODS)],
        events: namespace === 'eip155' ? [...EIP155_EVENTS] : [],
        rpcMap: {},
      }
      namespaces[namespace] = entry
    }
    entry.chains.push(id)
    const url = rpcUrl(id)
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
