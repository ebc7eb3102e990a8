// The wallet's recovery: the frame recovers it here, or sets a recovery method up.
import type { BaseError } from '../../errors/index.ts'
import type { WalletRecovery } from '../../protocol/embedded/frame.ts'
import type { Config } from '../config.ts'
import { embeddedState } from '../embeddedState.ts'
import { reportError } from './reportError.ts'

export interface SecureWalletParameters {
  /**
   * `sign-in`: right after a sign-in (set-up only for keys made now, or a recovery the operator still
   * holds); `account`: Account's "Set up recovery"; `visit`: a restored session (only a recovery the
   * operator still holds after its project left operator custody).
   */
  reason: 'sign-in' | 'account' | 'visit'
}
export type SecureWalletReturnType = { recovery: WalletRecovery }
export type SecureWalletErrorType = BaseError

/**
 * Asks the frame to show, on its own origin, what the wallet's recovery needs: "Recover your wallet"
 * on a browser without its key, else the recovery set-up when none is set (user custody). The page
 * hears only how the wallet can be recovered now (kept for Account as `recovery`), never a password
 * or a share.
 *
 * @example
 * const { recovery } = await secureWallet(config, { reason: 'account' })
 */
export async function secureWallet(
  config: Config,
  parameters: SecureWalletParameters,
): Promise<SecureWalletReturnType> {
  try {
    const { embeddedConnector } = await import('../embedded.ts')
    const connector = await embeddedConnector(config)
    const answer = await connector.frame.request('SECURE_WALLET', { reason: parameters.reason })
    embeddedState(config).setKey('recovery', answer.recovery)
    return answer
  } catch (error) {
    throw reportError(config, error)
  }
}
