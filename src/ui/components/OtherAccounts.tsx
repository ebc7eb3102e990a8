import { shortAddress } from '../../core/index.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/**
 * The accounts of the other connected namespaces on Account (a WalletConnect session that approved
 * polkadot and cosmos beside eip155, say): each with its network's name and its address (the full
 * one in the title). Nothing when only the namespace shown is connected.
 */
export function OtherAccounts({ config }: ViewProps) {
  const { t } = useStrings()
  const connections = useStore(config.$connections)
  const active = useStore(config.$activeNamespace)
  const networks = useStore(config.$networks)
  const others = (Object.keys(connections) as ChainNamespace[]).flatMap((namespace) => {
    const record = connections[namespace]
    const address = record?.accounts[0]
    if (namespace === active || record?.status !== 'connected' || !address || !record.chainId) return []
    const network = networks.find((candidate) => candidate.caipNetworkId === record.chainId)
    return [
      {
        namespace,
        address,
        networkName: network?.name ?? t('unknownNetwork', { id: record.chainId }),
      },
    ]
  })
  if (others.length === 0) return null
  return (
    <section aria-labelledby="other-accounts-title">
      <h3 className="section-title" id="other-accounts-title">
        {t('otherAccounts')}
      </h3>
      <ul className="tokens" part="other-accounts">
        {others.map((other) => (
          <li key={other.namespace} data-namespace={other.namespace}>
            <span className="token-name">
              <bdi className="symbol">{other.networkName}</bdi>
              <bdi className="amount" title={other.address} data-address={other.address}>
                {shortAddress(other.address)}
              </bdi>
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
