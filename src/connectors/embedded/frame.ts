import { CodeExpiredError, EmailCooldownError, InvalidCodeError } from '../../errors/email.ts'
import {
  ActionNotAllowedError,
  type EmbeddedFailureReason,
  EmbeddedRequestTimeoutError,
  EmbeddedWalletLoadError,
  FrameError,
  RpcMethodNotAllowedError,
  SomethingWentWrongError,
} from '../../errors/embedded.ts'
import type { BaseError } from '../../errors/index.ts'
import { parseRpcError, RequestAbortedError } from '../../errors/index.ts'
import { randomId } from '../../protocol/base64.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import type {
  AppEventPayload,
  AppEventType,
  FrameErrorPayload,
  FrameNotice,
  FrameSuccessPayload,
} from '../../protocol/embedded/index.ts'
import {
  embeddedMessages,
  FRAME_HANDSHAKE,
  frameAnswerEnvelope,
  frameAnswerFor,
  frameNotice,
} from '../../protocol/embedded/index.ts'
import {
  EMBEDDED_REQUEST_TIMEOUT_MS,
  EMBEDDED_SDK_VERSION,
  FRAME_HANDSHAKE_RETRY_MS,
  FRAME_LOAD_TIMEOUT_MS,
  FRAME_READY_DELAY_MS,
} from '../../protocol/embedded/limits.ts'
import { checkFramePage } from './integrity.ts'

/** The frame's states (SPEC 4): not loaded, loading, ready (its ready event), usable 500 ms later, failed. */
export type FrameStatus = 'idle' | 'loading' | 'ready' | 'usable' | 'failed'

/**
 * App events that time out after 30 s (SPEC 9): the e-mail, device, code, social and redirect-uri
 * requests, and farcaster's (the service holds a finish at most 20 s).
 */
const TIMED: ReadonlySet<AppEventType> = new Set([
  'CONNECT_EMAIL',
  'CONNECT_DEVICE',
  'CONNECT_OTP',
  'CONNECT_SOCIAL',
  'CONNECT_FARCASTER',
  'GET_SOCIAL_REDIRECT_URI',
])

export interface FrameClientOptions {
  /** The frame's URL (`frame-url`): its origin is the only one messages go to and come from. */
  frameUrl: string
  /** The frame build's published hash (`frame-integrity`): the page is checked before each load. */
  integrity?: string | undefined
  /** How the page is fetched for that check (the config's platform). */
  fetch?: typeof fetch
  projectId: string
  chainId: CaipNetworkId
  enableLogger?: boolean
  /** Where the iframe lives (the modal's shadow root). */
  container: () => ParentNode | undefined
  document: Document
  /**
   * Told why the frame gave up (`iframe_load_failed`, `iframe_request_timeout`) before the request
   * aborts; with the error when it is more precise than the reason (a page that fails its pin).
   */
  onFailure?: (reason: EmbeddedFailureReason, error?: BaseError) => void
  onStatus?: (status: FrameStatus) => void
}

export interface FrameClient {
  readonly origin: string
  status(): FrameStatus
  /** The iframe, once created. */
  element(): HTMLIFrameElement | undefined
  /** Loads the frame (once) and resolves when it is usable; rejects after 20 s without its ready event. */
  load(): Promise<void>
  /** Sends one app event and resolves with its success answer, or rejects with its error. */
  request<T extends AppEventType>(
    type: T,
    payload: AppEventPayload<T>,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<FrameSuccessPayload<T>>
  /** Listens to the frame's notices (approval view shown, resized, hidden; session ended). */
  notices(listener: (notice: FrameNotice) => void): () => void
  /** Reloads the frame with a new nonce (RELOAD). */
  reload(): Promise<void>
  /** Removes the frame; pending requests fail with `Something went wrong`. */
  destroy(): void
}

/** The service's reasons the views show in the page's language (catalogue `error.<messageId>`). */
function reasonError(code: string, message: string | undefined, secondsLeft: number | undefined) {
  switch (code) {
    // The frame could not reach the service at all.
    case 'NETWORK':
      return new SomethingWentWrongError({ details: message })
    // The service failed, or answered what the frame could not read: the spec's default frame error.
    case 'INTERNAL_ERROR':
    case 'INVALID_RESPONSE':
      return new FrameError({ reason: code, details: message })
    case 'MAIL_FAILED':
      return new FrameError({ message, reason: code, messageId: 'mailFailed' })
    case 'EMAIL_IN_USE':
      return new FrameError({ message, reason: code, messageId: 'emailInUse' })
    case 'DEVICE_DENIED':
      return new FrameError({ message, reason: code, messageId: 'deviceDenied' })
    // The person's keys (made and kept in the frame): this browser has no share of the wallet, cannot keep
    // one, or the keys the service sent open other accounts.
    case 'KEYS_NOT_ON_DEVICE':
      return new FrameError({ message, reason: code, messageId: 'keysNotOnDevice' })
    case 'STORAGE_BLOCKED':
      return new FrameError({ message, reason: code, messageId: 'storageBlocked' })
    case 'KEYS_MISMATCH':
      return new FrameError({ message, reason: code, messageId: 'keysMismatch' })
    case 'TOO_MANY_REQUESTS':
      return new FrameError({
        message,
        reason: code,
        messageId: 'tooManyRequests',
        messageValues: { seconds: secondsLeft ?? 1 },
      })
    default:
      return undefined
  }
}

/** The page-side error of a frame's error answer. */
function errorOf(type: AppEventType, payload: FrameErrorPayload, method: string | undefined): BaseError {
  const { message, code } = payload
  if (code === 'EMAIL_COOLDOWN' && payload.secondsLeft !== undefined)
    return new EmailCooldownError({ secondsLeft: payload.secondsLeft })
  if (code === 'INVALID_CODE' && payload.attemptsLeft !== undefined)
    return new InvalidCodeError({ attemptsLeft: payload.attemptsLeft })
  if (code === 'CODE_EXPIRED') return new CodeExpiredError({ details: message })
  if (message === embeddedMessages.rpcNotAllowed)
    return new RpcMethodNotAllowedError(method === undefined ? {} : { method })
  if (message === embeddedMessages.actionNotAllowed) return new ActionNotAllowedError()
  // Rejected in the frame's approval view, whatever asked (an RPC request or an account-type switch).
  if (code === 4001) return parseRpcError({ code, message }, method === undefined ? {} : { method })
  if (type === 'RPC_REQUEST' && typeof code === 'number')
    return parseRpcError({ code, message, data: payload.data }, method === undefined ? {} : { method })
  const known = typeof code === 'string' ? reasonError(code, message, payload.secondsLeft) : undefined
  return known ?? new FrameError({ message, reason: code })
}

/**
 * The page's side of the embedded-wallet frame: a hidden iframe on the frame's own origin, a
 * handshake with a fresh nonce per load posted to that exact origin, then every request over the
 * load's MessageChannel port, each matched to its one answer by id and checked with the shared
 * schemas. Nothing is ever posted with `'*'`, and no window message is read.
 *
 * @example
 * const frame = createFrameClient({ frameUrl, projectId, chainId: 'eip155:1', container, document })
 * const { action } = await frame.request('CONNECT_EMAIL', { email })
 */
export function createFrameClient(options: FrameClientOptions): FrameClient {
  const origin = new URL(options.frameUrl).origin
  let status: FrameStatus = 'idle'
  let iframe: HTMLIFrameElement | undefined
  let port: MessagePort | undefined
  let loading: Promise<void> | undefined
  let sequence = 0
  const noticeListeners = new Set<(notice: FrameNotice) => void>()
  const pending = new Map<
    string,
    {
      type: AppEventType
      method: string | undefined
      resolve(value: unknown): void
      reject(error: unknown): void
    }
  >()

  const setStatus = (next: FrameStatus) => {
    status = next
    options.onStatus?.(next)
  }

  const failPending = (error: () => BaseError) => {
    for (const [id, entry] of pending) {
      pending.delete(id)
      entry.reject(error())
    }
  }

  function onPortMessage(event: MessageEvent) {
    const notice = frameNotice.safeParse(event.data)
    if (notice.success) {
      if (notice.data.type !== 'FRAME_READY') for (const listener of noticeListeners) listener(notice.data)
      return
    }
    const envelope = frameAnswerEnvelope.safeParse(event.data)
    if (!envelope.success) return
    const entry = pending.get(envelope.data.id)
    if (!entry) return
    const answer = frameAnswerFor(entry.type).safeParse(event.data)
    if (!answer.success) return
    // Exactly one answer per request: the first that fits settles it.
    pending.delete(envelope.data.id)
    if (answer.data.type.endsWith('_SUCCESS')) entry.resolve(answer.data.payload)
    else entry.reject(errorOf(entry.type, answer.data.payload as FrameErrorPayload, entry.method))
  }

  /**
   * One load of the frame: a new iframe (a fresh browsing context, so a new nonce never rides a
   * fragment-only navigation), a new nonce and channel, a ready event within 20 s, then 500 ms.
   */
  function startLoad(): Promise<void> {
    const nonce = randomId()
    const url = new URL(options.frameUrl)
    url.search = new URLSearchParams({
      projectId: options.projectId,
      chainId: options.chainId,
      version: String(EMBEDDED_SDK_VERSION),
      enableLogger: String(options.enableLogger === true),
    }).toString()
    port?.close()
    port = undefined
    iframe?.remove()
    iframe = undefined
    setStatus('loading')
    const { integrity } = options
    if (!integrity) return mount(url, nonce)
    // A pinned build: the page the iframe will load is checked first, and never loaded if it differs.
    return checkFramePage(options.fetch ?? fetch, url.href, integrity).then(
      () =>
        status === 'loading'
          ? mount(url, nonce)
          : Promise.reject(new SomethingWentWrongError({ details: 'The frame was removed' })),
      (error: BaseError) => {
        setStatus('failed')
        options.onFailure?.('iframe_load_failed', error)
        throw error
      },
    )
  }

  /**
   * The iframe of one load, at `url` with this load's nonce in its fragment. The handshake is offered
   * when the iframe's load event arrives and, until the frame answers, again every 250 ms: Chromium
   * does not always tell the page that a cross-site frame loaded, though the frame runs and listens.
   * Each offer carries a new channel, sent to the frame's exact origin only; the frame takes the
   * first (its nonce once), and the channel it answers on is kept, the others closed.
   */
  function mount(url: URL, nonce: string): Promise<void> {
    url.hash = `nonce=${nonce}`
    return new Promise<void>((resolve, reject) => {
      const doc = options.document
      const frame = doc.createElement('iframe')
      const offers = new Set<MessagePort>()
      let loaded = false
      const stopOffering = () => {
        clearInterval(reoffer)
        for (const offered of offers) offered.close()
        offers.clear()
      }
      const timer = setTimeout(() => {
        stopOffering()
        setStatus('failed')
        options.onFailure?.('iframe_load_failed')
        reject(new EmbeddedWalletLoadError({ details: `No ready event from ${origin} within 20 s` }))
      }, FRAME_LOAD_TIMEOUT_MS)
      const offer = () => {
        if (iframe !== frame) return stopOffering()
        const target = frame.contentWindow
        if (status !== 'loading' || !target) return
        const channel = new MessageChannel()
        const local = channel.port1
        offers.add(local)
        local.onmessage = (event: MessageEvent) => {
          const notice = frameNotice.safeParse(event.data)
          if (!notice.success || notice.data.type !== 'FRAME_READY' || notice.data.payload.nonce !== nonce)
            return
          offers.delete(local)
          stopOffering()
          clearTimeout(timer)
          local.onmessage = onPortMessage
          port = local
          setStatus('ready')
          setTimeout(() => {
            if (iframe !== frame) return
            setStatus('usable')
            resolve()
          }, FRAME_READY_DELAY_MS)
        }
        // Before the frame's page is there, the target is about:blank of the page's origin: dropped.
        target.postMessage({ type: FRAME_HANDSHAKE, nonce }, origin, [channel.port2])
      }
      const reoffer = setInterval(offer, FRAME_HANDSHAKE_RETRY_MS)
      frame.addEventListener('load', () => {
        if (iframe !== frame) return
        const first = !loaded
        loaded = true
        if (status === 'loading') return offer()
        // A later load, once ready, is the frame reloading by itself: it lost the port, and what it was asked.
        if (!first && (status === 'usable' || status === 'ready')) reloaded()
      })
      iframe = frame
      frame.title = 'Wallet'
      frame.id = 'wallet-frame'
      frame.setAttribute('data-wallet-frame', '')
      // Out of sight (but not display:none, which some browsers throttle) until the approval view lays it out.
      frame.style.cssText =
        'position:fixed;right:0;bottom:0;width:1px;height:1px;opacity:0;pointer-events:none;border:0;clip-path:inset(50%)'
      frame.setAttribute('referrerpolicy', 'no-referrer')
      // Its own origin, scripts and storage; no top navigation, no forms. Popups, unsandboxed: where the
      // engine cannot say what is drawn (no IOv2), the frame opens its approval window on its own origin.
      frame.setAttribute(
        'sandbox',
        'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox',
      )
      // Passkeys (WebAuthn) run on the frame's origin, and the export view's Copy buttons
      // write to the clipboard from it: a cross-origin frame needs the page's permission.
      frame.setAttribute(
        'allow',
        'publickey-credentials-get *; publickey-credentials-create *; clipboard-write',
      )
      frame.setAttribute('aria-hidden', 'true')
      frame.tabIndex = -1
      frame.src = url.href
      ;(options.container() ?? doc.body).append(frame)
    })
  }

  /**
   * The frame reloaded on its own: every pending request fails with `Something went wrong` (its
   * answer will never come), what it showed for approval is gone, and a new load with a new nonce
   * starts (the frame signs back in from its own storage).
   */
  function reloaded(): void {
    failPending(() => new SomethingWentWrongError({ details: 'The frame reloaded' }))
    for (const listener of noticeListeners) listener({ type: 'APPROVAL_HIDE', payload: {} })
    loading = undefined
    void client.load().catch(() => {})
  }

  const client: FrameClient = {
    origin,
    status: () => status,
    element: () => iframe,
    load() {
      loading ??= startLoad().catch((error: unknown) => {
        loading = undefined
        throw error
      })
      return loading
    },
    async request(type, payload, requestOptions = {}) {
      const { signal } = requestOptions
      if (signal?.aborted) throw new RequestAbortedError()
      await client.load()
      // Aborted while the frame loaded: never sent.
      if (signal?.aborted) throw new RequestAbortedError()
      const current = port
      if (!current) throw new SomethingWentWrongError({ details: 'The frame has no channel' })
      const id = `${++sequence}-${randomId()}`
      const method = type === 'RPC_REQUEST' ? (payload as AppEventPayload<'RPC_REQUEST'>).method : undefined
      return new Promise<FrameSuccessPayload<typeof type>>((resolve, reject) => {
        let timer: ReturnType<typeof setTimeout> | undefined
        const onAbort = () => settle(() => reject(new RequestAbortedError()))
        const settle = (outcome: () => void) => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', onAbort)
          pending.delete(id)
          outcome()
        }
        pending.set(id, {
          type,
          method,
          resolve: (value) => settle(() => resolve(value as FrameSuccessPayload<typeof type>)),
          reject: (error) => settle(() => reject(error)),
        })
        signal?.addEventListener('abort', onAbort, { once: true })
        if (TIMED.has(type)) {
          timer = setTimeout(() => {
            options.onFailure?.('iframe_request_timeout')
            settle(() => reject(new EmbeddedRequestTimeoutError({ type })))
          }, EMBEDDED_REQUEST_TIMEOUT_MS)
        }
        current.postMessage({ id, type, payload })
      })
    },
    notices(listener) {
      noticeListeners.add(listener)
      return () => noticeListeners.delete(listener)
    },
    async reload() {
      await client.request('RELOAD', {})
      failPending(() => new SomethingWentWrongError({ details: 'The frame reloaded' }))
      loading = undefined
      await client.load()
    },
    destroy() {
      failPending(() => new SomethingWentWrongError({ details: 'The frame was removed' }))
      port?.close()
      port = undefined
      iframe?.remove()
      iframe = undefined
      loading = undefined
      setStatus('idle')
    },
  }
  return client
}
