import { type BaseError, summarizeError, toBaseError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { embeddedState } from '../embeddedState.ts'
import { disconnect } from './disconnect.ts'
import { reportError } from './reportError.ts'

export type DeleteWalletErrorType = BaseError
export type DeleteWalletReturnType = { deleted: boolean }

/**
 * Account's "Delete wallet", after an export: the frame mails a second fresh code,
 * then the service deletes the wallet and ends every session of the person; this site disconnects.
 * Before any export the service refuses (`Export your wallet before you delete it…`).
 *
 * @example
 * const { deleted } = await deleteWallet(config)
 */
export async function deleteWallet(config: Config): Promise<DeleteWalletReturnType> {
  const state = embeddedState(config)
  state.setKey('leaveError', undefined)
  let answer: DeleteWalletReturnType
  try {
    const { embeddedConnector } = await import('../embedded.ts')
    const connector = await embeddedConnector(config)
    answer = await connector.frame.request('DELETE_WALLET', {})
  } catch (error) {
    state.setKey('leaveError', summarizeError(toBaseError(error)))
    throw reportError(config, error)
  }
  if (answer.deleted) {
    state.setKey('exported', false)
    await disconnect(config)
  }
  return answer
}
