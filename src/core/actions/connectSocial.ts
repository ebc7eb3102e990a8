import { FrameError } from '../../errors/embedded.ts'
import type { BaseError } from '../../errors/index.ts'
import { socialCallbackMessage } from '../../protocol/embedded/api.ts'
import type { SocialProvider } from '../../protocol/rules.ts'
import { StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../config.ts'
import { completeEmbeddedLogin, embeddedConnector } from '../embedded.ts'
import { embeddedState } from '../embeddedState.ts'

export interface ConnectSocialParameters {
  provider: SocialProvider
}
export type ConnectSocialErrorType = BaseError

/** The providers' names as they write them. */
export const socialProviderName: Record<SocialProvider, string> = {
  google: 'Google',
  github: 'GitHub',
  apple: 'Apple',
  facebook: 'Facebook',
  x: 'X',
  discord: 'Discord',
}

/** How often the sign-in window is checked for having been closed. */
const POPUP_POLL_MS = 250

/** An error of the social sign-in in the page's words, the provider named as it writes itself. */
function socialError(
  reason: 'POPUP_CLOSED' | 'POPUP_BLOCKED' | 'SOCIAL_DENIED' | 'SOCIAL_FAILED' | 'SOCIAL_UNAVAILABLE',
  provider: SocialProvider,
  message?: string,
): FrameError {
  const messageValues = { provider: socialProviderName[provider] }
  switch (reason) {
    case 'POPUP_CLOSED':
      return new FrameError({
        message: 'The sign-in window was closed before you signed in',
        reason,
        messageId: 'socialPopupClosed',
      })
    case 'POPUP_BLOCKED':
      return new FrameError({
        message: 'Your browser blocked the sign-in window. Try again, or allow pop-ups for this site.',
        reason,
        messageId: 'socialPopupBlocked',
      })
    case 'SOCIAL_DENIED':
      return new FrameError({ message, reason, messageId: 'socialDenied', messageValues })
    case 'SOCIAL_FAILED':
      return new FrameError({ message, reason, messageId: 'socialFailed', messageValues })
    case 'SOCIAL_UNAVAILABLE':
      return new FrameError({ message, reason, messageId: 'socialUnavailable', messageValues })
  }
}

/** The service's social errors, named with the provider in the page's language. */
function inWords(error: unknown, provider: SocialProvider): unknown {
  if (!(error instanceof FrameError)) return error
  const { reason } = error
  if (reason !== 'SOCIAL_DENIED' && reason !== 'SOCIAL_FAILED' && reason !== 'SOCIAL_UNAVAILABLE')
    return error
  return socialError(reason, provider, error.shortMessage)
}

/**
 * Waits for the provider's callback page (on the frame's origin, in `popup`) to say it is done, or
 * for the person to close the window; answers the sign-in's handover secret, which
 * only the frame can use.
 */
function callbackOf(win: Window, popup: Window, frameOrigin: string, provider: SocialProvider) {
  return new Promise<string | undefined>((resolve, reject) => {
    const onMessage = (event: MessageEvent) => {
      if (event.source !== popup || event.origin !== frameOrigin) return
      const message = socialCallbackMessage.safeParse(event.data)
      if (!message.success) return
      done()
      resolve(message.data.handover)
    }
    const timer = win.setInterval(() => {
      if (!popup.closed) return
      done()
      reject(socialError('POPUP_CLOSED', provider))
    }, POPUP_POLL_MS)
    const done = () => {
      win.clearInterval(timer)
      win.removeEventListener('message', onMessage)
    }
    win.addEventListener('message', onMessage)
  })
}

/**
 * Signs in to the embedded wallet with a social provider (SPEC 1, 7). Call it from the click itself:
 * the sign-in window opens synchronously (no popup blocker), then the frame answers the provider's
 * authorization URL (GET_SOCIAL_REDIRECT_URI, 30 s), the person signs in there, the provider sends
 * them back to the frame's origin where the service finishes the exchange, and the frame takes the
 * session (CONNECT_SOCIAL, 30 s). Every namespace of the site connects, and the social username is
 * kept (SPEC 3). A closed window, a cancel at the provider (`access_denied`) or a failure rejects
 * with its own message; the window is closed in every case.
 *
 * @example
 * button.onclick = () => void connectSocial(config, { provider: 'google' }).catch(showError)
 */
export function connectSocial(config: Config, parameters: ConnectSocialParameters): Promise<void> {
  const { provider } = parameters
  const win = config.platform.window
  const popup = win?.open('about:blank', `wallet-social-${provider}`, 'popup,width=480,height=640') ?? null
  return signIn(config, provider, win, popup)
}

async function signIn(
  config: Config,
  provider: SocialProvider,
  win: Window | undefined,
  popup: Window | null,
): Promise<void> {
  if (!win || !popup) throw socialError('POPUP_BLOCKED', provider)
  const state = embeddedState(config)
  state.setKey('social', provider)
  try {
    const connector = await embeddedConnector(config)
    const { uri } = await connector.frame.request('GET_SOCIAL_REDIRECT_URI', { provider })
    if (!/^https?:\/\//.test(uri)) throw new FrameError({ reason: 'INVALID_RESPONSE' })
    const called = callbackOf(win, popup, connector.frame.origin, provider)
    popup.location.href = uri
    const handover = await called
    await connector.frame.request('CONNECT_SOCIAL', { provider, ...(handover ? { handover } : {}) })
    popup.close()
    await completeEmbeddedLogin(config, connector)
    const userName = connector.user()?.userName
    if (userName) config.storage.set(StorageKey.socialUsername, userName)
    state.setKey('userName', userName)
  } catch (error) {
    throw inWords(error, provider)
  } finally {
    state.setKey('social', undefined)
    popup.close()
  }
}
