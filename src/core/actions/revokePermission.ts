import { summarizeError, toBaseError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { getProvider } from './getProvider.ts'
import { loadPermissions, permissionsKey, permissionsState } from './loadPermissions.ts'

const METHOD = 'wallet_revokePermissions'

/**
 * Revokes one of the site's permissions (`wallet_revokePermissions` with its context, through the
 * page's EIP-1193 provider): the wallet frame asks the person to approve and answers once it is
 * revoked on chain. The item is marked revoking meanwhile; afterwards the list is read again. A
 * refusal or failure is kept with the item's context (`revokeError`), except the person's own no.
 *
 * @example
 * await revokePermission(config, permission.context)
 */
export async function revokePermission(config: Config, context: string): Promise<void> {
  const state = permissionsState(config)
  if (!permissionsKey(config) || state.get().revoking.includes(context)) return
  state.set({ ...state.get(), revoking: [...state.get().revoking, context], revokeError: undefined })
  try {
    await getProvider(config, 'eip155').request({ method: METHOD, params: [{ permissionsContext: context }] })
  } catch (cause) {
    const error = toBaseError(cause, { method: METHOD })
    // Rejected in the wallet frame's approval view: the person said no, nothing failed.
    if (error.name !== 'UserRejectedRequestError')
      state.set({ ...state.get(), revokeError: { context, error: summarizeError(error) } })
  } finally {
    state.set({ ...state.get(), revoking: state.get().revoking.filter((entry) => entry !== context) })
  }
  await loadPermissions(config)
}
