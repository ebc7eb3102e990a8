// The frame's passkey handlers: CONNECT_PASSKEY (sign in or register) and MANAGE_PASSKEYS (Account).
import type { SessionResponse } from '../protocol/embedded/index.ts'
import {
  passkeyAssertion,
  passkeyListResponse,
  passkeyRegistration,
  passkeyStartResponse,
  sessionResponse,
} from '../protocol/embedded/index.ts'
import { notAvailable } from './failure.ts'
import type { FrameSession } from './session.ts'
import { newBinding } from './signIn.ts'
import type { FrameHandlers, FrameWalletDependencies } from './walletTypes.ts'

/**
 * The handlers behind the frame's passkey views. Each ceremony starts on the service (bound to this
 * frame by the hash of a secret it keeps in memory, as the social sign-in is), runs in the browser
 * (`webauthn`, on the frame's origin: the RP is the frame's host) and finishes with the secret. A
 * sign-in ends as every other does (`signedInAs`: the keys step, then the session).
 *
 * @example
 * const passkeys = createPasskeys(session, deps, signIn.signedInAs)
 * await passkeys.handlers.CONNECT_PASSKEY({})
 */
export function createPasskeys(
  session: FrameSession,
  deps: Pick<FrameWalletDependencies, 'api' | 'storage' | 'site' | 'passkeyUi' | 'webauthn'>,
  signedInAs: (answer: SessionResponse) => Promise<void>,
) {
  const { api, storage } = deps
  const needed = () => {
    if (!deps.passkeyUi || !deps.webauthn) throw notAvailable()
    return { ui: deps.passkeyUi, webauthn: deps.webauthn }
  }

  /** `start` of a ceremony, with the binding secret that its `finish` must show. */
  async function start(kind: 'register' | 'login' | 'link') {
    const binding = await newBinding()
    const body = { deviceId: storage.deviceId(), origin: deps.site, bindingHash: binding.hash }
    const path = `passkey/${kind}/start`
    const answer =
      kind === 'link'
        ? await session.withSession((token) => api.request('POST', path, passkeyStartResponse, body, token))
        : await api.request('POST', path, passkeyStartResponse, body)
    return { ceremonyId: answer.ceremonyId, options: answer.options, binding: binding.secret }
  }

  const finishing = (ceremony: { ceremonyId: string; binding: string }, credential: unknown) => ({
    ceremonyId: ceremony.ceremonyId,
    deviceId: storage.deviceId(),
    binding: ceremony.binding,
    credential,
  })

  /**
   * Account's Add a passkey, and the recovery set-up's new passkey: created on the frame's host with
   * `extensions` (the PRF input), linked to the signed-in person (a way in from then on). The credential
   * is answered whole to the caller; the service gets it without the PRF output, which it must never see.
   */
  async function link(extensions: Record<string, unknown> = {}) {
    const { webauthn } = needed()
    const ceremony = await start('link')
    const given = ceremony.options.extensions as Record<string, unknown> | undefined
    const options = { ...ceremony.options, extensions: { ...given, ...extensions } }
    const credential = passkeyRegistration.parse(await webauthn.create(options))
    const { prf, ...otherResults } = credential.clientExtensionResults as { prf?: { enabled?: unknown } }
    const sent = {
      ...credential,
      clientExtensionResults: prf ? { ...otherResults, prf: { enabled: prf.enabled } } : otherResults,
    }
    const body = finishing(ceremony, sent)
    const { passkeys } = await session.withSession((token) =>
      api.request('POST', 'passkey/link/finish', passkeyListResponse, body, token),
    )
    return { credential, passkeys }
  }

  const list = async () =>
    (
      await session.withSession((token) =>
        api.request('GET', 'passkeys', passkeyListResponse, undefined, token),
      )
    ).passkeys

  const handlers: FrameHandlers<'CONNECT_PASSKEY' | 'MANAGE_PASSKEYS'> = {
    async CONNECT_PASSKEY() {
      const { ui, webauthn } = needed()
      /** One ceremony of the service's (`login` or `register`), the browser's answer, then a session. */
      const signIn = async (kind: 'login' | 'register') => {
        const ceremony = await start(kind)
        const credential =
          kind === 'login'
            ? passkeyAssertion.parse(await webauthn.get(ceremony.options))
            : passkeyRegistration.parse(await webauthn.create(ceremony.options))
        const finish = kind === 'login' ? 'passkey/login/finish' : 'passkey/register/finish'
        await signedInAs(await api.request('POST', finish, sessionResponse, finishing(ceremony, credential)))
      }
      const connected = await ui.showSignIn({
        login: () => signIn('login'),
        register: () => signIn('register'),
      })
      return { connected }
    },
    async MANAGE_PASSKEYS() {
      const { ui } = needed()
      // Signed in, or nothing to show: the list first.
      const passkeys = await ui.showManage(await list(), {
        add: async () => (await link()).passkeys,
        async remove(id) {
          return (
            await session.withSession((token) =>
              api.request('POST', 'passkeys/remove', passkeyListResponse, { id }, token),
            )
          ).passkeys
        },
      })
      return { passkeys }
    },
  }
  return { handlers, link, list, cancel: () => deps.passkeyUi?.cancel() }
}
