// Connect's "Continue with a passkey": the frame runs the ceremony, then the page connects.
import type { BaseError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { completeEmbeddedLogin } from '../embedded.ts'
import { inPasskeyView } from './passkeyView.ts'

export type ConnectPasskeyErrorType = BaseError
export type ConnectPasskeyReturnType = { connected: boolean }

/**
 * Connect's "Continue with a passkey": the frame shows, on its own origin, the
 * buttons that run WebAuthn there (sign in with a passkey, or create one: a new wallet), since a
 * passkey of the frame's host needs the person's click inside the frame. Once the frame has a session,
 * every namespace connects as after any sign-in; closed, nothing changes. What keeps the frame from
 * opening is kept for the view (`passkeyError`).
 *
 * @example
 * const { connected } = await connectPasskey(config)
 */
export function connectPasskey(config: Config): Promise<ConnectPasskeyReturnType> {
  return inPasskeyView(config, async (connector) => {
    const answer = await connector.frame.request('CONNECT_PASSKEY', {})
    if (answer.connected) await completeEmbeddedLogin(config, connector)
    return answer
  })
}
