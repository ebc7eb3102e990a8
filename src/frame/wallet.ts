import type { AppEvent, AppEventType, FrameSuccessPayload } from '../protocol/embedded/index.ts'
import { embeddedNetworksResponse } from '../protocol/embedded/index.ts'
import { createFrameAccounts } from './account.ts'
import { createEmailUpdate } from './emailUpdate.ts'
import { failureOf, isSessionEnded, notAvailable } from './failure.ts'
import { lazyKeyring } from './lazyKeyring.ts'
import { createLeave } from './leave.ts'
import { createPasskeys } from './passkeys.ts'
import { createFramePermissions } from './permissions.ts'
import { createFrameRpc } from './rpc.ts'
import { createSecureWallet } from './secureWallet.ts'
import { createFrameSession } from './session.ts'
import { createSignIn } from './signIn.ts'
import type { FrameAnswer, FrameHandlers, FrameWalletDependencies } from './walletTypes.ts'

export { userRejected } from './failure.ts'
export type {
  AccountTypePreview,
  ApprovalUi,
  FrameAnswer,
  FrameLook,
  FrameWalletDependencies,
} from './walletTypes.ts'

/**
 * The frame's wallet: one handler per app event (SPEC section 7), each settling with exactly one
 * success or error answer. It holds the session token and never lets it out: answers carry addresses
 * and signatures. The e-mail and a social username are never answered either (any script of the site
 * can open a frame of its own and ask); the frame draws them itself (`identity`).
 *
 * @example
 * const wallet = createFrameWallet({ api, storage, approvals, look, chainId, site })
 * port.postMessage({ id: event.id, ...(await wallet.handle(event)) })
 */
export function createFrameWallet(deps: FrameWalletDependencies) {
  const { api } = deps
  const session = createFrameSession(deps)
  const keyring = lazyKeyring(session, deps)
  const accounts = createFrameAccounts(session, deps, keyring)
  const signIn = createSignIn(session, deps, keyring)
  const emailUpdate = createEmailUpdate(session, deps)
  const passkeys = createPasskeys(session, deps, signIn.signedInAs)
  const permissions = createFramePermissions(session, deps, deps.sessionKeys)
  const rpc = createFrameRpc(session, accounts, deps, keyring, permissions)
  const secure = createSecureWallet(
    session,
    keyring,
    deps.recoveryUi,
    deps.webauthn && deps.passkeyUi ? { webauthn: deps.webauthn, ...passkeys } : undefined,
  )
  const leave = createLeave(session, deps, {
    ui: deps.exportUi,
    keyring,
    // The wallet is gone from the service: forget it here (this browser's share too), and the app
    // disconnects.
    ended: async () => {
      await keyring.deleteDeviceShare(session.keys?.userId).catch(() => {})
      session.forget()
      signIn.reset()
      emailUpdate.reset()
      deps.onSessionEnded?.()
    },
  })

  const handlers: FrameHandlers<AppEventType> = {
    ...signIn.handlers,
    ...emailUpdate.handlers,
    ...leave.handlers,
    ...secure.handlers,
    ...passkeys.handlers,
    async SWITCH_NETWORK({ chainId: next }) {
      return { chainId: await session.switchNetwork(next) }
    },
    async GET_USER({ chainId: requested, preferredAccountType }) {
      const own = await session.currentUser()
      // A new user starts on the site's default account type, where the network has smart accounts
      // (elsewhere, and when the service refuses, they stay on the EOA: SPEC 4).
      if (
        session.newUser &&
        preferredAccountType === 'smartAccount' &&
        (requested ?? session.chainId).startsWith('eip155:')
      ) {
        session.newUser = false
        await accounts
          .setAccountType('smartAccount', requested ?? session.chainId)
          .catch((error: unknown) => {
            if (isSessionEnded(error)) throw error
          })
      }
      return await accounts.frameUserOf(own, requested)
    },
    async SIGN_OUT({ everywhere }) {
      const current = session.forget()
      // The device share stays: it is this browser's, and signing in here again needs it.
      keyring.forget()
      signIn.reset()
      emailUpdate.reset()
      // Forgotten here whatever happens; a revoke the service did not confirm is an error the page shows
      // (`Failed to disconnect`), not a quiet success: that session still works until it idles out.
      // A 401 means it had already ended.
      if (current) {
        const route = everywhere ? 'sign-out-everywhere' : 'sign-out'
        await api.request('POST', route, undefined, {}, current).catch((error: unknown) => {
          if (!isSessionEnded(error)) throw error
        })
      }
      return {}
    },
    async IS_CONNECTED() {
      if (!session.token()) return { isConnected: false }
      try {
        await session.refreshUser()
        return { isConnected: true }
      } catch (error) {
        if (isSessionEnded(error)) return { isConnected: false }
        throw error
      }
    },
    async GET_CHAIN_ID() {
      return { chainId: session.chainId }
    },
    async GET_SMART_ACCOUNT_ENABLED_NETWORKS() {
      // SPEC 8: a failed fetch gives an empty list.
      const answer = await api.request('GET', 'networks', embeddedNetworksResponse).catch(() => undefined)
      return { smartAccountEnabledNetworks: answer?.smartAccountNetworks ?? [] }
    },
    async INIT_SMART_ACCOUNT() {
      if (session.chainId.startsWith('solana:')) throw notAvailable()
      await accounts.switchAccountType('smartAccount')
      return {}
    },
    async SET_PREFERRED_ACCOUNT({ type }) {
      await accounts.switchAccountType(type)
      return {}
    },
    async RPC_REQUEST(request) {
      return { result: await rpc(request) }
    },
    async SYNC_THEME({ themeMode, accent }) {
      deps.look.theme(themeMode, accent)
      return {}
    },
    async SYNC_DAPP_DATA({ locale }) {
      deps.look.locale(locale)
      return {}
    },
    async RELOAD() {
      return {}
    },
    async CANCEL_APPROVAL() {
      deps.approvals.cancel()
      leave.cancel()
      secure.cancel()
      passkeys.cancel()
      return {}
    },
  }

  return {
    /** Handles one app event; always settles with its one answer. */
    async handle<T extends AppEventType>(event: Extract<AppEvent, { type: T }>): Promise<FrameAnswer<T>> {
      const handler = handlers[event.type] as (payload: unknown) => Promise<FrameSuccessPayload<T>>
      try {
        const payload = await handler(event.payload)
        deps.log?.('answered', { type: event.type })
        return { type: `${event.type}_SUCCESS`, payload } as FrameAnswer<T>
      } catch (error) {
        const payload = failureOf(error)
        deps.log?.('failed', { type: event.type, code: payload.code })
        return { type: `${event.type}_ERROR`, payload } as FrameAnswer<T>
      }
    },
  }
}

export type FrameWallet = ReturnType<typeof createFrameWallet>
