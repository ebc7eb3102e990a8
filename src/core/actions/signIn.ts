import type { BaseError } from '../../errors/index.ts'
import { AuthenticationInitError, SignatureDeclinedError, toBaseError } from '../../errors/index.ts'
import type { AuthSession } from '../../protocol/api/auth.ts'
import { authenticateResponse, authNonceResponse } from '../../protocol/api/auth.ts'
import { createSiwxMessage } from '../../protocol/siwx/message.ts'
import { StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../createConfig.ts'
import { serviceClient } from '../service.ts'
import { storeSession } from '../siwx/session.ts'
import { close } from './close.ts'
import { getProvider } from './getProvider.ts'

const toHex = (text: string) =>
  `0x${[...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`

/** How long a sign-in message stays valid for the service to accept it. */
const MESSAGE_LIFETIME_MS = 10 * 60_000

/**
 * Signs in the connected account (SPEC section 4): a nonce from the service, the EIP-4361 message,
 * the wallet's signature, then the service verifies it and issues a session that is stored and
 * announced with `wallet-sign-in`. Declining keeps the view open with `Signature declined`; a
 * failure to start (no nonce) disconnects with `A problem occurred while trying initialize
 * authentication`.
 *
 * @example
 * const session = await signIn(config)
 */
export async function signIn(config: Config): Promise<AuthSession> {
  const account = config.$account.get()
  const network = config.$network.get()
  const http = serviceClient(config)
  const win = config.platform.window
  // Sign-in needs an active address, an active network and a connection client (SPEC section 5).
  if (!account || !network || !account.connectorId || !http || !win) {
    throw fail(config, new AuthenticationInitError({ details: 'No connected account, network or service' }))
  }
  config.$siwx.set({ status: 'signing', error: undefined })

  let nonce: { nonce: string; token: string }
  try {
    nonce = (await http.request('GET', '/auth/v1/nonce', undefined, authNonceResponse)) as typeof nonce
  } catch (error) {
    const base = fail(config, new AuthenticationInitError({ cause: error }))
    const { disconnect } = await import('./disconnect.ts')
    await disconnect(config)
    throw base
  }
  config.storage.set(StorageKey.siwxNonceToken, nonce.token)

  const now = config.platform.now()
  const message = createSiwxMessage({
    domain: win.location.host,
    accountAddress: account.address,
    chainId: network.caipNetworkId,
    uri: win.location.origin,
    version: '1',
    nonce: nonce.nonce,
    statement: 'Sign in to this site with your wallet.',
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(now + MESSAGE_LIFETIME_MS).toISOString(),
  })

  let signature: string
  try {
    signature = String(
      await getProvider(config, account.namespace).request({
        method: 'personal_sign',
        params: [toHex(message), account.address],
      }),
    )
  } catch (error) {
    const base = toBaseError(error)
    throw fail(
      config,
      base.name === 'UserRejectedRequestError' ? new SignatureDeclinedError({ cause: error }) : base,
    )
  }

  try {
    const answer = await http.request(
      'POST',
      '/auth/v1/authenticate',
      { message, signature, nonceToken: nonce.token },
      authenticateResponse,
    )
    if (!answer) throw new AuthenticationInitError()
    storeSession(config, account.caipAddress, answer.token, answer.session)
    config.storage.remove(StorageKey.siwxNonceToken)
    config.$siwx.set({ status: 'signed', error: undefined })
    config.events.emit('sign-in', answer.session)
    await close(config, { force: true })
    return answer.session
  } catch (error) {
    throw fail(config, error)
  }
}

function fail(config: Config, error: unknown): BaseError {
  const base = toBaseError(error)
  config.$siwx.set({ status: 'error', error: { code: base.code, message: base.shortMessage } })
  config.events.emit('error', { code: base.code, message: base.shortMessage })
  return base
}
