/**
 * Farcaster mini apps: a site opened inside a Farcaster client (its web app's iframe, or its phone
 * app's React Native web view) talks to that host through `@farcaster/miniapp-sdk` (MIT). The host
 * signs a Sign In With Farcaster message for the site itself (no QR code, no relay) and offers its
 * own Ethereum wallet. The SDK's host connection is loaded only where a host can be (framed, or in a
 * React Native web view), and asked there whether one answers; every other page fetches none of it.
 *
 * Only the SDK's host connection (`miniAppHost`: comlink over `postMessage`, 3 KB) is used. Its `sdk`
 * object imports `@farcaster/miniapp-core` whole, which carries zod's classic API and Solana's SDK
 * (bundled beside the modal's `zod/mini`, the shared zod core grew the first paint by 7 KB), and its
 * Ethereum provider brings `ox` and `eventemitter3`. `isInMiniApp` and `actions.signIn` are the SDK's
 * own few lines over the connection, done here the same way; the wallet is ./farcasterHostWallet.ts.
 * The version is pinned: these are its files.
 *
 * The SDK talks to `window.parent` without an origin check (any page that frames the site could
 * answer as a host), so nothing it says is trusted: the sign-in's message is verified by the service
 * (our nonce, the site's domain, the fid's keys on chain), and the host's wallet is one more browser
 * wallet the person chooses, as any extension's.
 */
import { createInjectedConnector } from '../connectors/injected/connector.ts'
import type { Connector } from '../connectors/types.ts'
import type { Config } from './config.ts'
import { hostWalletProvider, watchHostWalletInfo } from './farcasterHostWallet.ts'

/** Where a Farcaster host can be: the SDK's own first test (framed, or React Native's bridge). */
export function mayBeMiniApp(win: Window | undefined): boolean {
  if (!win) return false
  try {
    return win.parent !== win || 'ReactNativeWebView' in win
  } catch {
    return false
  }
}

/** The SDK's host connection, in a chunk of its own. */
export const loadMiniAppHost = () =>
  import('@farcaster/miniapp-sdk/dist/miniAppHost.js').then((module) => module.miniAppHost)

/** How long the host has to answer with its context (the SDK's `isInMiniApp` waits as long). */
const HOST_ANSWER_MS = 1000

/**
 * Whether the page runs in a Farcaster mini app: `false` at once where no host can be; elsewhere the
 * host is asked for its context (no answer within 1 s, as the SDK waits: no mini app), once per config. Inside one, the host's wallet is among
 * the browser wallets by the time this answers.
 *
 * @example
 * if (await inFarcasterMiniApp(config)) showMiniAppSignIn()
 */
export function inFarcasterMiniApp(config: Config): Promise<boolean> {
  const known = config.internal.farcasterMiniApp
  if (known) return known
  const win = config.platform.window
  // Inside, the host's wallet is offered before the answer, so a caller sees the wallets settled.
  const answer =
    win && mayBeMiniApp(win)
      ? loadMiniAppHost()
          .then((host) =>
            Promise.race([
              Promise.resolve(host.context).then((context) => !!context),
              new Promise<boolean>((resolve) => setTimeout(() => resolve(false), HOST_ANSWER_MS)),
            ]),
          )
          .then(async (inside) => {
            if (inside) await offerHostWallet(config, win).catch(() => {})
            return inside
          })
          .catch(() => false)
      : Promise.resolve(false)
  config.internal.farcasterMiniApp = answer
  return answer
}

/** How the host's wallet is named where the host does not name it itself (older hosts). */
const HOST_WALLET = {
  id: 'xyz.farcaster.miniapp',
  name: 'Farcaster Wallet',
  icon: `data:image/svg+xml,${encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#6a3cff"/><path fill="#fff" d="M9 8h14v16h-3v-7a4 4 0 0 0-8 0v7H9z"/></svg>',
  )}`,
}

/**
 * Lists the host's wallet among the browser wallets (one connector of this modal's, on one provider):
 * named as the host announces it (EIP-6963 through the host, whenever it does), or, while it has not
 * and it has a wallet (`wallet.getEthereumProvider` among its capabilities; an older host without
 * capabilities is taken to have one, as the SDK takes it), under Farcaster's name.
 */
async function offerHostWallet(config: Config, win: Window): Promise<void> {
  const host = await loadMiniAppHost()
  const provider = hostWalletProvider(win, host)
  const extra = config.internal.connectorsExtra
  let listed: Connector | undefined
  let named = false
  const list = (wallet: { id: string; name: string; icon: string; rdns: string }) => {
    const connector = createInjectedConnector({ ...wallet, provider })
    extra.set([...extra.get().filter((each) => each !== listed), connector])
    listed = connector
  }
  // Watched for the page's life: a host may name its wallet at any time.
  await watchHostWalletInfo(win, host, (info) => {
    named = true
    list({ id: info.rdns, name: info.name, icon: info.icon, rdns: info.rdns })
  })
  if (named) return
  const capabilities = await Promise.resolve(host.getCapabilities()).catch(() => undefined)
  if (named || (capabilities && !capabilities.includes('wallet.getEthereumProvider'))) return
  list({ ...HOST_WALLET, rdns: HOST_WALLET.id })
}
