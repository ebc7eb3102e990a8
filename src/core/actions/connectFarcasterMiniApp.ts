import { FrameError } from '../../errors/embedded.ts'
import type { BaseError } from '../../errors/index.ts'
import { farcasterApproval } from '../../protocol/embedded/api.ts'
import type { Config } from '../config.ts'
import { completeEmbeddedLogin, embeddedConnector } from '../embedded.ts'
import { embeddedState } from '../embeddedState.ts'
import { loadMiniAppHost } from '../farcasterMiniApp.ts'
import { farcasterInWords } from './connectFarcaster.ts'

export type ConnectFarcasterMiniAppErrorType = BaseError

/**
 * Signs in to the embedded wallet with Farcaster from inside a Farcaster mini app (check with
 * `inFarcasterMiniApp` first): the frame gets a nonce from the service (CONNECT_FARCASTER
 * `mini-app-start`), the host app asks the person and signs a Sign In With Farcaster message for this
 * site with it (the SDK's `actions.signIn`, auth addresses accepted), and the frame hands the message to the
 * service (`mini-app-finish`), which verifies it as it does the relay's approvals and opens the fid's
 * session. Every namespace of the site connects, as after any embedded sign-in. A refusal in the host
 * app rejects with Farcaster's "declined"; a message the service refuses, with its reason.
 *
 * @example
 * if (await inFarcasterMiniApp(config)) await connectFarcasterMiniApp(config)
 */
export async function connectFarcasterMiniApp(config: Config): Promise<void> {
  try {
    const [host, connector] = await Promise.all([loadMiniAppHost(), embeddedConnector(config)])
    const started = await connector.frame.request('CONNECT_FARCASTER', { step: 'mini-app-start' })
    if (!('nonce' in started) || typeof started.nonce !== 'string')
      throw new FrameError({ reason: 'INVALID_RESPONSE' })
    // The SDK's `actions.signIn` over its host connection: a result, or the host's refusal.
    const answer = await host.signIn({ nonce: started.nonce, acceptAuthAddress: true })
    if (answer.error?.type === 'rejected_by_user')
      throw new FrameError({
        message: 'The request was declined in the Farcaster app',
        reason: 'FARCASTER_DECLINED',
      })
    // Whatever answered as the host is checked like any message: the signed text and its signature.
    const approval = farcasterApproval.safeParse(answer.result)
    if (!approval.success) throw new FrameError({ reason: 'INVALID_RESPONSE' })
    await connector.frame.request('CONNECT_FARCASTER', { step: 'mini-app-finish', ...approval.data })
    await completeEmbeddedLogin(config, connector)
    embeddedState(config).setKey('userName', connector.user()?.userName)
  } catch (error) {
    throw farcasterInWords(error)
  }
}
