// Errors of the companion service as the browser sees it: none configured to ask.
import { BaseError, type ErrorParameters } from './base.ts'

/**
 * Something needs the companion service (names, the on-ramp, transaction history) and the page set
 * none (`api-url` and `project-id`).
 *
 * @example
 * if (!http) throw new WalletServiceNotConfiguredError()
 */
export class WalletServiceNotConfiguredError extends BaseError {
  override name = 'WalletServiceNotConfiguredError' as const
  constructor(parameters: ErrorParameters = {}) {
    // The words the wallet list already shows when it has no service (`error.noWalletService`).
    super('No wallet service configured', { messageId: 'noWalletService', ...parameters })
  }
}
