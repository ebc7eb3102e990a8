// Passkey ceremonies as the frame runs them against a test service (register, sign in, link), for the service tests.
import assert from 'node:assert/strict'
import { passkeyStartResponse, sessionResponse } from '../../../src/protocol/embedded/index.ts'
import { type EmbeddedTestApp, newBinding, newDeviceId, newSessionKey, SITE } from './embedded-helpers.ts'
import { ensureKeys } from './embedded-keys-helpers.ts'
import type { SoftwarePasskey } from './embedded-passkey-helpers.ts'

/** A browser of the frame: its device id and its session key. */
export type Browser = { deviceId: string; key: ReturnType<typeof newSessionKey> }

/**
 * The ceremonies of the frame against the test service `app()` (read when called: tests assign it in
 * `before`).
 *
 * @example
 * const { browser, registerNew } = passkeyCeremonies(() => t)
 * const session = await registerNew(softwarePasskey({ origin, rpId }))
 */
export function passkeyCeremonies(app: () => EmbeddedTestApp) {
  /** A browser of the frame: its device id and the binding secret of each ceremony it starts. */
  function browser(): Browser {
    return { deviceId: newDeviceId(), key: newSessionKey() }
  }

  /** `…/start` as the frame calls it: a new binding, whose secret the frame keeps for `finish`. */
  async function start(kind: 'register' | 'login' | 'link', from: Browser, token?: string) {
    const binding = newBinding()
    const { status, body } = await app().call(
      `/embedded/v1/passkey/${kind}/start`,
      { deviceId: from.deviceId, origin: SITE, bindingHash: binding.hash },
      { key: from.key, ...(token ? { token } : {}) },
    )
    assert.equal(status, 200, JSON.stringify(body))
    const answer = passkeyStartResponse.parse(body)
    return { ...answer, challenge: answer.options.challenge, binding: binding.secret }
  }

  /** `…/finish` with the credential the authenticator made; the browser's binding unless another is given. */
  function finish(
    kind: 'register' | 'login' | 'link',
    from: Browser,
    ceremony: { ceremonyId: string; binding: string },
    credential: unknown,
    options: { token?: string; binding?: string; deviceId?: string; site?: string } = {},
  ) {
    return app().call(
      `/embedded/v1/passkey/${kind}/finish`,
      {
        ceremonyId: ceremony.ceremonyId,
        deviceId: options.deviceId ?? from.deviceId,
        binding: options.binding ?? ceremony.binding,
        credential,
      },
      {
        key: from.key,
        ...(options.token ? { token: options.token } : {}),
        ...(options.site ? { site: options.site } : {}),
      },
    )
  }

  /** A new person signs up with a passkey: the session, and the browser it is bound to. */
  async function registerNew(passkey: SoftwarePasskey, from = browser()) {
    const ceremony = await start('register', from)
    const done = await finish('register', from, ceremony, passkey.register(ceremony.challenge))
    assert.equal(done.status, 200, JSON.stringify(done.body))
    return { ...(await ensureKeys(app(), sessionResponse.parse(done.body), from.key)), from }
  }

  /** Signs in with a passkey on a browser: the raw answer. */
  async function signIn(
    passkey: SoftwarePasskey,
    from = browser(),
    overrides: Parameters<SoftwarePasskey['assert']>[1] = {},
  ) {
    const ceremony = await start('login', from)
    return finish('login', from, ceremony, passkey.assert(ceremony.challenge, overrides))
  }

  return { browser, start, finish, registerNew, signIn }
}
