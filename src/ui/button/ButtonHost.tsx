import { useEffect, useState } from 'react'
import { open } from '../../core/actions/open.ts'
import { balanceKey } from '../../core/balanceKey.ts'
import type { Config } from '../../core/createConfig.ts'
import { signInPending } from '../../core/siwx/gate.ts'
import { formatBalance, shortAddress } from '../../shared/format.ts'
import { buttonStrings } from '../../shared/locales/button.ts'
import { Avatar } from '../components/Avatar.tsx'
import { useModule } from '../hooks/useModule.ts'
import { useStore } from '../hooks/useStore.ts'
import { findModalConfig, MODAL_READY_EVENT } from '../host.ts'
import { messageLoaders, useLocale } from '../i18n/locales.ts'
import { preloadModal } from '../modal/ModalHost.tsx'
import { buttonStyles } from '../theme/buttonStyles.ts'

export interface ButtonHostProps {
  container?: HTMLElement
  label?: string
  size?: string
  balance?: string
  namespace?: string
}

function useDocumentConfig(container: HTMLElement | undefined): Config | undefined {
  const doc = container?.ownerDocument
  const [config, setConfig] = useState(() => (doc ? findModalConfig(doc) : undefined))
  useEffect(() => {
    if (!doc || config) return
    const onReady = () => setConfig(findModalConfig(doc))
    doc.addEventListener(MODAL_READY_EVENT, onReady)
    onReady()
    return () => doc.removeEventListener(MODAL_READY_EVENT, onReady)
  }, [doc, config])
  return config
}

/** The `<wallet-button>` view: "Connect Wallet", then the short address and balance. */
export function ButtonHost({ container, label, size, balance, namespace }: ButtonHostProps) {
  const config = useDocumentConfig(container)
  return (
    <>
      <style>{buttonStyles}</style>
      {config ? (
        <ConnectedButton
          config={config}
          label={label}
          size={size}
          showBalance={balance !== 'hide'}
          namespace={namespace}
        />
      ) : (
        <div className="root">
          <Waiting size={size} label={label} />
        </div>
      )}
    </>
  )
}

/**
 * The button before its words are known: until the modal is found (the same task, usually), or while
 * a language other than English loads its catalogue.
 */
function Waiting({ size, label }: { size: string | undefined; label: string | undefined }) {
  return (
    <button type="button" className="button" part="button" data-size={size} disabled aria-busy="true">
      <span>{label}</span>
    </button>
  )
}

function ConnectedButton(props: {
  config: Config
  label: string | undefined
  size: string | undefined
  showBalance: boolean
  namespace: string | undefined
}) {
  const { config } = props
  const active = useStore(config.$account)
  const connections = useStore(config.$connections)
  const activeStatus = useStore(config.$status)
  const theme = useStore(config.$theme)
  const options = useStore(config.$options)
  const network = useStore(config.$network)
  const balances = useStore(config.$balances)
  const session = useStore(config.$session)
  const profiles = useStore(config.$profiles)
  const expanded = useStore(config.$modal).open && !options.inline
  // English is built in; another language shows its catalogue's words once they are in.
  const locale = useLocale(config)
  const messages = useModule(locale === 'en' ? undefined : messageLoaders[locale])
  const words = locale === 'en' ? buttonStrings : messages
  // `namespace` pins the button to one namespace's account; otherwise it follows the active one.
  const pinned = props.namespace ? connections[props.namespace as keyof typeof connections] : undefined
  const pinnedAddress = pinned?.status === 'connected' ? pinned.accounts[0] : undefined
  // With sign-in required, an account without a session does not count as connected yet.
  const shown = signInPending(options.siwx, active, session) ? undefined : active
  const account = props.namespace ? (pinnedAddress ? { address: pinnedAddress } : undefined) : shown
  const chainId = props.namespace ? pinned?.chainId : network?.caipNetworkId
  const status = props.namespace ? (pinned?.status ?? 'disconnected') : activeStatus
  const balance = account && chainId ? balances[balanceKey(chainId, account.address)] : undefined
  const busy = status === 'connecting' || status === 'reconnecting'
  // The account's registered name (fetched with its balance), shown in place of the address.
  const profile = account && profiles[account.address]
  const name = profile?.name
  const common = {
    type: 'button',
    className: 'button',
    part: 'button',
    'data-size': props.size,
    'aria-haspopup': 'dialog',
    'aria-expanded': expanded,
    onPointerEnter: () => preloadModal(config),
    onFocus: () => preloadModal(config),
    onClick: () => void open(config),
  } as const

  return (
    <div
      className="root"
      data-theme={theme}
      lang={locale}
      style={
        options.accent ? { ['--_accent' as string]: `var(--wallet-accent, ${options.accent})` } : undefined
      }
    >
      {!words ? (
        <Waiting size={props.size} label={props.label} />
      ) : account ? (
        // The accessible name starts with the visible text (WCAG 2.5.3): address, balance, then "Account".
        <button {...common} data-connected="">
          <Avatar address={account.address} image={profile?.avatar} />
          <span part="address">
            <bdi>{name ?? shortAddress(account.address)}</bdi>
          </span>
          {props.showBalance && balance?.value !== undefined ? (
            <span className="balance" part="balance">
              <bdi>
                {formatBalance(balance.value, balance.decimals, { locale })} {balance.symbol}
              </bdi>
            </span>
          ) : null}
          <span className="visually-hidden">, {words.account}</span>
        </button>
      ) : (
        <button {...common} aria-busy={busy}>
          {busy ? <span className="spinner" aria-hidden="true" /> : null}
          <span>{busy ? words.connecting : props.label || words.connectWallet}</span>
        </button>
      )}
    </div>
  )
}
