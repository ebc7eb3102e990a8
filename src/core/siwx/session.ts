import * as z from 'zod/mini'
import type { AuthSession } from '../../protocol/api/auth.ts'
import { authSession } from '../../protocol/api/auth.ts'
import { StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../createConfig.ts'

/** What is kept under the sign-in key: the service's token and the session, per CAIP-10 account. */
const StoredSession = z.object({ caipAddress: z.string(), token: z.string(), session: authSession })
export type StoredSession = z.infer<typeof StoredSession>

/**
 * The stored sign-in session of an account (CAIP-10), if any, and not past its expiration time.
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
    if (!parsed.success || parsed.data.caipAddress.toLowerCase() !== caipAddress.toLowerCase())
      return undefined
    const expires = parsed.data.session.data.expirationTime
    if (expires && Date.parse(expires) <= config.platform.now()) return undefined
    return parsed.data
  } catch {
    return undefined
  }
}

export function storeSession(config: Config, caipAddress: string, token: string, session: AuthSession): void {
  config.storage.set(StorageKey.siwxAuthToken, JSON.stringify({ caipAddress, token, session }))
}

export function clearSession(config: Config): void {
  config.storage.remove(StorageKey.siwxAuthToken)
  config.storage.remove(StorageKey.siwxNonceToken)
}

/** Whether sign-in is on and the connected account has no session yet. */
export function needsSignIn(config: Config): boolean {
  const { siwx } = config.$options.get()
  const account = config.$account.get()
  return siwx !== 'off' && account !== undefined && !storedSession(config, account.caipAddress)
}
