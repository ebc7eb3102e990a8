import { type BaseError, summarizeError, toBaseError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { embeddedState } from '../embeddedState.ts'
import { reportError } from './reportError.ts'

export type ExportWalletErrorType = BaseError
export type ExportWalletReturnType = { exported: boolean }

/**
 * Account's "Export wallet": the frame mails a fresh code and shows, on its own
 * origin, the code form, a warning and the keys. The page hears only whether they were shown; once
 * they were, Account offers "Delete wallet". A refusal is kept for Account (`leaveError`).
 *
 * @example
 * const { exported } = await exportWallet(config)
 */
export async function exportWallet(config: Config): Promise<ExportWalletReturnType> {
  const state = embeddedState(config)
  state.setKey('leaveError', undefined)
  try {
    const { embeddedConnector } = await import('../embedded.ts')
    const connector = await embeddedConnector(config)
    const answer = await connector.frame.request('EXPORT_WALLET', {})
    if (answer.exported) state.setKey('exported', true)
    return answer
  } catch (error) {
    state.setKey('leaveError', summarizeError(toBaseError(error)))
    throw reportError(config, error)
  }
}
