// The Demo Wallet's EVM side, its shapes: what it is built from, the EIP-1193 provider and EIP-6963 info
// it hands out, the test controls.
import type { Address } from 'viem'
import type { BitcoinWalletControls } from '../bitcoin-wallet.ts'
import type { PromptQueue } from '../prompt.ts'
import type { SolanaWalletControls } from '../solana-wallet.ts'

/** How the wallet answers every request; for testing how the page copes with bad wallets. */
export type DemoWalletBehavior = 'normal' | 'throw' | 'hang' | 'garbage'
export type DemoWalletMode = 'eip6963' | 'legacy' | 'off'

export type RequestArguments = { readonly method: string; readonly params?: readonly unknown[] | object }
export type ProviderEvent = 'accountsChanged' | 'chainChanged' | 'connect' | 'disconnect' | 'message'
// biome-ignore lint/suspicious/noExplicitAny: EIP-1193 listeners take event-specific arguments.
export type ProviderListener = (...args: any[]) => void

/** The EIP-1193 provider the wallet hands to pages. */
export type DemoWalletProvider = {
  readonly isDemoWallet: true
  request(args: RequestArguments): Promise<unknown>
  on(event: ProviderEvent | (string & {}), listener: ProviderListener): DemoWalletProvider
  removeListener(event: ProviderEvent | (string & {}), listener: ProviderListener): DemoWalletProvider
  /** Same as removeListener. */
  off(event: ProviderEvent | (string & {}), listener: ProviderListener): DemoWalletProvider
}

/** EIP-6963 provider info. */
export type DemoWalletInfo = Readonly<{ uuid: string; name: string; icon: string; rdns: string }>

/**
 * Test controls, on `window.demoWallet`.
 *
 * @example
 * await page.evaluate(() => window.demoWallet?.autoApprove(true))
 * await page.evaluate(() => window.demoWallet?.switchChain(1)) // page sees chainChanged '0x1'
 */
export type DemoWalletControls = {
  readonly provider: DemoWalletProvider
  readonly info: DemoWalletInfo
  /** Address of the current dev account. */
  readonly address: Address
  /** Current chain id (decimal). */
  readonly chainId: number
  readonly behavior: DemoWalletBehavior
  /** Whether the page's origin is connected (authorized). */
  readonly authorized: boolean
  /**
   * - `normal`: a working wallet
   * - `throw`: every request rejects with `{ code: -32603, message: 'Demo Wallet internal error' }`
   * - `hang`: requests never settle
   * - `garbage`: requests resolve with malformed values (`{ foo: 1 }` for accounts, `'not-a-chain'`
   *   for `eth_chainId` and `net_version`, `{ foo: 1 }` for everything else)
   */
  setBehavior(behavior: DemoWalletBehavior): void
  /** While on, prompts are approved at once (queued ones too) and never shown. */
  autoApprove(on: boolean): void
  /** Uses dev account `index`; emits `accountsChanged` when the page is connected. */
  switchAccount(index: number): void
  /** Switches from the wallet side, to any chain id (even one without RPC); always emits `chainChanged`. */
  switchChain(chainId: number): void
  /** Forgets the page's authorization; emits `disconnect` (code 4900) and `accountsChanged` with `[]`. */
  disconnect(): void
  /** Prompts not yet answered, the one shown included. */
  pending(): number
  /** Clicks Approve on the prompt shown; `false` when there is none. */
  approve(): boolean
  /** Clicks Reject on the prompt shown; `false` when there is none. */
  reject(): boolean
  /**
   * Forgets authorization and added chains (localStorage), the Solana side's too, like reinstalling the
   * extension.
   */
  reset(): void
  /** The Solana side (a Wallet Standard wallet); absent with `?demoSolana=off` or when built without it. */
  readonly solana?: SolanaWalletControls
  /** The Bitcoin side (Wallet Standard and WBIP004); absent with `?demoBitcoin=off` or when built without it. */
  readonly bitcoin?: BitcoinWalletControls
}

export type CreateDemoWalletParameters = {
  /** The page origin the wallet authorizes (default `location.origin`). */
  origin: string
  accountIndex?: number
  chainId?: number
  behavior?: DemoWalletBehavior
  autoApprove?: boolean
  /** RPC URL of chain 31337. */
  localRpcUrl?: string
  /** Where authorization and added chains persist; none means memory only. */
  storage?: Storage | undefined
  /** Where prompts render; none means prompts cannot show (use autoApprove). */
  document?: Document | undefined
  /** A prompt queue to share (with the Solana side); when given, `document` is not used. */
  prompts?: PromptQueue | undefined
  /** The Solana side's controls, exposed as `controls.solana` and reset with the rest. */
  solana?: SolanaWalletControls | undefined
  /** The Bitcoin side's controls, exposed as `controls.bitcoin` and reset with the rest. */
  bitcoin?: BitcoinWalletControls | undefined
}
