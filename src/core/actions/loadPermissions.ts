import type { MapStore } from 'nanostores'
import { map } from 'nanostores'
import { InvalidResponseError, summarizeError, toBaseError } from '../../errors/index.ts'
import { grantedPermissionsResponse } from '../../protocol/embedded/grantedPermissions.ts'
import type { Config } from '../config.ts'
import type { PermissionsState } from '../state/permissions.ts'
import { IDLE_PERMISSIONS } from '../state/permissions.ts'
import { getProvider } from './getProvider.ts'

export type { PermissionsState }

/** The wallet method that lists the site's permissions on the connected network. */
const METHOD = 'wallet_getGrantedExecutionPermissions'

/**
 * The permissions list's store of a config, created on first use (a page whose visitors never open
 * Account never makes it).
 *
 * @example
 * const { status, permissions } = permissionsState(config).get()
 */
export function permissionsState(config: Config): MapStore<PermissionsState> {
  config.internal.permissions ??= map<PermissionsState>(IDLE_PERMISSIONS)
  return config.internal.permissions
}

/**
 * Whose list on which network the connection is, when it is the embedded wallet's on an EVM network
 * (the only wallet this page knows to answer `wallet_getGrantedExecutionPermissions`); else undefined.
 *
 * @example
 * if (permissionsKey(config)) void loadPermissions(config)
 */
export function permissionsKey(config: Config): string | undefined {
  const account = config.$account.get()
  const network = config.$network.get()
  if (account?.connectorId !== 'embedded' || !network?.caipNetworkId.startsWith('eip155:')) return undefined
  return `${network.caipNetworkId} ${account.address}`
}

export type LoadPermissionsReturnType = PermissionsState

/**
 * Reads the site's permissions from the embedded wallet (`wallet_getGrantedExecutionPermissions`
 * through the page's EIP-1193 provider) and checks the answer. Only for the embedded wallet's
 * connection on an EVM network; otherwise the list is empty. While it reads again, the list shown
 * stays; a failure is kept as the list's error (shown, never a blank), and an answer for an account
 * or network that is no longer the connected one is dropped.
 *
 * @example
 * const { status, permissions } = await loadPermissions(config)
 */
export async function loadPermissions(config: Config): Promise<LoadPermissionsReturnType> {
  const state = permissionsState(config)
  const key = permissionsKey(config)
  if (!key) {
    state.set(IDLE_PERMISSIONS)
    return state.get()
  }
  const current = state.get()
  const same = current.key === key
  state.set({
    ...(same ? current : IDLE_PERMISSIONS),
    key,
    status: 'loading',
    error: undefined,
  })
  try {
    const answer = await getProvider(config, 'eip155').request({ method: METHOD })
    const parsed = grantedPermissionsResponse.safeParse(answer)
    if (!parsed.success)
      throw new InvalidResponseError({ method: METHOD, received: answer, details: parsed.error.message })
    if (state.get().key !== key) return state.get()
    state.set({ ...state.get(), status: 'loaded', permissions: parsed.data, error: undefined })
  } catch (cause) {
    if (state.get().key !== key) return state.get()
    state.set({
      ...state.get(),
      status: 'error',
      error: summarizeError(toBaseError(cause, { method: METHOD })),
    })
  }
  return state.get()
}
