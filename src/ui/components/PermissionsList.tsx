// Account's list of what this site may do for the person without asking (ERC-7715 permissions), with Revoke.
import { useEffect } from 'react'
import { loadPermissions, permissionsState } from '../../core/actions/loadPermissions.ts'
import { revokePermission } from '../../core/actions/revokePermission.ts'
import type { Config } from '../../core/createConfig.ts'
import { freshBalances } from '../../core/freshBalances.ts'
import type { GrantedPermission } from '../../protocol/embedded/grantedPermissions.ts'
import { shortAddress } from '../../shared/format.ts'
import type { Strings } from '../../shared/i18n/strings.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { ErrorMessage } from './Message.tsx'

/** A period in seconds as the word the catalogue selects on (`day`: "a day"); `other` counts days. */
function periodWord(seconds: number): 'total' | 'hour' | 'day' | 'week' | 'month' | 'other' {
  if (seconds === 3_600) return 'hour'
  if (seconds === 86_400) return 'day'
  if (seconds === 604_800) return 'week'
  if (seconds === 2_592_000 || seconds === 2_628_000 || seconds === 2_629_746) return 'month'
  return 'other'
}

/** A base-unit amount of a token: `10.000` with its decimals, else the raw number. */
function amountOf(strings: Strings, value: string, decimals: number | undefined): string {
  try {
    return decimals === undefined ? strings.number(Number(value)) : strings.balance(BigInt(value), decimals)
  } catch {
    return value
  }
}

/** What it allows, one line each: tokens with their period, contracts (shortened) with their functions, actions. */
function allowances(strings: Strings, permission: GrantedPermission, native: string): string[] {
  const { t } = strings
  const { allows } = permission
  const lines = allows.tokens.map((token) =>
    t('permissionAllowance', {
      amount: amountOf(strings, token.amount, token.decimals),
      symbol: token.symbol ?? shortAddress(token.address),
      per: token.total ? 'total' : periodWord(token.period),
      days: Math.max(1, Math.round(token.period / 86_400)),
    }),
  )
  for (const contract of allows.contracts)
    lines.push(
      t('permissionContract', {
        contract: shortAddress(contract.address),
        functions: contract.functions.map((entry) => entry.replace(/\(.*$/, '')).join(', ') || '*',
      }),
    )
  if (allows.valueCap !== '0')
    lines.push(t('permissionValueCap', { amount: amountOf(strings, allows.valueCap, 18), symbol: native }))
  if (allows.callLimit > 0) lines.push(t('permissionCallLimit', { count: allows.callLimit }))
  return lines
}

/** What it used: per token what it spent of its allowance, and its actions in all. */
function usage(strings: Strings, permission: GrantedPermission): string {
  const { t } = strings
  const parts = permission.allows.tokens.map((token) => {
    const spent = permission.used.tokens.find(
      (entry) => entry.address.toLowerCase() === token.address.toLowerCase(),
    )?.spent
    return t('permissionUsed', {
      spent: amountOf(strings, spent ?? '0', token.decimals),
      amount: amountOf(strings, token.amount, token.decimals),
      symbol: token.symbol ?? shortAddress(token.address),
      per: token.total ? 'total' : 'period',
    })
  })
  parts.push(t('permissionActions', { count: permission.used.calls }))
  return parts.join(' · ')
}

/** Its state in words when it cannot act now; nothing when active. */
function stateWords(strings: Strings, permission: GrantedPermission): string {
  const { t } = strings
  switch (permission.state) {
    case 'allowanceUsed':
      return permission.resetsAt
        ? t('permissionAllowanceUsed', { time: strings.date(permission.resetsAt * 1000) })
        : t('permissionAllowanceUsedNoTime')
    case 'revoked':
      return t('permissionRevoked')
    case 'expired':
      return t('permissionExpired')
    case 'callLimitReached':
      return t('permissionCallLimitReached')
    case 'notStarted':
      return t('permissionNotStarted')
    default:
      return ''
  }
}

function Item({
  config,
  permission,
  index,
  revoking,
  error,
}: {
  config: Config
  permission: GrantedPermission
  index: number
  revoking: boolean
  error: string | undefined
}) {
  const strings = useStrings()
  const { t } = strings
  const network = useStore(config.$network)
  const native = network?.network?.nativeCurrency.symbol ?? 'ETH'
  const stopped = stateWords(strings, permission)
  const id = `permission-${index}`
  const canRevoke = permission.state !== 'revoked' && permission.state !== 'expired'
  return (
    <li data-permission={permission.context} data-state={permission.state}>
      <ul className="permission-allows" id={`${id}-allows`}>
        {allowances(strings, permission, native).map((line) => (
          <li key={line}>
            <bdi>{line}</bdi>
          </li>
        ))}
      </ul>
      <span className="permission-detail">
        {t('permissionUntil', { time: strings.date(permission.allows.expiry * 1000) })}
      </span>
      <span className="permission-detail" data-permission-used="">
        {usage(strings, permission)}
      </span>
      {stopped ? (
        <span className="permission-state" data-permission-state={permission.state}>
          {stopped}
        </span>
      ) : null}
      {canRevoke ? (
        <button
          type="button"
          className="secondary danger"
          data-action="revoke-permission"
          aria-describedby={`${id}-allows`}
          aria-busy={revoking || undefined}
          aria-disabled={revoking || undefined}
          onClick={() => {
            if (!revoking) void revokePermission(config, permission.context)
          }}
        >
          {revoking ? t('permissionRevoking') : t('revokePermission')}
        </button>
      ) : null}
      <div role="alert">{error ? <ErrorMessage>{error}</ErrorMessage> : null}</div>
    </li>
  )
}

/**
 * Account's "Permissions": what this site may do for the person without asking,
 * as the embedded wallet lists it on the connected EVM network. Each in plain words: what it allows
 * (`10 USDC a day`, contracts shortened), until when, what it used, why it cannot act when it cannot,
 * and Revoke (approved in the wallet frame), busy while it runs. Shown only while loading or when
 * there is at least one; a failed load is said (red, announced). Read again on each new block while
 * Account is open, and after a revoke. Its own chunk, loaded when Account shows; its words are the
 * account catalogue's (inside `AccountScope`).
 *
 * @example
 * const PermissionsList = useModule(() => import('../components/PermissionsList.tsx'))
 * {PermissionsList ? <PermissionsList config={config} /> : null}
 */
export default function PermissionsList({ config }: { config: Config }) {
  const strings = useStrings()
  const { t } = strings
  const state = useStore(permissionsState(config))
  const account = useStore(config.$account)
  const network = useStore(config.$network)
  // While Account is open, read again on each new block (the modal's refresh of balances).
  const block = useStore(freshBalances(config))
  const address = account?.address
  const chainId = network?.caipNetworkId
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new block, account or network is the reason to read again.
  useEffect(() => {
    if (address && chainId) void loadPermissions(config)
  }, [config, address, chainId, block])

  const { permissions } = state
  const loadingFirst = state.status === 'loading' && permissions.length === 0
  if (permissions.length === 0 && !loadingFirst && state.status !== 'error') return null
  return (
    <section aria-labelledby="permissions-title" aria-busy={state.status === 'loading'} part="permissions">
      <h3 className="section-title" id="permissions-title">
        {t('permissionsTitle')}
      </h3>
      <p className="hint-text">{t('permissionsHint')}</p>
      {permissions.length > 0 ? (
        <ul className="permissions" part="permission-list">
          {permissions.map((permission, index) => (
            <Item
              key={permission.context}
              config={config}
              permission={permission}
              index={index}
              revoking={state.revoking.includes(permission.context)}
              error={
                state.revokeError?.context === permission.context
                  ? strings.error(state.revokeError.error)
                  : undefined
              }
            />
          ))}
        </ul>
      ) : null}
      <div role="status">{loadingFirst ? t('permissionsLoading') : ''}</div>
      <div role="alert">
        {state.status === 'error' && state.error ? (
          <ErrorMessage id="permissions-error">{strings.error(state.error)}</ErrorMessage>
        ) : null}
      </div>
    </section>
  )
}
