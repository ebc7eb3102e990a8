/**
 * Installing the Demo Wallet on a page, like a browser extension injecting itself: both sides, from the
 * page's URL parameters.
 *
 * Page URL parameters (read once at load):
 * - `demoWallet=eip6963 | legacy | off` (default eip6963); `off` turns off the Solana side too,
 *   `legacy` keeps it registered
 * - `demoAccount=N`: index of the dev account, EVM and Solana (default 0)
 * - `demoChain=N`: chain id to start on, decimal or 0x-hex (default 31337); a chain the wallet knows
 *   only by id (e.g. 1) answers `eth_chainId` but fails reads, to test unsupported networks
 * - `demoBehavior=normal | throw | hang | garbage` (EVM side only)
 * - `demoAutoApprove=1`: approve every prompt without showing it
 * - `demoSolana=off`: skip the Solana registration (an EVM-only wallet)
 * - `demoBitcoin=off | standard | wbip`: skip the Bitcoin side, or register it only through the Wallet
 *   Standard or only through the WBIP004 registry (default: both, under the same name)
 *
 */

import { createBitcoinWallet, registerStandardWallet, registerWbipProvider } from './bitcoin-wallet.ts'
import { createDemoWallet, type DemoWalletBehavior, type DemoWalletControls } from './demo-wallet.ts'
import { DEFAULT_CHAIN_ID } from './evm/chains.ts'
import { DEMO_WALLET_ICON, DEMO_WALLET_NAME } from './identity.ts'
import { createPromptQueue } from './prompt.ts'
import { createSolanaWallet, registerSolanaWallet } from './solana-wallet.ts'

/**
 * Installs the Demo Wallet on a window from its URL parameters (see the module comment): the EVM side
 * (EIP-6963 or `window.ethereum`) and the Solana side (Wallet Standard), sharing one prompt queue.
 * Returns the controls, or `undefined` with `?demoWallet=off`.
 *
 * @example
 * installDemoWallet(window)
 */
export function installDemoWallet(win: Window): DemoWalletControls | undefined {
  const search = new URLSearchParams(win.location.search)
  const mode = search.get('demoWallet') ?? 'eip6963'
  if (mode === 'off') return undefined
  if (mode !== 'eip6963' && mode !== 'legacy') {
    console.warn(`Demo Wallet: unknown demoWallet=${mode}; using eip6963`)
  }
  const behavior = search.get('demoBehavior') ?? 'normal'
  const env: Partial<Record<string, unknown>> | undefined = import.meta.env
  const localRpcUrl = env?.VITE_LOCAL_RPC_URL
  const localSolanaRpcUrl = env?.VITE_LOCAL_SOLANA_RPC_URL
  const localBitcoinUrl = env?.VITE_LOCAL_BITCOIN_URL
  const origin = win.location.origin
  const accountIndex = intParam(search.get('demoAccount'), 0)
  const storage = safeLocalStorage(win)

  // One queue for both sides, so one prompt shows at a time and demoWallet.approve() answers either.
  const prompts = createPromptQueue({
    document: win.document,
    name: DEMO_WALLET_NAME,
    icon: DEMO_WALLET_ICON,
  })
  const solana =
    search.get('demoSolana') === 'off'
      ? undefined
      : createSolanaWallet({
          origin,
          accountIndex,
          storage,
          ask: (request) => prompts.ask(request),
          ...(typeof localSolanaRpcUrl === 'string' && localSolanaRpcUrl
            ? { localRpcUrl: localSolanaRpcUrl }
            : {}),
        })

  const bitcoinMode = search.get('demoBitcoin') ?? 'both'
  const bitcoin =
    bitcoinMode === 'off'
      ? undefined
      : createBitcoinWallet({
          origin,
          accountIndex,
          storage,
          ask: (request) => prompts.ask(request),
          ...(typeof localBitcoinUrl === 'string' && localBitcoinUrl ? { nodeUrl: localBitcoinUrl } : {}),
        })

  const { provider, controls } = createDemoWallet({
    origin,
    accountIndex,
    chainId: intParam(search.get('demoChain'), DEFAULT_CHAIN_ID),
    behavior: isBehavior(behavior) ? behavior : 'normal',
    autoApprove: ['1', 'true'].includes(search.get('demoAutoApprove') ?? ''),
    ...(typeof localRpcUrl === 'string' && localRpcUrl ? { localRpcUrl } : {}),
    storage,
    prompts,
    solana: solana?.controls,
    bitcoin: bitcoin?.controls,
  })
  win.demoWallet = controls
  if (solana) registerSolanaWallet(win, solana.wallet)
  if (bitcoin && bitcoinMode !== 'wbip') registerStandardWallet(win, bitcoin.wallet)
  if (bitcoin && bitcoinMode !== 'standard') registerWbipProvider(win, bitcoin.info, bitcoin.provider)

  if (mode === 'legacy') {
    // Not declared on Window here, so this file never fights the connectors' own declaration.
    Object.defineProperty(win, 'ethereum', { value: provider, configurable: true, writable: true })
    return controls
  }

  const detail = Object.freeze({ info: controls.info, provider })
  const announce = () => win.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  win.addEventListener('eip6963:requestProvider', announce)
  announce()
  return controls
}

function isBehavior(value: string): value is DemoWalletBehavior {
  return value === 'normal' || value === 'throw' || value === 'hang' || value === 'garbage'
}

function intParam(raw: string | null, fallback: number): number {
  if (raw === null || raw === '') return fallback
  const value = Number(raw)
  return Number.isSafeInteger(value) && value >= 0 ? value : fallback
}

// Storage (read back defensively: it is data from an earlier version or another tab)

function safeLocalStorage(win: Window): Storage | undefined {
  try {
    return win.localStorage
  } catch {
    return undefined
  }
}
