// What the core-actions-on-Solana tests share: the local Solana network and EVM chain, RPC reads,
// and a config around the Demo Wallet's sides.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  createDemoWallet,
  type DemoWalletProvider,
  type ProviderListener,
  type RequestArguments,
} from '../../../demo/wallets/demo-wallet.ts'
import type { PromptQueue, PromptRequest } from '../../../demo/wallets/prompt.ts'
import { createSolanaWallet } from '../../../demo/wallets/solana-wallet.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { devKeypair, type LocalSolana, startSolana } from '../../../server/dev/solana/index.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'
import { createInjectedConnector } from '../../../src/connectors/injected/index.ts'
import type { Connector, Eip1193Provider } from '../../../src/connectors/types.ts'
import {
  createWalletStandardConnector,
  mergeConnectors,
} from '../../../src/connectors/walletStandard/index.ts'
import { connect } from '../../../src/core/actions/connect.ts'
import { balanceKey } from '../../../src/core/balanceKey.ts'
import type { Config } from '../../../src/core/createConfig.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { WalletEventMap, WalletEventName } from '../../../src/core/events/types.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { freePort } from '../../support/net.ts'

export const ORIGIN = 'http://127.0.0.1'

export const LOCAL = LOCAL_SOLANA_NETWORK_ID

export const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

export const STANDARD_ID = 'walletStandard:Demo Wallet'

export const DEMO_ID = 'dev.wallet-elements.demo'

export const ALICE = devAccount(0).address

export const TEST_MINT = '3NgR9cyptmChF72pCdDbrajWsehczWmp6iEbBnnFkHPU'

export const KEY = [0, 1, 2, 3].map((index) => devKeypair(index).publicKey.toBase58())

export const key = (index: number) => KEY[index] ?? ''

export const LAMPORTS_PER_SOL = 10n ** 9n

export const EVENT_NAMES: WalletEventName[] = [
  'connect',
  'disconnect',
  'account-change',
  'network-change',
  'error',
]

import { sleep, until } from './actions-helpers.ts'

export { sleep, until }

export let solana: LocalSolana

export let chain: LocalChain

/** JSON-RPC straight to the local Solana network, to check what landed. */
export async function rpc(method: string, params: readonly unknown[]): Promise<unknown> {
  const response = await fetch(solana.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

export const lamports = async (address: string) =>
  BigInt(((await rpc('getBalance', [address, { commitment: 'confirmed' }])) as { value: number }).value)

export async function confirmed(signature: string): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const { value } = (await rpc('getSignatureStatuses', [
      [signature],
      { searchTransactionHistory: true },
    ])) as {
      value: ({ confirmationStatus?: string; err: unknown } | null)[]
    }
    const status = value[0]
    if (status && status.confirmationStatus !== 'processed') {
      assert.equal(status.err, null, 'the transaction succeeded')
      return
    }
    if (Date.now() > deadline) throw new Error(`${signature} not confirmed`)
    await sleep(50)
  }
}

/** The Demo Wallet's EVM provider in the connectors' EIP-1193 shape (its listener type is wider). */
export const eip1193 = (provider: DemoWalletProvider): Eip1193Provider => ({
  request: (args) => provider.request(args as RequestArguments),
  on: (event, listener) => provider.on(event, listener as ProviderListener),
  removeListener: (event, listener) => provider.removeListener(event, listener as ProviderListener),
})

export type Recorded = { [K in WalletEventName]: [K, WalletEventMap[K]] }[WalletEventName]

export const named = <K extends WalletEventName>(events: Recorded[], name: K): WalletEventMap[K][] =>
  events.filter((event) => event[0] === name).map(([, detail]) => detail as WalletEventMap[K])

/** Prompts of both sides of the Demo Wallet, recorded and answered by `answer` (approve by default). */

export function promptQueue(answer: (request: PromptRequest) => boolean = () => true) {
  const asked: PromptRequest[] = []
  const queue: PromptQueue = {
    ask: async (request) => {
      asked.push(request)
      return answer(request)
    },
    pending: () => 0,
    answer: () => false,
    setAutoApprove: () => {},
    autoApprove: false,
  }
  return { queue, asked }
}

export interface SetupParameters {
  /** Dev key of the Solana wallet (default 0). */
  accountIndex?: number
  /** Also register the Demo Wallet's EVM side, merged with the Solana side into one connector. */
  merged?: boolean
  /** Extra networks after eip155:31337 and the local Solana network. */
  networks?: readonly string[]
  answer?: (request: PromptRequest) => boolean
  /** Share a Solana wallet (and its authorization) with an earlier harness. */
  wallet?: ReturnType<typeof createSolanaWallet>
  /** Share a storage backend with an earlier harness. */
  items?: Map<string, string>
  /** A companion service (its data API: prices, swaps) for the dev project. */
  apiUrl?: string
}

export function setup(parameters: SetupParameters = {}) {
  const items = parameters.items ?? new Map<string, string>()
  const events: Recorded[] = []
  const platform: Platform = {
    window: undefined,
    storage: {
      getItem: (name) => items.get(name) ?? null,
      setItem: (name, value) => void items.set(name, value),
      removeItem: (name) => void items.delete(name),
    },
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    isMobile: () => false,
    prefersDark: () => false,
  }
  const extra = parameters.networks ?? []
  const { queue, asked } = promptQueue(parameters.answer)
  const wallet =
    parameters.wallet ??
    createSolanaWallet({
      origin: ORIGIN,
      accountIndex: parameters.accountIndex ?? 0,
      localRpcUrl: solana.url,
      ask: queue.ask,
    })
  const standard = createWalletStandardConnector({ wallet: wallet.wallet })
  const evm = createDemoWallet({ origin: ORIGIN, localRpcUrl: chain.url, prompts: queue })
  const connectors: Connector[] = parameters.merged
    ? mergeConnectors(
        [createInjectedConnector({ id: DEMO_ID, name: 'Demo Wallet', provider: eip1193(evm.provider) })],
        [standard],
      )
    : [standard]
  const config = createConfig(
    {
      networks: ['eip155:31337', LOCAL, ...extra].join(','),
      rpcUrls: {
        'eip155:31337': chain.url,
        [LOCAL]: solana.url,
        // Any other Solana network reads from the local one too: nothing leaves loopback.
        ...Object.fromEntries(extra.map((id) => [id, solana.url])),
      },
      ...(parameters.apiUrl ? { apiUrl: parameters.apiUrl, projectId: 'dev-project' } : {}),
      connectors,
    },
    platform,
  )
  assert.deepEqual(config.issues, [])
  for (const name of EVENT_NAMES) {
    config.events.on(name, (detail) => {
      events.push([name, detail] as Recorded)
      return undefined
    })
  }
  const connector = connectors[0]
  assert.ok(connector)
  return { config, connector, wallet, evm, asked, events, items }
}

export type Harness = ReturnType<typeof setup>

/** Waits until the balance a connection fetches in the background has settled. */
export async function balanceSettled(config: Config): Promise<void> {
  await until(() => {
    const account = config.$account.get()
    const network = config.$network.get()
    if (!account || !network) return false
    const balance = config.$balances.get()[balanceKey(network.caipNetworkId, account.address)]
    return balance !== undefined && balance.status !== 'loading'
  }, 'the balance')
}

/** Connects through core `connect` and waits for the first balance. */
export async function connected(harness: Harness): Promise<void> {
  await connect(harness.config, { connector: harness.connector })
  await balanceSettled(harness.config)
}

/** Starts the local Solana network and chain 31337 before the calling describe's tests, stops them after. */
export function useLocalNetworks(): void {
  before(async () => {
    const port = await freePort()
    ;[solana, chain] = await Promise.all([startSolana({ port: 0 }), startChain({ port, chainId: 31337 })])
  })
  after(async () => {
    await Promise.all([solana?.stop(), chain?.stop()])
  })
}
