import * as z from 'zod/mini'
import { toBase64 } from '../protocol/base64.ts'
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { AccountTypePreview } from '../protocol/embedded/approvalWindow.ts'
import type {
  AppEvent,
  AppEventType,
  ApprovalPreview,
  EmbeddedUser,
  FrameErrorPayload,
  FrameSuccessPayload,
  FrameUser,
} from '../protocol/embedded/index.ts'
import {
  accountTypeResponse,
  approvalResponse,
  classifyRequest,
  deviceWaitResponse,
  emailConnectResponse,
  emailUpdatedResponse,
  emailUpdateResponse,
  emailVerifyResponse,
  embeddedMessages,
  embeddedNetworksResponse,
  embeddedUser,
  farcasterStartResponse,
  sessionResponse,
  socialStartResponse,
  walletRpcResponse,
} from '../protocol/embedded/index.ts'
import { ApiError, type FrameApi } from './api.ts'
import type { FrameStorage } from './storage.ts'

export type { AccountTypePreview }

/** The frame's approval view: shows a request and settles once the person decided. */
export interface ApprovalUi {
  /**
   * Shows the preview; on Approve calls `sign` and resolves with its result, on Reject (or a
   * cancel from the app) rejects with a 4001 error. Requests are shown one at a time.
   */
  show(preview: ApprovalPreview | AccountTypePreview, sign: () => Promise<unknown>): Promise<unknown>
  /** The app closed its view: reject what is shown. */
  cancel(): void
}

/** Appearance and the site's data the app sends (SYNC_THEME, SYNC_DAPP_DATA). */
export interface FrameLook {
  theme(mode: 'light' | 'dark', accent: string | undefined): void
  /** The modal's `locale` option, if it has one (else the browser's languages apply). */
  locale(locale: string | undefined): void
}

export type FrameAnswer<T extends AppEventType = AppEventType> =
  | { type: `${T}_SUCCESS`; payload: FrameSuccessPayload<T> }
  | { type: `${T}_ERROR`; payload: FrameErrorPayload }

/** An error the frame answers with: a message, an EIP-1193 or API code, and its extras. */
class FrameFailure extends Error {
  readonly payload: FrameErrorPayload
  constructor(payload: FrameErrorPayload) {
    super(payload.message)
    this.payload = payload
  }
}

const notAvailable = () => new FrameFailure({ message: embeddedMessages.notAvailable, code: 4200 })
const actionNotAllowed = () =>
  new FrameFailure({ message: embeddedMessages.actionNotAllowed, code: 'FORBIDDEN' })
const rpcNotAllowed = (method: string) =>
  new FrameFailure({ message: embeddedMessages.rpcNotAllowed, code: 4200, data: { method } })
export const userRejected = () => new FrameFailure({ message: embeddedMessages.userRejected, code: 4001 })

/** What the app hears of an API error: the service's message and code, RPC codes as numbers. */
function failureOf(error: unknown): FrameErrorPayload {
  if (error instanceof FrameFailure) return error.payload
  if (error instanceof ApiError) {
    return {
      message: error.message,
      code: error.rpcCode ?? error.code,
      ...(error.secondsLeft === undefined ? {} : { secondsLeft: error.secondsLeft }),
      ...(error.attemptsLeft === undefined ? {} : { attemptsLeft: error.attemptsLeft }),
      ...(error.rpcData === undefined ? {} : { data: error.rpcData }),
    }
  }
  return { message: 'An error occurred' }
}

export interface FrameWalletDependencies {
  api: FrameApi
  storage: FrameStorage
  approvals: ApprovalUi
  look: FrameLook
  /** The network the frame was loaded on (its URL's `chainId`). */
  chainId: CaipNetworkId
  /** The site the frame answers (the handshake's origin). */
  site: string
  log?: (message: string, details?: Record<string, unknown>) => void
  /** The service ended the session (signed out elsewhere, expired): the app disconnects. */
  onSessionEnded?: () => void
  /**
   * Who is signed in (or nobody), for the frame to draw itself: the e-mail and a social username stay
   * in the frame (issue 23 item 4b), so Account shows them through it.
   */
  identity?: (user: EmbeddedUser | undefined) => void
}

const base64url = (bytes: Uint8Array) =>
  toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/**
 * A sign-in's binding (issue 23 item 1): a secret this frame keeps in memory and the SHA-256 of it,
 * which is all `start` sends; `finish` needs the secret, so only this frame can finish the flow.
 */
async function newBinding(): Promise<{ secret: string; hash: string }> {
  const secret = base64url(crypto.getRandomValues(new Uint8Array(32)))
  const hash = base64url(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))),
  )
  return { secret, hash }
}

/**
 * The frame's wallet: one handler per app event (SPEC section 7), each settling with exactly one
 * success or error answer. It holds the session token and never lets it out: answers carry addresses
 * and signatures. The e-mail and a social username are never answered either (any script of the site
 * can open a frame of its own and ask: issue 23 item 4b); the frame draws them itself (`identity`).
 *
 * @example
 * const wallet = createFrameWallet({ api, storage, approvals, look, chainId, site })
 * port.postMessage({ id: event.id, ...(await wallet.handle(event)) })
 */
export function createFrameWallet(deps: FrameWalletDependencies) {
  const { api, storage } = deps
  let chainId = deps.chainId
  let user: EmbeddedUser | undefined
  /** The signed-in user; every change is drawn by the frame (`deps.identity`). */
  const setUser = (next: EmbeddedUser | undefined) => {
    user = next
    deps.identity?.(next)
  }
  /** Signed in for the first time here: the site's default account type is still to apply. */
  let newUser = false
  let login: { loginId: string; action: 'VERIFY_OTP' | 'VERIFY_DEVICE' } | undefined
  let social: { loginId: string; provider: string; binding: string } | undefined
  let farcaster: { loginId: string; binding: string } | undefined
  let update: { updateId: string; step: 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP' } | undefined
  let networks: Promise<{ caipNetworkId: string; name: string }[]> | undefined

  const token = () => storage.token()
  const signedIn = () => {
    const current = token()
    if (!current) throw actionNotAllowed()
    return current
  }

  /** A 401 means the session ended on the service: forget it. */
  async function withSession<T>(call: (token: string) => Promise<T>): Promise<T> {
    try {
      return await call(signedIn())
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
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

  /**
   * The user as the page sees it on `requested` (or the frame's network): on an EVM network, the
   * account requests there use (the smart account when the person prefers it and the network has one).
   */
  async function frameUserOf(value: EmbeddedUser, requested: CaipNetworkId | undefined): Promise<FrameUser> {
    const chain = requested ?? chainId
    const namespace = chain.startsWith('solana:') ? 'solana' : 'eip155'
    const evm =
      namespace === 'eip155'
        ? await withSession((current) =>
            api.request('POST', 'account-type', accountTypeResponse, { chainId: chain }, current),
          ).catch((error: unknown) => {
            // A network the service does not serve still shows the EOA; a lost session does not.
            if (error instanceof ApiError && error.status === 401) throw error
            return undefined
          })
        : undefined
    const eip155 = evm ? { address: evm.account.address, type: evm.account.type } : value.accounts.eip155
    // The e-mail stays here (issue 23 item 4b), and so does a username that is an e-mail address
    // (Apple's always is; Google's is when the account has no name). Other usernames are the social
    // username SPEC 3 has the page keep; a Farcaster username and picture are its public profile.
    const name = value.userName
    const emailLike = name !== undefined && (/^[^\s@]+@[^\s@]+$/.test(name) || name === value.email)
    const farcaster = value.identityProvider === 'farcaster'
    return {
      ...(name === undefined || emailLike ? {} : { userName: name }),
      ...(farcaster && value.userImage !== undefined ? { userImage: value.userImage } : {}),
      address: namespace === 'eip155' ? eip155.address : value.accounts.solana.address,
      chainId: chain,
      accounts: [
        { namespace: 'eip155', ...eip155 },
        { namespace: 'solana', ...value.accounts.solana },
      ],
      preferredAccountType: evm?.preferredAccountType ?? 'eoa',
      smartAccountDeployed: evm?.account.smartAccountDeployed ?? false,
    }
  }

  /** Sets the person's preferred EVM account type on the service (SPEC 4). */
  async function setAccountType(type: 'eoa' | 'smartAccount', on: CaipNetworkId = chainId) {
    await withSession((current) =>
      api.request('POST', 'account-type', accountTypeResponse, { chainId: on, type }, current),
    )
  }

  /**
   * A switch of the account type asked by the page (SET_PREFERRED_ACCOUNT, INIT_SMART_ACCOUNT): only
   * after the person approved it in the approval view, which shows the account requests use now and
   * the one they will use, as the service says (issue 23 item 4b: any script of the site can open its
   * own frame and ask). Rejected: 4001, and nothing changes. Already that type: nothing to ask.
   */
  async function switchAccountType(type: 'eoa' | 'smartAccount') {
    const on = chainId
    const now = await withSession((current) =>
      api.request('POST', 'account-type', accountTypeResponse, { chainId: on, preview: type }, current),
    )
    if (!now.preview || now.preferredAccountType === type) return
    const served = await servedNetworks().catch(() => [])
    const network = served.find((entry) => entry.caipNetworkId === on)?.name ?? on
    await deps.approvals.show(
      { kind: 'accountType', type, network, from: now.account.address, to: now.preview.address },
      () => setAccountType(type, on),
    )
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

  async function switchNetwork(next: CaipNetworkId): Promise<CaipNetworkId> {
    const served = await servedNetworks()
    if (!served.some((network) => network.caipNetworkId === next)) {
      throw new FrameFailure({ message: 'Chain is not supported', code: 4902 })
    }
    chainId = next
    return next
  }

  function signedInAs(session: { token: string; user: EmbeddedUser; newUser?: boolean | undefined }) {
    storage.setToken(session.token)
    setUser(session.user)
    newUser = session.newUser === true
    login = undefined
  }

  /** An RPC request of the page: answered here, forwarded, approved, or refused (SPEC 6). */
  async function rpc(request: {
    chainId: CaipNetworkId
    method: string
    params?: unknown
  }): Promise<unknown> {
    const namespace = request.chainId.split(':')[0] ?? ''
    const kind = classifyRequest(namespace, request.method)
    if (kind === 'refused') throw rpcNotAllowed(request.method)
    if (kind === 'notAvailable') throw notAvailable()
    const body = { chainId: request.chainId, method: request.method, params: request.params }
    if (kind === 'wallet') {
      const own = await currentUser()
      switch (request.method) {
        case 'eth_accounts':
        case 'eth_requestAccounts':
          // The account requests on this network use: the smart account when the person prefers it.
          return [(await frameUserOf(own, request.chainId)).address]
        case 'solana_getAccounts':
        case 'solana_requestAccounts':
          return [{ pubkey: own.accounts.solana.address }]
        case 'eth_chainId':
          return `0x${Number(chainId.split(':')[1]).toString(16)}`
        case 'wallet_switchEthereumChain': {
          const [{ chainId: hex } = { chainId: '' }] = (request.params ?? []) as { chainId: string }[]
          await switchNetwork(`eip155:${Number(hex)}`)
          return null
        }
      }
    }
    if (kind === 'approval') {
      const created = await withSession((current) =>
        api.request('POST', 'requests', approvalResponse, body, current),
      )
      return deps.approvals
        .show(created.preview, async () => {
          const answer = await withSession((current) =>
            api.request('POST', `requests/${created.id}/approve`, walletRpcResponse, {}, current),
          )
          return answer.result
        })
        .catch(async (error: unknown) => {
          // Rejected in the frame (or the app closed its view): the service forgets the request.
          if (error instanceof FrameFailure && error.payload.code === 4001) {
            await withSession((current) =>
              api.request('POST', `requests/${created.id}/reject`, undefined, {}, current),
            ).catch(() => {})
          }
          throw error
        })
    }
    const answer = await withSession((current) =>
      api.request('POST', 'rpc', walletRpcResponse, body, current),
    )
    return answer.result
  }

  const handlers: {
    [T in AppEventType]: (
      payload: Extract<AppEvent, { type: T }>['payload'],
    ) => Promise<FrameSuccessPayload<T>>
  } = {
    async SWITCH_NETWORK({ chainId: next }) {
      return { chainId: await switchNetwork(next) }
    },
    async CONNECT_EMAIL({ email }) {
      const answer = await api.request(
        'POST',
        'email/connect',
        emailConnectResponse,
        { email: email.trim(), deviceId: storage.deviceId(), origin: deps.site },
        token(),
      )
      if (answer.action !== 'CONNECT' && answer.loginId)
        login = { loginId: answer.loginId, action: answer.action }
      if (answer.action === 'CONNECT') login = undefined
      return {
        action: answer.action,
        ...(answer.resendAfterSeconds === undefined ? {} : { resendAfterSeconds: answer.resendAfterSeconds }),
      }
    },
    async CONNECT_DEVICE() {
      if (login?.action !== 'VERIFY_DEVICE') throw actionNotAllowed()
      const answer = await api.request('POST', 'device/wait', deviceWaitResponse, {
        loginId: login.loginId,
        deviceId: storage.deviceId(),
      })
      if (answer.status === 'approved') {
        signedInAs(answer.session)
        return {}
      }
      if (answer.status === 'denied') {
        login = undefined
        throw new FrameFailure({ message: 'The new browser was denied', code: 'DEVICE_DENIED' })
      }
      throw new FrameFailure({ message: 'Waiting for approval', code: 'DEVICE_PENDING' })
    },
    async CONNECT_OTP({ otp }) {
      if (login?.action !== 'VERIFY_OTP') throw actionNotAllowed()
      const answer = await api.request('POST', 'email/verify', emailVerifyResponse, {
        loginId: login.loginId,
        otp: otp.replace(/\s/g, ''),
        deviceId: storage.deviceId(),
      })
      if ('action' in answer) {
        // The code was right, this browser is new for the address: approved by the mailed link's page,
        // with the code the modal shows.
        login = { loginId: answer.loginId, action: 'VERIFY_DEVICE' }
        return { action: answer.action, compareCode: answer.compareCode }
      }
      signedInAs(answer)
      return {}
    },
    async CONNECT_SOCIAL({ provider, handover }) {
      if (social?.provider !== provider) throw actionNotAllowed()
      const { loginId, binding } = social
      // `handover`: what the callback page gave the browser the provider sent back to (via the modal).
      const session = await api
        .request('POST', 'social/finish', sessionResponse, {
          loginId,
          deviceId: storage.deviceId(),
          binding,
          ...(handover === undefined ? {} : { handover }),
        })
        .catch((error: unknown) => {
          // Still waiting for the provider's callback: the sign-in may be asked for again.
          if (!(error instanceof ApiError && error.code === 'SOCIAL_PENDING')) social = undefined
          throw error
        })
      social = undefined
      signedInAs(session)
      return {}
    },
    async CONNECT_FARCASTER({ step }) {
      if (step === 'start') {
        const binding = await newBinding()
        const answer = await api.request('POST', 'farcaster/start', farcasterStartResponse, {
          deviceId: storage.deviceId(),
          origin: deps.site,
          bindingHash: binding.hash,
        })
        farcaster = { loginId: answer.loginId, binding: binding.secret }
        return { url: answer.url, expiresAt: answer.expiresAt, domain: answer.domain }
      }
      if (!farcaster) throw actionNotAllowed()
      const { loginId, binding } = farcaster
      const session = await api
        .request('POST', 'farcaster/finish', sessionResponse, {
          loginId,
          deviceId: storage.deviceId(),
          binding,
        })
        .catch((error: unknown) => {
          // Not approved yet: the modal asks again; anything else ends this channel.
          if (!(error instanceof ApiError && error.code === 'FARCASTER_PENDING')) farcaster = undefined
          throw error
        })
      farcaster = undefined
      signedInAs(session)
      return {}
    },
    async GET_USER({ chainId: requested, preferredAccountType }) {
      const own = await currentUser()
      // A new user starts on the site's default account type, where the network has smart accounts
      // (elsewhere, and when the service refuses, they stay on the EOA: SPEC 4).
      if (
        newUser &&
        preferredAccountType === 'smartAccount' &&
        !(requested ?? chainId).startsWith('solana:')
      ) {
        newUser = false
        await setAccountType('smartAccount', requested ?? chainId).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 401) throw error
        })
      }
      return await frameUserOf(own, requested)
    },
    async GET_SOCIAL_REDIRECT_URI({ provider }) {
      const binding = await newBinding()
      const answer = await api.request('POST', 'social/start', socialStartResponse, {
        provider,
        deviceId: storage.deviceId(),
        origin: deps.site,
        bindingHash: binding.hash,
      })
      social = { loginId: answer.loginId, provider, binding: binding.secret }
      return { uri: answer.uri }
    },
    async SIGN_OUT({ everywhere }) {
      const current = token()
      storage.setToken(undefined)
      setUser(undefined)
      login = undefined
      update = undefined
      social = undefined
      farcaster = undefined
      newUser = false
      // Forgotten here whatever happens; a revoke the service did not confirm is an error the page shows
      // (`Failed to disconnect`), not a quiet success: that session still works until it idles out.
      // A 401 means it had already ended.
      if (current) {
        const route = everywhere ? 'sign-out-everywhere' : 'sign-out'
        await api.request('POST', route, undefined, {}, current).catch((error: unknown) => {
          if (!(error instanceof ApiError && error.status === 401)) throw error
        })
      }
      return {}
    },
    async IS_CONNECTED() {
      if (!token()) return { isConnected: false }
      try {
        user = undefined
        await currentUser()
        return { isConnected: true }
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return { isConnected: false }
        throw error
      }
    },
    async GET_CHAIN_ID() {
      return { chainId }
    },
    async GET_SMART_ACCOUNT_ENABLED_NETWORKS() {
      // SPEC 8: a failed fetch gives an empty list.
      const answer = await api.request('GET', 'networks', embeddedNetworksResponse).catch(() => undefined)
      return { smartAccountEnabledNetworks: answer?.smartAccountNetworks ?? [] }
    },
    async INIT_SMART_ACCOUNT() {
      if (chainId.startsWith('solana:')) throw notAvailable()
      await switchAccountType('smartAccount')
      return {}
    },
    async SET_PREFERRED_ACCOUNT({ type }) {
      await switchAccountType(type)
      return {}
    },
    async RPC_REQUEST(request) {
      return { result: await rpc(request) }
    },
    async UPDATE_EMAIL({ email }) {
      const answer = await withSession((current) =>
        api.request('POST', 'email/update', emailUpdateResponse, { email: email.trim() }, current),
      )
      update = { updateId: answer.updateId, step: answer.action }
      return { action: answer.action }
    },
    async UPDATE_EMAIL_PRIMARY_OTP({ otp }) {
      if (update?.step !== 'VERIFY_PRIMARY_OTP') throw actionNotAllowed()
      const { updateId } = update
      const answer = await withSession((current) =>
        api.request(
          'POST',
          'email/update/primary',
          emailUpdateResponse,
          { updateId, otp: otp.replace(/\s/g, '') },
          current,
        ),
      )
      update = { updateId, step: answer.action }
      return { action: answer.action }
    },
    async UPDATE_EMAIL_SECONDARY_OTP({ otp }) {
      if (update?.step !== 'VERIFY_SECONDARY_OTP') throw actionNotAllowed()
      const { updateId } = update
      const answer = await withSession((current) =>
        api.request(
          'POST',
          'email/update/secondary',
          emailUpdatedResponse,
          { updateId, otp: otp.replace(/\s/g, '') },
          current,
        ),
      )
      update = undefined
      if (user) setUser({ ...user, email: answer.email })
      return { email: answer.email }
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
