// Shared set-up of the smart account tests: two local chains, ERC-4337 contracts, a bundler and the embedded wallet.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseEther,
  toHex,
} from 'viem'
import { type LocalBundler, startBundler } from '../../../server/dev/bundler/index.ts'
import { deployErc4337 } from '../../../server/dev/chain/erc4337.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { deployMarket, type LocalMarket } from '../../../server/dev/chain/market.ts'
import {
  accountTypeResponse,
  embeddedErrorBody,
  type SessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import { type EmbeddedTestApp, startEmbeddedTestApp } from './embedded-helpers.ts'
import { createAndApprove, type SessionWithKeys, signInWithKeys } from './embedded-keys-helpers.ts'
import { freePort, openTestDatabase, type TestDatabase } from './helpers.ts'

export const EVM = 'eip155:31337'
/** A second chain whose bundler is down (nothing listens on its port). */
export const EVM2 = 'eip155:31338'

export let testDb: TestDatabase
export let t: EmbeddedTestApp
export let noBundler: EmbeddedTestApp
export let chain: LocalChain
export let chain2: LocalChain
export let bundler: LocalBundler
export let market: LocalMarket
export let base = ''

export const bob = devAccount(1).address
export const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error
export const client = () => createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })

export const signIn = signInWithKeys

/** A JSON-RPC call straight to the local bundler (the test's view of the chain, not the wallet's). */
export async function bundlerCall(method: string, params: unknown[]) {
  const response = await fetch(bundler.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return ((await response.json()) as { result: unknown }).result
}

/** Sets (or reads) the account type on a network. */
export async function accountType(session: SessionResponse, chainId: string, type?: 'eoa' | 'smartAccount') {
  const answer = await t.call(
    '/embedded/v1/account-type',
    { chainId, ...(type ? { type } : {}) },
    { token: session.token },
  )
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  return accountTypeResponse.parse(answer.body)
}

/** Stores a request and approves it as the person would in the frame (which signs its plan). */
export async function approved(session: SessionWithKeys, chainId: string, method: string, params: unknown) {
  const { preview, answer } = await createAndApprove(t, session, { chainId, method, params })
  return { preview, answer }
}

export async function rpc(session: SessionResponse, chainId: string, method: string, params: unknown) {
  return t.call('/embedded/v1/rpc', { chainId, method, params }, { token: session.token })
}

/** A signed-in person switched to a smart account on EVM, funded with 1 ETH before it exists. */
export async function smartUser(name: string) {
  const session = await signIn(t, `${name}.${Date.now()}@example.com`)
  const { account } = await accountType(session, EVM, 'smartAccount')
  await client().request({
    method: 'hardhat_setBalance',
    params: [account.address, toHex(parseEther('1'))],
  } as never)
  return { session, address: account.address as Address }
}

export const approve = (spender: Address, amount: bigint): Hex =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })

/** The preview of `approve(bob, amount)` on the local USDC: decoded, with the token read on the chain. */
export const usdcApproval = (usdc: Address, amount: string, unlimited = false) => ({
  standard: 'ERC-20',
  name: 'approve',
  contract: getAddress(usdc),
  token: { symbol: 'USDC', decimals: 6 },
  fields: [
    { label: 'spender', address: bob },
    { label: 'amount', amount, ...(unlimited ? { unlimited } : {}) },
  ],
  warnings: unlimited ? ['unlimitedApproval'] : [],
})

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startSmartAccounts() {
  before(
    async () => {
      ;[testDb, chain, chain2] = await Promise.all([
        openTestDatabase('embedded_smart_accounts'),
        startChain({ port: await freePort(), chainId: 31337 }),
        startChain({ port: await freePort(), chainId: 31338 }),
      ])
      market = await deployMarket({ url: chain.url, chainId: 31337 })
      await Promise.all([deployErc4337({ url: chain.url }), deployErc4337({ url: chain2.url })])
      bundler = await startBundler({ rpcUrl: chain.url, chainId: 31337, port: await freePort() })
      t = await startEmbeddedTestApp(testDb, 'smart-project', {
        rpcUpstreams: { [EVM]: chain.url, [EVM2]: chain2.url },
        bundlerUpstreams: { [EVM]: bundler.url, [EVM2]: `http://127.0.0.1:${await freePort()}` },
      })
      noBundler = await startEmbeddedTestApp(testDb, 'eoa-only-project', {
        rpcUpstreams: { [EVM]: chain.url },
      })
      base = await t.app.listen({ host: '127.0.0.1', port: 0 })
    },
    { timeout: 120_000 },
  )
  after(async () => {
    await t?.close()
    await noBundler?.close()
    await bundler?.stop()
    await Promise.all([testDb?.close(), chain?.stop(), chain2?.stop()])
  })
}
