import { useEffect, useState } from 'react'
import {
  balanceKey,
  disconnect,
  fetchBalance,
  formatBalance,
  loadNetworks,
  navigate,
  shortAddress,
} from '../../core/index.ts'
import { Avatar } from '../components/Avatar.tsx'
import { CopyIcon } from '../components/Icons.tsx'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'

/** Account: address (copy), balance and tokens, Send, network and Disconnect. */
export default function AccountView({ config }: ViewProps) {
  const account = useStore(config.$account)
  const network = useStore(config.$network)
  const balances = useStore(config.$balances)
  const options = useStore(config.$options)
  const [copied, setCopied] = useState(false)

  useEffect(() => {
    void loadNetworks(config).then(() => fetchBalance(config))
  }, [config])

  if (!account) return null
  const balance = network ? balances[balanceKey(network.caipNetworkId, account.address)] : undefined

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(account.address)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {
      // Clipboard blocked: the full address is still selectable in the title.
    }
  }

  return (
    <>
      <div className="account" part="account">
        <Avatar address={account.address} />
        <div className="address-row">
          <span title={account.address} data-address={account.address}>
            {shortAddress(account.address)}
          </span>
          <button
            type="button"
            className="icon-button"
            part="copy-button"
            aria-label={en.copyAddress}
            onClick={() => void copy()}
          >
            <CopyIcon />
          </button>
        </div>
        <div className="balance-text" part="balance">
          <span className="visually-hidden">{en.balance}: </span>
          {balance?.value !== undefined
            ? `${formatBalance(balance.value, balance.decimals)} ${balance.symbol}`
            : balance?.status === 'error'
              ? en.balanceUnavailable
              : '…'}
        </div>
        <div className="status" role="status" aria-live="polite">
          {copied ? en.copied : ''}
        </div>
      </div>
      {balance && balance.tokens.length > 0 ? (
        <section aria-labelledby="tokens-title">
          <h3 className="section-title" id="tokens-title">
            {en.tokens}
          </h3>
          <ul className="tokens" part="token-list">
            {balance.tokens.map((token) => (
              <li key={token.address} data-token={token.address}>
                <span className="symbol" title={token.name}>
                  {token.symbol}
                </span>
                <span>{formatBalance(token.amount, token.decimals)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="actions">
        {options.features.send && network?.supported ? (
          <button
            type="button"
            className="primary"
            part="send-button"
            onClick={() => navigate(config, 'WalletSend')}
          >
            {en.send}
          </button>
        ) : null}
        <button
          type="button"
          className="item"
          part="network-button"
          autoFocus
          onClick={() => navigate(config, 'Networks')}
        >
          <span className="name">
            {network?.network?.name ?? en.unknownNetwork(network?.caipNetworkId ?? '')}
          </span>
          <span className="badge">{en.network}</span>
        </button>
        <button
          type="button"
          className="secondary danger"
          part="disconnect-button"
          onClick={() => void disconnect(config)}
        >
          {en.disconnect}
        </button>
      </div>
    </>
  )
}
