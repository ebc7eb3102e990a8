import { useEffect, useState } from 'react'
import { embeddedState } from '../../core/embeddedState.ts'
import {
  balanceKey,
  disconnect,
  fetchBalance,
  freshBalances,
  loadNetworks,
  navigate,
  resetSend,
  resetSwap,
  shortAddress,
  signOutEverywhere,
  tokenImageUrl,
  usdValue,
} from '../../core/index.ts'
import { AccountPasskeys } from '../components/AccountPasskeys.tsx'
import { AccountScope } from '../components/AccountScope.tsx'
import { AccountTypeSwitch } from '../components/AccountTypeSwitch.tsx'
import { Avatar } from '../components/Avatar.tsx'
import { EmbeddedScope } from '../components/EmbeddedScope.tsx'
import { FrameIdentity } from '../components/FrameIdentity.tsx'
import { CopyIcon } from '../components/Icons.tsx'
import { LeaveWallet } from '../components/LeaveWallet.tsx'
import { OtherAccounts } from '../components/OtherAccounts.tsx'
import { RecoveryNag } from '../components/RecoveryNag.tsx'
import { TokenImage } from '../components/TokenImage.tsx'
import { useModule } from '../hooks/useModule.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/** The Activity list: its own chunk with its own catalogue, fetched when Account shows. */
const loadActivity = () => import('../components/ActivityList.tsx')

/** The site's permissions (ERC-7715): its own chunk, fetched when Account shows the embedded wallet on an EVM network. */
const loadPermissionsList = () => import('../components/PermissionsList.tsx')

/**
 * Who is signed in to the embedded wallet on Account, in its words (inside `EmbeddedScope`), and the
 * update's notice. A Farcaster sign-in's username and picture (public) are the page's to show; the
 * e-mail only the wallet frame knows, and draws (with a social username when there is no e-mail,
 * which the page is never told either).
 */
function EmailRow({
  name,
  image,
  updated,
  frameStatus,
}: {
  name?: string | undefined
  image?: string
  updated: boolean
  frameStatus: string | undefined
}) {
  const { t } = useStrings()
  return (
    <>
      {name && image ? (
        <div className="identity" part="email">
          <span className="label">{t('signedInWith')}</span>
          {/* A Farcaster sign-in's profile picture, beside its username (the name says who it is). */}
          {image ? (
            <img className="user-image" part="user-image" src={image} alt="" width={20} height={20} />
          ) : null}
          <bdi className="value" data-name={name}>
            {name}
          </bdi>
        </div>
      ) : (
        <FrameIdentity frameStatus={frameStatus} />
      )}
      <p className="hint-text" role="status">
        {updated ? t('emailUpdated') : ''}
      </p>
    </>
  )
}

/** Register a name (or, with one, change or release it) and Buy crypto, each behind its feature. */
function NameActions({ config, named }: ViewProps & { named: boolean }) {
  const { t } = useStrings()
  const { features } = useStore(config.$options)
  return (
    <>
      {features.names ? (
        // With a name: change it (the service moves it) or release it, in the same view and signed alike.
        <button
          type="button"
          className="secondary"
          part={named ? 'change-name-button' : 'register-name-button'}
          onClick={() => navigate(config, 'RegisterAccountName')}
        >
          {named ? t('changeName') : t('registerName')}
        </button>
      ) : null}
      {features.onramp ? (
        <button
          type="button"
          className="secondary"
          part="onramp-button"
          onClick={() => navigate(config, 'OnRamp')}
        >
          {t('buyCrypto')}
        </button>
      ) : null}
    </>
  )
}

/**
 * Account: the profile name (from the name registry), address (copy), balance, the total in US dollars, the native currency and each held token
 * with its value (where the companion service has a price), Send, Swap, network and Disconnect. It
 * opens with the person in view: no control takes focus, so the shell gives it to the view's heading
 * at the top (a control further down would scroll the identity out of view). When
 * balances cannot be read, the shell's toast says so.
 */
function Account({ config }: ViewProps) {
  const strings = useStrings()
  const { t } = strings
  const account = useStore(config.$account)
  const network = useStore(config.$network)
  const balances = useStore(config.$balances)
  const options = useStore(config.$options)
  const embedded = useStore(embeddedState(config))
  const modal = useStore(config.$modal)
  const profiles = useStore(config.$profiles)
  // While this view is open, balances are read again on each new block (and when the tab shows again).
  useStore(freshBalances(config))
  const [copied, setCopied] = useState(false)
  // The service has the history of EVM, Solana and Bitcoin networks; a page without a service has none to show.
  const namespace = network?.network?.chainNamespace
  const ActivityList = useModule(
    options.features.activity &&
      options.apiUrl &&
      (namespace === 'eip155' || namespace === 'solana' || namespace === 'bip122')
      ? loadActivity
      : undefined,
  )
  const PermissionsList = useModule(
    account?.connectorId === 'embedded' && namespace === 'eip155' ? loadPermissionsList : undefined,
  )

  useEffect(() => {
    void loadNetworks(config).then(() => fetchBalance(config))
  }, [config])

  if (!account) return null
  const profile = options.features.names ? profiles[account.address] : undefined
  const name = profile?.name
  const balance = network ? balances[balanceKey(network.caipNetworkId, account.address)] : undefined
  const rows =
    balance?.value === undefined
      ? []
      : [
          {
            address: 'native',
            symbol: balance.symbol,
            name: network?.network?.nativeCurrency.name ?? balance.symbol,
            amount: balance.value,
            decimals: balance.decimals,
            imageId: balance.symbol as string | undefined,
            value: usdValue(balance.value, balance.decimals, balance.nativePrice),
          },
          ...balance.tokens.map((token) => ({
            ...token,
            value: usdValue(token.amount, token.decimals, token.price),
          })),
        ]
  const priced = rows.filter((row) => row.value !== undefined)
  const total = priced.length > 0 ? priced.reduce((sum, row) => sum + (row.value ?? 0), 0) : undefined

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
        <Avatar address={account.address} image={profile?.avatar} />
        {name ? (
          // The registered name, fetched with the balance (core/names.ts).
          <bdi part="profile-name" data-name={name}>
            {name}
          </bdi>
        ) : null}
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
        {total !== undefined ? (
          <div className="total" part="total">
            <span>{t('totalValue')}</span> <bdi>{strings.currency(total, 'USD')}</bdi>
          </div>
        ) : null}
        <div className="status" role="status">
          {copied ? t('addressCopied') : ''}
        </div>
      </div>
      {(options.features.names || options.features.onramp) && network?.supported ? (
        <div className="actions" part="name-actions">
          <NameActions config={config} named={Boolean(name)} />
        </div>
      ) : null}
      {account.connectorId === 'embedded' ? (
        <EmbeddedScope>
          {/* Update e-mail sends the person back here: it says what it did. A sign-in without an
              e-mail shows its username (SPEC 3). */}
          <EmailRow
            name={embedded.userName}
            {...(embedded.userImage ? { image: embedded.userImage } : {})}
            updated={modal.router.data?.notice === 'emailUpdated'}
            frameStatus={embedded.frame}
          />
        </EmbeddedScope>
      ) : null}
      {account.connectorId === 'embedded' ? (
        // Stronger once the balance read shows funds on the network shown.
        <RecoveryNag config={config} funded={rows.some((row) => row.amount > 0n)} />
      ) : null}
      {account.connectorId === 'embedded' && network?.caipNetworkId.startsWith('eip155:') ? (
        // Read again on each network and account (the smart account and its deployment are per network).
        <AccountTypeSwitch key={`${network.caipNetworkId}:${account.address}`} config={config} />
      ) : null}
      {rows.length > 1 || total !== undefined ? (
        <section aria-labelledby="tokens-title">
          <h3 className="section-title" id="tokens-title">
            {t('tokens')}
          </h3>
          <ul className="tokens" part="token-list">
            {rows.map((row) => (
              <li key={row.address} data-token={row.address}>
                <TokenImage
                  src={row.imageId ? tokenImageUrl(config, row.imageId) : undefined}
                  symbol={row.symbol}
                />
                <span className="token-name">
                  <bdi className="symbol" title={row.name}>
                    {row.symbol}
                  </bdi>
                  <bdi className="amount">{strings.balance(row.amount, row.decimals)}</bdi>
                </span>
                <bdi className="value">
                  {row.value !== undefined ? strings.currency(row.value, 'USD') : ''}
                </bdi>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <OtherAccounts config={config} />
      <div className="actions">
        {options.features.send && network?.supported ? (
          <button
            type="button"
            className="primary"
            part="send-button"
            onClick={() => {
              // A new send starts empty; one in flight keeps its state (core/actions/editSend.ts).
              resetSend(config)
              navigate(config, 'WalletSend')
            }}
          >
            {t('send')}
          </button>
        ) : null}
        {options.features.swaps && network?.supported ? (
          <button
            type="button"
            className="secondary"
            part="swap-button"
            onClick={() => {
              resetSwap(config)
              navigate(config, 'Swap')
            }}
          >
            {t('swap')}
          </button>
        ) : null}
        <button
          type="button"
          className="item"
          part="network-button"
          onClick={() => navigate(config, 'Networks')}
        >
          <span className="name">
            {network?.network?.name ?? t('unknownNetwork', { id: network?.caipNetworkId ?? '' })}
          </span>
          <span className="badge">{t('network')}</span>
        </button>
        {account.connectorId === 'embedded' ? (
          <button
            type="button"
            className="secondary"
            part="update-email-button"
            onClick={() => navigate(config, 'UpdateEmailWallet')}
          >
            {t('updateEmail')}
          </button>
        ) : null}
        {account.connectorId === 'embedded' ? (
          <button
            type="button"
            className="secondary"
            part="sign-out-everywhere-button"
            onClick={() => void signOutEverywhere(config)}
          >
            {t('signOutEverywhere')}
          </button>
        ) : null}
        {account.connectorId === 'embedded' ? <AccountPasskeys config={config} /> : null}
        {account.connectorId === 'embedded' ? <LeaveWallet config={config} /> : null}
        <button
          type="button"
          className="secondary danger"
          part="disconnect-button"
          onClick={() => void disconnect(config)}
        >
          {t('disconnect')}
        </button>
      </div>
      {PermissionsList ? <PermissionsList config={config} /> : null}
      {ActivityList ? <ActivityList config={config} /> : null}
    </>
  )
}

/** Account, in the words and styles of the views after connecting (`AccountScope`). */
export default function AccountView(props: ViewProps) {
  return (
    <AccountScope>
      <Account {...props} />
    </AccountScope>
  )
}
