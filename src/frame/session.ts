// The frame wallet's state: the session (token, user) and the network requests go to.
import * as z from 'zod/mini'
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { EmbeddedUser } from '../protocol/embedded/index.ts'
import { embeddedNetworksResponse, embeddedUser } from '../protocol/embedded/index.ts'
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
export function createFrameSession(
  deps: Pick<FrameWalletDependencies, 'api' | 'storage' | 'chainId' | 'onSessionEnded' | 'identity'>,
) {
  const { api, storage } = deps
  let user: EmbeddedUser | undefined
  let networks: Promise<{ caipNetworkId: string; name: string }[]> | undefined

  const setUser = (next: EmbeddedUser | undefined) => {
    user = next
    deps.identity?.(next)
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
        setUser(undefined)
        deps.onSessionEnded?.()
      }
      throw error
    }
  }

  async function currentUser(): Promise<EmbeddedUser> {
    if (user) return user
    const answer = await withSession((token) =>
      api.request('GET', 'me', z.object({ user: embeddedUser }), undefined, token),
    )
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
    withSession,
    currentUser,
    /** Asks the service who is signed in, whatever this frame remembered. */
    refreshUser() {
      user = undefined
      return currentUser()
    },
    /** Keeps a new session: its token, its user and whether that user was just made. */
    signedInAs(next: { token: string; user: EmbeddedUser; newUser?: boolean | undefined }) {
      storage.setToken(next.token)
      setUser(next.user)
      session.newUser = next.newUser === true
    },
    /** Forgets the session here; answers the token it had, if any. */
    forget(): string | undefined {
      const token = storage.token()
      storage.setToken(undefined)
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
