import type { BaseError } from '../../errors/index.ts'
import {
  AuthenticationInitError,
  SignatureDeclinedError,
  summarizeError,
  toBaseError,
} from '../../errors/index.ts'
import { authenticateResponse, authNonceResponse } from '../../protocol/api/auth.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { SiwxSession } from '../../protocol/config.ts'
import { cacaoSignatureType, createCacao } from '../../protocol/siwx/cacao.ts'
import { createSiwxMessage, parseSiwxMessage } from '../../protocol/siwx/message.ts'
import { StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../config.ts'
import type { WalletEventMap } from '../events/types.ts'
import { serviceClient } from '../service.ts'
import { signText } from '../signText.ts'
import { storeSession } from '../siwx/session.ts'

/** How long a sign-in message stays valid for the service to accept it. */
const MESSAGE_LIFETIME_MS = 10 * 60_000
const DEFAULT_STATEMENT = 'Sign in to this site with your wallet.'

/** A nonce made here when neither the site nor the service gives one (EIP-4361: 8+ alphanumerics). */
function localNonce(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
  return [...crypto.getRandomValues(new Uint8Array(17))]
    .map((byte) => alphabet[byte % alphabet.length])
    .join('')
}

/**
 * Signs in the connected account (SPEC section 4): a nonce (the site's verifier, else the
 * service), the EIP-4361 message (CAIP-122 on Solana), the wallet's signature, then the site's
 * verifier or the service checks it and the session is kept and announced with `wallet-sign-in`.
 * Declining keeps the view open with `Signature declined`; a failure to start (no nonce)
 * disconnects with `A problem occurred while trying initialize authentication`.
 *
 * @example
 * const session = await signIn(config)
 */
export async function signIn(config: Config): Promise<SiwxSession> {
  const account = config.$account.get()
  const network = config.$network.get()
  const http = serviceClient(config)
  const verifier = config.$options.get().siwxVerifier
  const win = config.platform.window
  // Sign-in needs an active address, an active network and a connection client (SPEC section 5).
  if (!account || !network || !account.connectorId || (!http && !verifier) || !win) {
    throw fail(config, new AuthenticationInitError({ details: 'No connected account, network or service' }))
  }
  config.$siwx.set({ status: 'signing', error: undefined })
  const chainId = network.caipNetworkId as CaipNetworkId

  let nonce: { nonce: string; token: string | undefined }
  try {
    if (verifier?.getNonce)
      nonce = { nonce: await verifier.getNonce({ address: account.address, chainId }), token: undefined }
    else if (http) {
      const answer = await http.request('GET', '/auth/v1/nonce', undefined, authNonceResponse)
      if (!answer) throw new AuthenticationInitError()
      nonce = answer
    } else nonce = { nonce: localNonce(), token: undefined }
    if (typeof nonce.nonce !== 'string' || !/^[A-Za-z0-9]{8,}$/.test(nonce.nonce))
      throw new AuthenticationInitError({ details: 'The nonce must be 8 or more letters and digits' })
  } catch (error) {
    const base = fail(config, new AuthenticationInitError({ cause: error }))
    const { disconnect } = await import('./disconnect.ts')
    await disconnect(config)
    throw base
  }
  if (nonce.token) config.storage.set(StorageKey.siwxNonceToken, nonce.token)

  const now = config.platform.now()
  const message = createSiwxMessage({
    domain: win.location.host,
    accountAddress: account.address,
    chainId,
    uri: win.location.origin,
    version: '1',
    nonce: nonce.nonce,
    statement: verifier?.statement ?? DEFAULT_STATEMENT,
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(now + MESSAGE_LIFETIME_MS).toISOString(),
  })

  let signature: string
  try {
    signature = await signText(config, account, message)
  } catch (error) {
    const base = toBaseError(error)
    throw fail(
      config,
      base.name === 'UserRejectedRequestError' ? new SignatureDeclinedError({ cause: error }) : base,
    )
  }

  try {
    let session: SiwxSession
    if (verifier) {
      const data = parseSiwxMessage(message)
      session = {
        data: { ...data },
        message,
        signature,
        cacao: createCacao(data, {
          t: cacaoSignatureType(account.namespace, signature),
          s: signature,
        }),
      }
      await verifier.addSession(session)
      config.$session.set({ caipAddress: account.caipAddress, session })
    } else {
      const answer = await http?.request(
        'POST',
        '/auth/v1/authenticate',
        { message, signature, nonceToken: nonce.token },
        authenticateResponse,
      )
      if (!answer) throw new AuthenticationInitError()
      storeSession(config, account.caipAddress, answer.token, answer.session)
      config.storage.remove(StorageKey.siwxNonceToken)
      session = answer.session as SiwxSession
    }
    config.$siwx.set({ status: 'signed', error: undefined })
    // Sign-in was required: the connection counts from now on.
    const pending = config.internal.pendingConnect
    config.internal.pendingConnect = undefined
    if (pending?.caipAddress === account.caipAddress) config.events.emit('connect', pending)
    config.events.emit('sign-in', session as WalletEventMap['sign-in'])
    // The modal closes: a subscriber started by the config follows this outcome (core/follow).
    config.$outcome.set({ type: 'signed-in' })
    return session
  } catch (error) {
    throw fail(config, error)
  }
}

function fail(config: Config, error: unknown): BaseError {
  const base = toBaseError(error)
  config.$siwx.set({ status: 'error', error: summarizeError(base) })
  config.events.emit('error', { code: base.code, message: base.shortMessage })
  return base
}
