// What the Wallet Standard connector tests share: the Demo Wallet's sides, hand-made minimal wallets and
// features, constants.
import type { IdentifierString, Wallet, WalletAccount } from '@wallet-standard/base'
import type {
  DemoWalletProvider,
  ProviderListener,
  RequestArguments,
} from '../../../demo/wallets/demo-wallet.ts'
import type { PromptRequest } from '../../../demo/wallets/prompt.ts'
import { createSolanaWallet } from '../../../demo/wallets/solana-wallet.ts'
import { devKeypair } from '../../../server/dev/solana/index.ts'
import type { Connector, Eip1193Provider } from '../../../src/connectors/types.ts'

export const ORIGIN = 'http://127.0.0.1:5173'

export const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'

export const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

export const KEY0 = devKeypair(0).publicKey.toBase58()

export const KEY1 = devKeypair(1).publicKey.toBase58()

export const ICON = 'data:image/svg+xml;base64,PHN2Zy8+' as const

export const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/** The Demo Wallet's Solana side; every prompt is recorded and answered by `answer`. */
export function demoSolana(answer: (request: PromptRequest) => boolean = () => true) {
  const prompts: PromptRequest[] = []
  const { wallet, controls } = createSolanaWallet({
    origin: ORIGIN,
    ask: async (request) => {
      prompts.push(request)
      return answer(request)
    },
  })
  return { wallet, controls, prompts }
}

/** A hand-made wallet with only what a test gives it. */
export function minimalWallet(parameters: {
  name?: string
  chains?: readonly IdentifierString[]
  accounts?: readonly WalletAccount[]
  features?: Record<string, unknown>
}): Wallet {
  return {
    version: '1.0.0',
    name: parameters.name ?? 'Minimal Wallet',
    icon: ICON,
    chains: parameters.chains ?? [MAINNET],
    accounts: parameters.accounts ?? [],
    features: (parameters.features ?? {}) as Wallet['features'],
  }
}

export const account = (address: string, chains: readonly IdentifierString[]): WalletAccount => ({
  address,
  publicKey: new Uint8Array(32),
  chains,
  features: [],
})

export const connectFeature = (connect: (input?: { silent?: boolean }) => Promise<unknown>) => ({
  'standard:connect': { version: '1.0.0', connect },
})

export const signTransactionFeature = {
  'solana:signTransaction': {
    version: '1.0.0',
    supportedTransactionVersions: ['legacy'],
    signTransaction: async () => [],
  },
}

/** The Demo Wallet's EVM provider in the connectors' EIP-1193 shape (its listener type is wider). */
export const eip1193 = (provider: DemoWalletProvider): Eip1193Provider => ({
  request: (args) => provider.request(args as RequestArguments),
  on: (event, listener) => provider.on(event, listener as ProviderListener),
  removeListener: (event, listener) => provider.removeListener(event, listener as ProviderListener),
})

export const requestOf = (connector: Connector) => connector.getProvider('solana').request
