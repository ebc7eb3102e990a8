// What the person reads when a passkey ceremony or the service refuses, in their language.
import { ApiError } from './api.ts'
import type { Strings } from './strings.ts'

/** The service's passkey messages (docs/EMBEDDED-WALLET.md, the passkey table) and their catalogue keys. */
const serviceMessages: Record<string, Parameters<Strings['t']>[0]> = {
  'Action not allowed': 'framePasskeyNotAllowed',
  'This passkey request expired: try again': 'framePasskeyExpired',
  'This passkey answer was made for another site': 'framePasskeyOtherOrigin',
  'This passkey belongs to another site': 'framePasskeyOtherRp',
  'This passkey did not verify you (PIN, fingerprint or face)': 'framePasskeyNoUv',
  'This passkey answered with an old counter: it may be a copy': 'framePasskeyOldCounter',
  'This passkey answer could not be verified': 'framePasskeyUnverified',
  'This passkey is not linked to any account here': 'framePasskeyUnknown',
  'This passkey is already linked to an account: sign in with it instead': 'framePasskeyTakenRegister',
  'This passkey is already linked to another account': 'framePasskeyTakenLink',
  'This passkey is already added to your account': 'framePasskeyAlreadyYours',
  'This passkey is your only way in: add an e-mail or another passkey first': 'framePasskeyLastWay',
  'Sign in to the wallet first': 'framePasskeySignInFirst',
}

/**
 * A failure in words: the person closing the browser's dialog (or letting it time out: WebAuthn says
 * `NotAllowedError` for both, on purpose) is `calm`, said as a status; a passkey this account already
 * has (`InvalidStateError`, excluded by the service) and the service's refusals are errors, in the
 * catalogue's words where it has them, else the service's own.
 *
 * @example
 * const { text, calm } = passkeyMessage(strings, error)
 */
export function passkeyMessage({ t }: Strings, failure: unknown): { text: string; calm: boolean } {
  if (failure instanceof DOMException || (failure instanceof Error && failure.name === 'NotAllowedError')) {
    if (failure.name === 'NotAllowedError' || failure.name === 'AbortError')
      return { text: t('framePasskeyCancelled'), calm: true }
    if (failure.name === 'InvalidStateError') return { text: t('framePasskeyAlreadyYours'), calm: false }
    return { text: t('framePasskeyBrowserFailed'), calm: false }
  }
  if (failure instanceof ApiError) {
    const key = serviceMessages[failure.message]
    return { text: key ? t(key) : failure.message, calm: false }
  }
  return { text: t('frameExportFailed'), calm: false }
}
