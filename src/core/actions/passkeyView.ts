// What Connect's and Account's passkey buttons share: the frame's view asked for, a refusal kept for the view.

import type { EmbeddedConnector } from '../../connectors/embedded/connector.ts'
import { summarizeError, toBaseError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { embeddedConnector } from '../embedded.ts'
import { embeddedState } from '../embeddedState.ts'
import { reportError } from './reportError.ts'

/**
 * Runs `ask` with the embedded connector (the frame loaded): the passkey views are drawn by the frame
 * on its own origin. What keeps the view from opening is kept in `passkeyError` for the buttons that
 * asked, reported, and thrown.
 *
 * @example
 * return inPasskeyView(config, (connector) => connector.frame.request('MANAGE_PASSKEYS', {}))
 */
export async function inPasskeyView<T>(
  config: Config,
  ask: (connector: EmbeddedConnector) => Promise<T>,
): Promise<T> {
  const state = embeddedState(config)
  state.setKey('passkeyError', undefined)
  try {
    return await ask(await embeddedConnector(config))
  } catch (error) {
    state.setKey('passkeyError', summarizeError(toBaseError(error)))
    throw reportError(config, error)
  }
}
