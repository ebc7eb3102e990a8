import type { Connector } from '../../connectors/types.ts'
import { navigate } from '../../core/actions/navigate.ts'
import { WalletIcon } from '../components/Icons.tsx'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'

/** Connect: choose a way to connect. Lists the browser wallets found on the page. */
export default function ConnectView({ config }: ViewProps) {
  const connectors = useStore(config.$connectors)

  const choose = (connector: Connector) => {
    navigate(config, 'ConnectingExternal', { connectorId: connector.id })
    // The connection code loads on first use, keeping it out of the modal's first paint.
    void import('../../core/actions/connect.ts')
      .then(({ connect }) => connect(config, { connector }))
      .catch(() => {
        // The view shows the rejection or the wallet's error from $connecting.
      })
  }

  return (
    <section aria-label={en.browserWallets}>
      <h3 className="section-title">{en.browserWallets}</h3>
      {connectors.length === 0 ? (
        <div className="empty" role="status">
          <strong>{en.noBrowserWallets}</strong>
          {en.noBrowserWalletsHint}
        </div>
      ) : (
        <ul className="list" part="wallet-list">
          {connectors.map((connector, index) => (
            <li key={connector.id}>
              <button
                type="button"
                className="item"
                part="wallet-item"
                data-connector-id={connector.id}
                autoFocus={index === 0}
                onClick={() => choose(connector)}
              >
                {connector.icon ? <img src={connector.icon} alt="" width={40} height={40} /> : <WalletIcon />}
                <span className="name">{connector.name}</span>
                {connector.type === 'injected' ? <span className="badge">{en.installed}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
