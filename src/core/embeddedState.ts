import type { MapStore } from 'nanostores'
import { map } from 'nanostores'
import { string } from 'zod/mini'
import { embeddedEmail } from '../protocol/embedded/email.ts'
import { StorageKey } from '../protocol/storage.ts'
import type { Config } from './config.ts'
import type { EmbeddedState } from './state/embedded.ts'

export type { EmbeddedState }

/**
 * The embedded wallet's store of a config, created on first use (a page that never uses e-mail
 * sign-in never makes it).
 *
 * @example
 * const { email, resendAt } = embeddedState(config).get()
 */
export function embeddedState(config: Config): MapStore<EmbeddedState> {
  let state = config.internal.embeddedState
  if (!state) {
    state = map<EmbeddedState>({
      frame: 'idle',
      // The address of the last e-mail sign-in, remembered across reloads (SPEC 3).
      email: config.storage.get(StorageKey.email, embeddedEmail),
      userName: config.storage.get(StorageKey.socialUsername, string()),
      userImage: undefined,
      social: undefined,
      resendAt: 0,
      approval: undefined,
      compareCode: undefined,
      exported: false,
      leaveError: undefined,
      recovery: undefined,
      securing: false,
      passkeyError: undefined,
    })
    config.internal.embeddedState = state
  }
  return state
}

/**
 * Forgets what the browser remembers of an e-mail sign-in (SPEC 3, 4): the login-email-used flag, the
 * e-mail, the social username and the smart-account networks.
 *
 * @example
 * clearLoginCache(config)
 */
export function clearLoginCache(config: Config): void {
  for (const key of [
    StorageKey.loginEmailUsed,
    StorageKey.email,
    StorageKey.socialUsername,
    StorageKey.smartAccountNetworks,
  ])
    config.storage.remove(key)
  embeddedState(config).setKey('email', undefined)
  embeddedState(config).setKey('userName', undefined)
  embeddedState(config).setKey('userImage', undefined)
  embeddedState(config).setKey('recovery', undefined)
}
