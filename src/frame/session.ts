// The frame wallet's state: the session (token, user) and the network requests go to.
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { CustodyMode, EmbeddedUser, WalletKeyState } from '../protocol/embedded/index.ts'
import { embeddedNetworksResponse, meResponse } from '../protocol/embedded/index.ts'
import { actionNotAllowed, FrameFailure, isSessionEnded } from './failure.ts'
import type { FrameWalletDependencies } from './walletTypes.ts'

/**
 * The session the frame holds (its token never leaves it), the user it belongs to and the network
 * the frame is on. Every change of the user is drawn by the frame (`deps.identity`).
 *
 * @example
 * const session = createFrameSession(deps)
 * const user = await session.currentUser()
 */
/**
 * Who can use the wallet's keys, for the custody line: the operator too while it holds the recovery
 * share, in operator custody or after its project left it, until the person sets up their own.
 */
const keysUsableBy = (keys: WalletKeyState | undefined): CustodyMode | undefined =>
  keys?.state === 'ready' && keys.recovery.includes('operator') ? 'operator' : keys?.custody

export function createFrameSession(
  deps: Pick<FrameWalletDependencies, 'api' | 'storage' | 'chainId' | 'onSessionEnded' | 'identity'>,
) {
  const { api, storage } = deps
  let user: EmbeddedUser | undefined
  /** Where the person's keys stand, as the service last said (sign-in, `GET me`, a key step). */
  let keys: WalletKeyState | undefined
  let networks: Promise<{ caipNetworkId: string; name: string }[]> | undefined
  /** What else forgets something when the service ends the session (the key manager's memory). */
  const endedListeners = new Set<() => void>()

  const setUser = (next: EmbeddedUser | undefined) => {
    user = next
    deps.identity?.(next, keysUsableBy(keys))
  }

  const signedIn = () => {
    const current = storage.token()
    if (!current) throw actionNotAllowed()
    return current
  }

  /** A 401 means the session ended on the service: forget it. */
  async function withSession<T>(call: (token: string) => Promise<T>): Promise<T> {
    try {
      return await call(signedIn())
    } catch (error) {
      if (isSessionEnded(error)) {
        storage.setToken(undefined)
        keys = undefined
        setUser(undefined)
        for (const listener of endedListeners) listener()
        deps.onSessionEnded?.()
      }
      throw error
    }
  }

  async function currentUser(): Promise<EmbeddedUser> {
    if (user) return user
    const answer = await withSession((token) => api.request('GET', 'me', meResponse, undefined, token))
    if (answer.keys) keys = answer.keys
    // No user: the keys were never set up (a sign-in that failed half-way); nothing to answer.
    if (!answer.user) throw actionNotAllowed()
    setUser(answer.user)
    return answer.user
  }

  /** The networks the service serves, fetched once (again after a failure). */
  function servedNetworks() {
    networks ??= api
      .request('GET', 'networks', embeddedNetworksResponse)
      .then((answer) => answer.networks)
      .catch((error: unknown) => {
        networks = undefined
        throw error
      })
    return networks
  }

  const session = {
    /** The network the frame is on: the one it was loaded on until the app switches it. */
    chainId: deps.chainId,
    /** Signed in for the first time here: the site's default account type is still to apply. */
    newUser: false,
    get user() {
      return user
    },
    setUser,
    token: () => storage.token(),
    get keys() {
      return keys
    },
    /** The key state after a key step of the frame (set up, recovered) or as the service says it. */
    setKeys(next: WalletKeyState | undefined) {
      const before = keysUsableBy(keys)
      keys = next
      // The custody line is drawn with the user: redrawn when the mode is first known or changes.
      const now = keysUsableBy(next)
      if (next && now !== before) deps.identity?.(user, now)
    },
    withSession,
    /**
     * Runs `listener` each time the service answers 401 (the session ended or expired there); answers
     * the function that stops it.
     */
    onEnded(listener: () => void): () => void {
      endedListeners.add(listener)
      return () => endedListeners.delete(listener)
    },
    currentUser,
    /** Asks the service who is signed in, whatever this frame remembered. */
    refreshUser() {
      user = undefined
      return currentUser()
    },
    /** Keeps a new session: its token, its user, its keys and whether that user was just made. */
    signedInAs(next: {
      token: string
      user: EmbeddedUser
      keys: WalletKeyState
      newUser?: boolean | undefined
    }) {
      storage.setToken(next.token)
      keys = next.keys
      setUser(next.user)
      session.newUser = next.newUser === true
    },
    /** Forgets the session here; answers the token it had, if any. */
    forget(): string | undefined {
      const token = storage.token()
      storage.setToken(undefined)
      keys = undefined
      setUser(undefined)
      session.newUser = false
      return token
    },
    servedNetworks,
    async switchNetwork(next: CaipNetworkId): Promise<CaipNetworkId> {
      const served = await servedNetworks()
      if (!served.some((network) => network.caipNetworkId === next)) {
        throw new FrameFailure({ message: 'Chain is not supported', code: 4902 })
      }
      session.chainId = next
      return next
    },
  }
  return session
}

export type FrameSession = ReturnType<typeof createFrameSession>
