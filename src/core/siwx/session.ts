import * as z from 'zod/mini'
import type { AuthSession } from '../../protocol/api/auth.ts'
import { authSession } from '../../protocol/api/auth.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { SiwxSession } from '../../protocol/config.ts'
import { StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../config.ts'

/** What is kept under the sign-in key: the service's token and the session, per CAIP-10 account. */
const StoredSession = z.object({ caipAddress: z.string(), token: z.string(), session: authSession })
export type StoredSession = z.infer<typeof StoredSession>

const sameAddress = (a: string, b: string) =>
  a.startsWith('eip155:') ? a.toLowerCase() === b.toLowerCase() : a === b

const expired = (config: Config, data: Record<string, unknown>) =>
  typeof data.expirationTime === 'string' && Date.parse(data.expirationTime) <= config.platform.now()

/**
 * The session the companion service issued for an account (CAIP-10), if any, and not past its
 * expiration time.
 *
 * @example
 * const session = storedSession(config, 'eip155:1:0xabc…')
 */
export function storedSession(config: Config, caipAddress: string | undefined): StoredSession | undefined {
  if (!caipAddress) return undefined
  const raw = config.storage.get(StorageKey.siwxAuthToken, z.string())
  if (!raw) return undefined
  try {
    const parsed = StoredSession.safeParse(JSON.parse(raw))
    if (!parsed.success || !sameAddress(parsed.data.caipAddress, caipAddress)) return undefined
    if (expired(config, parsed.data.session.data)) return undefined
    return parsed.data
  } catch {
    return undefined
  }
}

export function storeSession(config: Config, caipAddress: string, token: string, session: AuthSession): void {
  config.storage.set(StorageKey.siwxAuthToken, JSON.stringify({ caipAddress, token, session }))
  config.$session.set({ caipAddress, session })
}

export function clearSession(config: Config): void {
  config.storage.remove(StorageKey.siwxAuthToken)
  config.storage.remove(StorageKey.siwxNonceToken)
  config.$session.set(undefined)
}

/**
 * The connected account's session, from the site's own verifier (`config.siwx`) or the service's
 * stored token; kept in `$session` for the views and the button.
 *
 * @example
 * const session = await currentSession(config)
 */
export async function currentSession(config: Config): Promise<SiwxSession | undefined> {
  const account = config.$account.get()
  if (!account) {
    config.$session.set(undefined)
    return undefined
  }
  const verifier = config.$options.get().siwxVerifier
  let session: SiwxSession | undefined
  if (verifier) {
    const chainId = account.caipAddress.slice(0, account.caipAddress.lastIndexOf(':')) as CaipNetworkId
    const sessions: unknown = await Promise.resolve()
      .then(() => verifier.getSessions(chainId, account.address))
      .catch(() => [])
    // The site's answer is checked like any other input: a session for this account, not expired.
    session = (Array.isArray(sessions) ? (sessions as Partial<SiwxSession>[]) : []).find(
      (candidate) =>
        typeof candidate === 'object' &&
        candidate !== null &&
        typeof candidate.message === 'string' &&
        typeof candidate.signature === 'string' &&
        typeof candidate.data === 'object' &&
        candidate.data !== null &&
        !expired(config, candidate.data) &&
        sameAddress(String(candidate.data.accountAddress), account.address),
    ) as SiwxSession | undefined
  } else {
    session = storedSession(config, account.caipAddress)?.session
  }
  // The account may have changed while the site answered.
  if (config.$account.get()?.caipAddress === account.caipAddress)
    config.$session.set(session ? { caipAddress: account.caipAddress, session } : undefined)
  return session
}

/** Whether sign-in is on and the connected account has no session yet. */
export async function needsSignIn(config: Config): Promise<boolean> {
  const { siwx } = config.$options.get()
  if (siwx === 'off' || !config.$account.get()) return false
  return (await currentSession(config)) === undefined
}
