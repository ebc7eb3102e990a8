/**
 * A world for permissions (ERC-7715) through the service's routes as the frame calls them: a local chain with
 * EntryPoint v0.8, the local market and bundler, the embedded wallet's service on a real database, and what
 * the tests and the bench do in it (a funded smart-account user, the frame's session key, a grant of 10 USDC
 * a day to the router, a swap, a send with the permission's context signed by the session key).
 */
import assert from 'node:assert/strict'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBytes,
  http,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { startBundler } from '../../../server/dev/bundler/index.ts'
import { deployErc4337 } from '../../../server/dev/chain/erc4337.ts'
import { devAccount, startChain } from '../../../server/dev/chain/index.ts'
import { deployMarket } from '../../../server/dev/chain/market.ts'
import { grantedPermissionsResponse } from '../../../src/protocol/embedded/grantedPermissions.ts'
import { accountTypeResponse, approvalResponse } from '../../../src/protocol/embedded/index.ts'
import { evmDigestOf, signHash } from '../../../src/protocol/embedded/signer.ts'
import type { SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { startEmbeddedTestApp } from './embedded-helpers.ts'
import { createAndApprove, type SessionWithKeys, signInWithKeys } from './embedded-keys-helpers.ts'
import { freePort, openTestDatabase } from './helpers.ts'

export const EVM = 'eip155:31337'
export const SWAP = 'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)'
const routerAbi = parseAbi([`function ${SWAP}`])

/**
 * Starts the world under a project (`database`: the test database's name).
 *
 * @example
 * const world = await startPermissionsWorld('embedded_permissions', 'permissions-project')
 */
export async function startPermissionsWorld(database: string, project: string) {
  const [testDb, chain] = await Promise.all([
    openTestDatabase(database),
    startChain({ port: await freePort(), chainId: 31337 }),
  ])
  await deployErc4337({ url: chain.url })
  const market = await deployMarket({ url: chain.url, chainId: 31337 })
  const bundler = await startBundler({ rpcUrl: chain.url, chainId: 31337, port: await freePort() })
  const t = await startEmbeddedTestApp(testDb, project, {
    rpcUpstreams: { [EVM]: chain.url },
    bundlerUpstreams: { [EVM]: bundler.url },
  })
  const client = () => createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })
  const usdc = () => market.tokens.USDC.address
  const usdcOf = (address: Address) =>
    client().readContract({ address: usdc(), abi: erc20Abi, functionName: 'balanceOf', args: [address] })

  /** A signed-in person on a smart account holding 1 ETH and 100 USDC. */
  async function smartUser(name: string): Promise<{ session: SessionWithKeys; account: Address }> {
    const session = await signInWithKeys(t, `${name}.${Date.now()}@example.com`)
    const answer = await t.call(
      '/embedded/v1/account-type',
      { chainId: EVM, type: 'smartAccount' },
      { token: session.token },
    )
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const account = accountTypeResponse.parse(answer.body).account.address as Address
    await client().request({
      method: 'hardhat_setBalance' as never,
      params: [account, `0x${parseEther('1').toString(16)}`] as never,
    })
    const funder = createWalletClient({ account: devAccount(2), transport: http(chain.url) })
    const hash = await funder.writeContract({
      chain: null,
      address: usdc(),
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account, parseUnits('100', 6)],
    })
    await client().waitForTransactionReceipt({ hash })
    return { session, account }
  }

  /** The frame's session key: made by the frame, named in the request as the wallet's signer. */
  function sessionKey() {
    const secret = generatePrivateKey()
    return { secret, address: privateKeyToAddress(secret) }
  }

  /** `wallet_grantPermissions`: 10 USDC a day, and the router's swap, for an hour. */
  const grantParams = (key: Address, extra: Record<string, unknown> = {}) => [
    {
      chainId: '0x7a69',
      expiry: Math.floor(Date.now() / 1000) + 3600,
      signer: { type: 'wallet', data: { key } },
      permissions: [
        {
          type: 'erc20-token-periodic',
          data: {
            tokenAddress: usdc(),
            periodAmount: `0x${parseUnits('10', 6).toString(16)}`,
            periodDuration: 86_400,
          },
        },
        { type: 'contract-call', data: { address: market.uniswapV2.router, calls: [SWAP] } },
      ],
      ...extra,
    },
  ]

  /** A swap of `amount` USDC for WETH: approve the router, then swap (one batch). */
  const swapCalls = (account: Address, amount: bigint) => [
    {
      to: usdc(),
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [market.uniswapV2.router, amount],
      }),
    },
    {
      to: market.uniswapV2.router,
      data: encodeFunctionData({
        abi: routerAbi,
        functionName: 'swapExactTokensForTokens',
        args: [
          amount,
          0n,
          [usdc(), market.tokens.WETH.address],
          account,
          BigInt(Math.floor(Date.now() / 1000) + 600),
        ],
      }),
    },
  ]

  /** Sends calls with the permission's context, signed by `signer` (the frame's key) with no approval shown. */
  async function sendWithPermission(
    session: SessionWithKeys,
    context: string,
    calls: unknown[],
    signer: Hex,
  ): Promise<{ status: number; body: unknown }> {
    const stored = await t.call(
      '/embedded/v1/requests',
      {
        chainId: EVM,
        method: 'wallet_sendCalls',
        params: [{ version: '2.0.0', chainId: '0x7a69', calls, capabilities: { permissions: { context } } }],
      },
      { token: session.token },
    )
    if (stored.status !== 200) return stored
    const created = approvalResponse.parse(stored.body)
    const [request] = created.signing.plan as [SignRequest]
    const signature = signHash(evmDigestOf(request as never), hexToBytes(signer))
    return t.call(
      `/embedded/v1/requests/${created.id}/approve`,
      { signatures: [signature] },
      { token: session.token },
    )
  }

  /** Waits for a batch's final status (EIP-5792). */
  async function finalStatus(session: SessionWithKeys, id: string): Promise<number> {
    for (let poll = 0; poll < 100; poll++) {
      const answer = await t.call(
        '/embedded/v1/rpc',
        { chainId: EVM, method: 'wallet_getCallsStatus', params: [id] },
        { token: session.token },
      )
      const { status } = answer.body.result as { status: number }
      if (status !== 100) return status
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    return 100
  }

  /** The site's permissions as `wallet_getGrantedExecutionPermissions` answers them. */
  async function listPermissions(session: SessionWithKeys) {
    const answer = await t.call(
      '/embedded/v1/rpc',
      { chainId: EVM, method: 'wallet_getGrantedExecutionPermissions', params: [] },
      { token: session.token },
    )
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    return grantedPermissionsResponse.parse(answer.body.result)
  }

  /** A smart-account user who granted the site a permission (`tune`: changes to the params first). */
  async function grantedUser(name: string, tune?: (params: ReturnType<typeof grantParams>) => void) {
    const { session, account } = await smartUser(name)
    const key = sessionKey()
    const params = grantParams(key.address)
    tune?.(params)
    const { answer } = await createAndApprove(t, session, {
      chainId: EVM,
      method: 'wallet_grantPermissions',
      params,
    })
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const { permissionsContext: context } = answer.body.result as { permissionsContext: string }
    return { session, account, key, context, params }
  }

  return {
    t,
    grantedUser,
    chain,
    market,
    client,
    usdc,
    usdcOf,
    smartUser,
    sessionKey,
    grantParams,
    swapCalls,
    sendWithPermission,
    finalStatus,
    listPermissions,
    async stop() {
      await t.close()
      await bundler.stop()
      await Promise.all([testDb.close(), chain.stop()])
    },
  }
}

export type PermissionsWorld = Awaited<ReturnType<typeof startPermissionsWorld>>
