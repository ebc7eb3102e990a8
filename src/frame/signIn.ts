// The frame's sign-in flows: e-mail code, device approval, social provider and Farcaster (SPEC 4).
import type * as z from 'zod/mini'
import { toBase64Url } from '../protocol/base64.ts'
import type { SessionResponse } from '../protocol/embedded/index.ts'
import {
  deviceWaitResponse,
  emailConnectResponse,
  emailVerifyResponse,
  farcasterMiniAppStartResponse,
  farcasterStartResponse,
  meResponse,
  sessionResponse,
  socialStartResponse,
} from '../protocol/embedded/index.ts'
import { ApiError } from './api.ts'
import { actionNotAllowed, FrameFailure } from './failure.ts'
import type { Keyring } from './keyring.ts'
import type { FrameSession } from './session.ts'
import type { FrameHandlers, FrameWalletDependencies } from './walletTypes.ts'

/**
 * A sign-in's binding (knowing a sign-in's ids is never enough to finish it): a secret this frame keeps in
 * memory and the SHA-256 of it, which is all `start` sends; `finish` needs the secret, so only this frame
 * can finish the flow.
 */
export async function newBinding(): Promise<{ secret: string; hash: string }> {
  const secret = toBase64Url(crypto.getRandomValues(new Uint8Array(32)))
  const hash = toBase64Url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))),
  )
  return { secret, hash }
}

type SignInEvent =
  | 'CONNECT_EMAIL'
  | 'CONNECT_DEVICE'
  | 'CONNECT_OTP'
  | 'CONNECT_SOCIAL'
  | 'CONNECT_FARCASTER'
  | 'GET_SOCIAL_REDIRECT_URI'

/**
 * The handlers of the sign-in events. Each flow in progress (its id and, for social and Farcaster,
 * the binding secret) stays in this closure until it ends in a session or `reset()` (sign-out). A
 * session is kept, and the sign-in answered, only once its keys are set up (they are made and kept in the
 * frame, not by the service): a new set, the move out of custody, or this browser's share checked
 * (`keyring.signedIn`).
 *
 * @example
 * const signIn = createSignIn(session, deps, keyring)
 * await signIn.handlers.CONNECT_EMAIL({ email: 'ada@example.com' })
 */
export function createSignIn(
  session: FrameSession,
  deps: Pick<FrameWalletDependencies, 'api' | 'storage' | 'site'>,
  keyring: Pick<Keyring, 'signedIn'>,
) {
  const { api, storage } = deps
  let login: { loginId: string; action: 'VERIFY_OTP' | 'VERIFY_DEVICE' } | undefined
  let social: { loginId: string; provider: string; binding: string } | undefined
  let farcaster: { loginId: string; binding: string } | undefined
  // A sign-in through the Farcaster app the page runs in (a mini app): its nonce's login.
  let miniApp: { loginId: string; binding: string } | undefined

  /** The user of a session: `GET me` (a new user has one once the keys are set up). */
  const userOf = async (token: string) => {
    const { user } = await api.request('GET', 'me', meResponse, undefined, token)
    if (!user) throw actionNotAllowed()
    return user
  }

  const signedInAs = async (answer: SessionResponse) => {
    login = undefined
    // The move out of custody must open the accounts the person has: the answer's, else the service's.
    const current = answer.user ?? (answer.keys.state === 'legacy' ? await userOf(answer.token) : undefined)
    const keys = await keyring.signedIn({ token: answer.token, keys: answer.keys, user: current })
    const user = answer.keys.state === 'ready' && answer.user ? answer.user : await userOf(answer.token)
    session.signedInAs({ token: answer.token, user, keys, newUser: answer.newUser })
  }

  /** Starts a bound sign-in (Farcaster's): only its binding's hash goes out; answers the secret with the answer. */
  const startBound = async <T extends z.ZodMiniType>(path: string, schema: T) => {
    const binding = await newBinding()
    const answer = await api.request('POST', path, schema, {
      deviceId: storage.deviceId(),
      origin: deps.site,
      bindingHash: binding.hash,
    })
    return { answer, binding: binding.secret }
  }

  const handlers: FrameHandlers<SignInEvent> = {
    async CONNECT_EMAIL({ email }) {
      const answer = await api.request(
        'POST',
        'email/connect',
        emailConnectResponse,
        { email: email.trim(), deviceId: storage.deviceId(), origin: deps.site },
        session.token(),
      )
      if (answer.action !== 'CONNECT' && answer.loginId)
        login = { loginId: answer.loginId, action: answer.action }
      if (answer.action === 'CONNECT') login = undefined
      return {
        action: answer.action,
        ...(answer.resendAfterSeconds === undefined ? {} : { resendAfterSeconds: answer.resendAfterSeconds }),
      }
    },
    async CONNECT_DEVICE() {
      if (login?.action !== 'VERIFY_DEVICE') throw actionNotAllowed()
      const answer = await api.request('POST', 'device/wait', deviceWaitResponse, {
        loginId: login.loginId,
        deviceId: storage.deviceId(),
      })
      if (answer.status === 'approved') {
        await signedInAs(answer.session)
        return {}
      }
      if (answer.status === 'denied') {
        login = undefined
        throw new FrameFailure({ message: 'The new browser was denied', code: 'DEVICE_DENIED' })
      }
      throw new FrameFailure({ message: 'Waiting for approval', code: 'DEVICE_PENDING' })
    },
    async CONNECT_OTP({ otp }) {
      if (login?.action !== 'VERIFY_OTP') throw actionNotAllowed()
      const answer = await api.request('POST', 'email/verify', emailVerifyResponse, {
        loginId: login.loginId,
        otp: otp.replace(/\s/g, ''),
        deviceId: storage.deviceId(),
      })
      if ('action' in answer) {
        // The code was right, this browser is new for the address: approved by the mailed link's page,
        // with the code the modal shows.
        login = { loginId: answer.loginId, action: 'VERIFY_DEVICE' }
        return { action: answer.action, compareCode: answer.compareCode }
      }
      await signedInAs(answer)
      return {}
    },
    async CONNECT_SOCIAL({ provider, handover }) {
      if (social?.provider !== provider) throw actionNotAllowed()
      const { loginId, binding } = social
      // `handover`: what the callback page gave the browser the provider sent back to (via the modal).
      const answer = await api
        .request('POST', 'social/finish', sessionResponse, {
          loginId,
          deviceId: storage.deviceId(),
          binding,
          ...(handover === undefined ? {} : { handover }),
        })
        .catch((error: unknown) => {
          // Still waiting for the provider's callback: the sign-in may be asked for again.
          if (!(error instanceof ApiError && error.code === 'SOCIAL_PENDING')) social = undefined
          throw error
        })
      social = undefined
      await signedInAs(answer)
      return {}
    },
    async CONNECT_FARCASTER(params) {
      const { step } = params
      if (step === 'mini-app-start') {
        const { answer, binding } = await startBound(
          'farcaster/mini-app/start',
          farcasterMiniAppStartResponse,
        )
        miniApp = { loginId: answer.loginId, binding }
        return { nonce: answer.nonce }
      }
      if (params.step === 'mini-app-finish') {
        if (!miniApp) throw actionNotAllowed()
        const { loginId, binding } = miniApp
        // One try per nonce, whatever the answer.
        miniApp = undefined
        const answer = await api.request('POST', 'farcaster/mini-app/finish', sessionResponse, {
          loginId,
          deviceId: storage.deviceId(),
          binding,
          message: params.message,
          signature: params.signature,
        })
        await signedInAs(answer)
        return {}
      }
      if (step === 'start') {
        const { answer, binding } = await startBound('farcaster/start', farcasterStartResponse)
        farcaster = { loginId: answer.loginId, binding }
        return { url: answer.url, expiresAt: answer.expiresAt, domain: answer.domain }
      }
      if (!farcaster) throw actionNotAllowed()
      const { loginId, binding } = farcaster
      const answer = await api
        .request('POST', 'farcaster/finish', sessionResponse, {
          loginId,
          deviceId: storage.deviceId(),
          binding,
        })
        .catch((error: unknown) => {
          // Not approved yet: the modal asks again; anything else ends this channel.
          if (!(error instanceof ApiError && error.code === 'FARCASTER_PENDING')) farcaster = undefined
          throw error
        })
      farcaster = undefined
      await signedInAs(answer)
      return {}
    },
    async GET_SOCIAL_REDIRECT_URI({ provider }) {
      const binding = await newBinding()
      const answer = await api.request('POST', 'social/start', socialStartResponse, {
        provider,
        deviceId: storage.deviceId(),
        origin: deps.site,
        bindingHash: binding.hash,
      })
      social = { loginId: answer.loginId, provider, binding: binding.secret }
      return { uri: answer.uri }
    },
  }

  return {
    handlers,
    /** Ends a sign-in of another kind (passkeys) as these do: the keys step, then the session. */
    signedInAs,
    /** Forgets every flow in progress (sign-out). */
    reset() {
      login = undefined
      social = undefined
      farcaster = undefined
      miniApp = undefined
    },
  }
}
