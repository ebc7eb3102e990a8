/**
 * The Ethereum wallet of the Farcaster app a mini app runs in, as an EIP-1193 provider over the
 * SDK's host connection (`ethProviderRequestV2`), and the host's EIP-6963 announcement of it. Written
 * here rather than taken from the SDK, whose provider brings `ox` and `eventemitter3` (shared with
 * Solana's SDK in the bundle). The host's messages come from `window.parent` (web hosts) or as
 * document events (React Native web views); each is checked with zod, and a web host's only from the
 * parent window.
 */
import * as z from 'zod/mini'
import type { Eip1193Provider, WalletInfo } from '../connectors/types.ts'

/** The parts of the SDK's host connection this uses (comlink proxies: every call is a message). */
export interface HostWalletConnection {
  ethProviderRequestV2(request: {
    jsonrpc: '2.0'
    id: number
    method: string
    params?: unknown
  }): Promise<unknown>
  eip6963RequestProvider(): Promise<void> | void
  getCapabilities(): Promise<readonly string[]>
}

const rpcAnswer = z.object({
  result: z.optional(z.unknown()),
  error: z.optional(z.object({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) })),
})

const walletInfo = z.object({
  uuid: z.string().check(z.minLength(1), z.maxLength(100)),
  name: z.string().check(z.minLength(1), z.maxLength(100)),
  icon: z.string().check(z.maxLength(200_000)),
  rdns: z.string().check(z.minLength(1), z.maxLength(255)),
})
const announcement = z.object({ event: z.literal('eip6963:announceProvider'), info: walletInfo })
const providerEvent = z.object({ event: z.string(), params: z.array(z.unknown()) })
/** What a web host posts: `{ type: 'frameEvent', event }` and `{ type: 'frameEthProviderEvent', … }`. */
const webAnnouncement = z.object({ type: z.literal('frameEvent'), event: announcement })
const webProviderEvent = z.object({
  type: z.literal('frameEthProviderEvent'),
  event: z.string(),
  params: z.array(z.unknown()),
})

/** Listens to the host's messages of one kind: a web host's from the parent window, a phone host's on the document. */
function fromHost<W, N>(
  win: Window,
  web: z.ZodMiniType<W>,
  nativeType: string,
  native: z.ZodMiniType<N>,
  onMessage: (message: W | N) => void,
): () => void {
  const onWindow = (event: MessageEvent) => {
    if (event.source !== win.parent || win.parent === win) return
    const parsed = web.safeParse(event.data)
    if (parsed.success) onMessage(parsed.data)
  }
  const onDocument = (event: Event) => {
    const parsed = native.safeParse((event as MessageEvent).data)
    if (parsed.success) onMessage(parsed.data)
  }
  win.addEventListener('message', onWindow)
  win.document.addEventListener(nativeType, onDocument)
  return () => {
    win.removeEventListener('message', onWindow)
    win.document.removeEventListener(nativeType, onDocument)
  }
}

/**
 * The host's wallet as an EIP-1193 provider: requests go to the host, its `accountsChanged` and
 * `chainChanged` come back as events.
 *
 * @example
 * const provider = hostWalletProvider(window, host)
 * await provider.request({ method: 'eth_requestAccounts' })
 */
export function hostWalletProvider(win: Window, host: HostWalletConnection): Eip1193Provider {
  const listeners = new Map<string, Set<(...args: never[]) => void>>()
  let id = 0
  const emit = (event: string, params: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) (listener as (...args: unknown[]) => void)(...params)
  }
  fromHost(win, webProviderEvent, 'FarcasterFrameEthProviderEvent', providerEvent, (message) =>
    emit(message.event, message.params),
  )
  return {
    async request({ method, params }) {
      id += 1
      const answer = rpcAnswer.safeParse(
        await host.ethProviderRequestV2({
          jsonrpc: '2.0',
          id,
          method,
          ...(params === undefined ? {} : { params }),
        }),
      )
      if (!answer.success)
        throw Object.assign(new Error('The Farcaster app gave no valid answer'), { code: -32603 })
      const { error, result } = answer.data
      if (error) throw Object.assign(new Error(error.message), { code: error.code, data: error.data })
      return result
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
    },
  }
}

/**
 * Watches for the host naming its wallet (EIP-6963 through the host: `onInfo` with each announcement)
 * and asks it to; answers once the host has replied to the ask, and how to stop watching. A host may
 * announce before or after that reply, or never (an older host).
 *
 * @example
 * const stop = await watchHostWalletInfo(window, host, (info) => list(info))
 */
export async function watchHostWalletInfo(
  win: Window,
  host: HostWalletConnection,
  onInfo: (info: WalletInfo) => void,
): Promise<() => void> {
  const stop = fromHost(win, webAnnouncement, 'FarcasterFrameEvent', announcement, (message) => {
    const info = 'type' in message ? message.event.info : message.info
    // EIP-6963 icons are data URIs (anything else could track or inject), as discovery takes them.
    onInfo({
      ...info,
      icon: /^data:image\/(svg\+xml|png|jpeg|webp|gif)[;,]/.test(info.icon) ? info.icon : '',
    })
  })
  try {
    await host.eip6963RequestProvider()
  } catch {
    // An older host: no announcements.
  }
  return stop
}
