import type { MapStore } from 'nanostores'
import { map } from 'nanostores'
import { string } from 'zod/mini'
import type { FrameStatus } from '../connectors/embedded/frame.ts'
import { embeddedEmail } from '../protocol/embedded/email.ts'
import { StorageKey } from '../protocol/storage.ts'
import type { Config } from './config.ts'

/** The embedded wallet as the views see it (its frame, the e-mail in use, the approval view). */
export interface EmbeddedState {
  frame: FrameStatus
  /** The address being signed in with, or the signed-in user's. */
  email: string | undefined
  /** The social username of a social sign-in (SPEC 3), shown on Account when there is no e-mail. */
  userName: string | undefined
  /** The profile picture of a Farcaster sign-in, shown on Account beside the username. */
  userImage: string | undefined
  /** The social provider whose sign-in window is open. */
  social: string | undefined
  /** When another code or link may be mailed (ms since the epoch; SPEC 5: 30 s). */
  resendAt: number
  /** While the frame shows a request for approval: the height it needs. */
  approval: { height: number } | undefined
  /**
   * A new browser for a known address (VERIFY_DEVICE, after its code was proven): the code this
   * browser shows, which the person types on the mailed link's page to approve it.
   */
  compareCode: string | undefined
}

const states = new WeakMap<Config, MapStore<EmbeddedState>>()

/**
 * The embedded wallet's store of a config, created on first use (a page that never uses e-mail
 * sign-in never makes it).
 *
 * @example
 * const { email, resendAt } = embeddedState(config).get()
 */
export function embeddedState(config: Config): MapStore<EmbeddedState> {
  let state = states.get(config)
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
    })
    states.set(config, state)
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
}
