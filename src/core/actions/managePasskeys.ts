// Account's "Passkeys": the list, Add and Remove, shown by the frame on its own origin.
import type { BaseError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { inPasskeyView } from './passkeyView.ts'

export type ManagePasskeysErrorType = BaseError
export type ManagePasskeysReturnType = { passkeys: number }

/**
 * Account's "Passkeys": the frame lists the person's passkeys on its own origin,
 * with "Add a passkey" (a WebAuthn ceremony that needs the click in the frame) and Remove. The page
 * hears only how many there are when the view closes. A refusal to open is kept for Account
 * (`passkeyError`); the service's refusals inside the view are shown there.
 *
 * @example
 * const { passkeys } = await managePasskeys(config)
 */
export function managePasskeys(config: Config): Promise<ManagePasskeysReturnType> {
  return inPasskeyView(config, (connector) => connector.frame.request('MANAGE_PASSKEYS', {}))
}
