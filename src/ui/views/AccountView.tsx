import { useEffect, useState } from 'react'
import {
  balanceKey,
  disconnect,
  fetchBalance,
  loadNetworks,
  navigate,
  shortAddress,
} from '../../core/index.ts'
import { Avatar } from '../components/Avatar.tsx'
import { CopyIcon } from '../components/Icons.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { useStore } from '../hooks/useStore.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'

/** Account: address (copy), balance and tokens, Send, network and Disconnect. */
export default function AccountView({ config }: ViewProps) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
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
          <bdi title={account.address} data-address={account.address}>
            {shortAddress(account.address)}
          </bdi>
          <button
            type="button"
            className="icon-button"
            part="copy-button"
            aria-label={t('copyAddress')}
            onClick={() => void copy()}
          >
            <CopyIcon />
          </button>
        </div>
        <div className="balance-text" part="balance">
          <span className="visually-hidden">{t('balance')}: </span>
          {balance?.value !== undefined ? (
            <bdi>
              {strings.balance(balance.value, balance.decimals)} {balance.symbol}
            </bdi>
          ) : balance?.status !== 'error' ? (
            '…'
          ) : null}
        </div>
        <div className="live" role="alert">
          {balance?.value === undefined && balance?.status === 'error' ? (
            <ErrorMessage>{t('error.TokenBalanceUnavailableError')}</ErrorMessage>
          ) : null}
        </div>
        <div className="status" role="status">
          {copied ? t('addressCopied') : ''}
        </div>
      </div>
      {balance && balance.tokens.length > 0 ? (
        <section aria-labelledby="tokens-title">
          <h3 className="section-title" id="tokens-title">
            {t('tokens')}
          </h3>
          <ul className="tokens" part="token-list">
            {balance.tokens.map((token) => (
              <li key={token.address} data-token={token.address}>
                <bdi className="symbol" title={token.name}>
                  {token.symbol}
                </bdi>
                <bdi>{strings.balance(token.amount, token.decimals)}</bdi>
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
            {t('send')}
          </button>
        ) : null}
        <button
          type="button"
          className="item"
          part="network-button"
          autoFocus={autoFocus}
          onClick={() => navigate(config, 'Networks')}
        >
          <span className="name">
            {network?.network?.name ?? t('unknownNetwork', { id: network?.caipNetworkId ?? '' })}
          </span>
          <span className="badge">{t('network')}</span>
        </button>
        <button
          type="button"
          className="secondary danger"
          part="disconnect-button"
          onClick={() => void disconnect(config)}
        >
          {t('disconnect')}
        </button>
      </div>
    </>
  )
}
