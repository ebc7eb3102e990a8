// The embedded wallet with a smart account: UserOperations, typed data and a bundler down or absent.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { eq } from 'drizzle-orm'
import { encodeFunctionData, erc20Abi, type Hex, maxUint256 } from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import { walletRequests } from '../../../server/db/schema.ts'
import { walletAccountAbi } from '../../../server/embedded/walletAccount.ts'
import {
  accountTypeResponse,
  approvalResponse,
  embeddedNetworksResponse,
} from '../../../src/protocol/embedded/index.ts'
import {
  accountType,
  approve,
  approved,
  bob,
  bundlerCall,
  client,
  EVM,
  EVM2,
  errorOf,
  market,
  noBundler,
  signIn,
  smartUser,
  startSmartAccounts,
  t,
  testDb,
  usdcApproval,
} from './embedded-smart-accounts-helpers.ts'

startSmartAccounts()

describe('the embedded wallet with a smart account', { timeout: 120_000 }, () => {
  test('eth_sendUserOperation: the page’s calls for the person’s own account, shown for approval, signed by the service', async () => {
    const { session, address } = await smartUser('user-op')
    const USDC = market.tokens.USDC.address
    const callData = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'executeBatch',
      args: [
        [
          { target: bob, value: 3000n, data: '0x' },
          { target: USDC, value: 0n, data: approve(bob, 9n) },
        ],
      ],
    })
    const before = await client().getBalance({ address: bob })
    const { preview, answer } = await approved(session, EVM, 'eth_sendUserOperation', [
      // A signature from the page is ignored: the service signs after the approval.
      { sender: address, callData, callGasLimit: '0x30d40', signature: `0x${'ab'.repeat(65)}` },
      entryPoint08Address,
    ])
    assert.equal(preview.from, address)
    assert.deepEqual(preview.transfers, [
      { to: bob, value: '3000', dataBytes: 0 },
      { to: USDC, value: '0', dataBytes: 68, action: usdcApproval(USDC, '9') },
    ])
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const userOpHash = answer.body.result as Hex
    assert.match(userOpHash, /^0x[0-9a-f]{64}$/)
    let receipt = null as { success: boolean; sender: string } | null
    for (let poll = 0; receipt === null && poll < 100; poll++) {
      receipt = (await bundlerCall('eth_getUserOperationReceipt', [userOpHash])) as typeof receipt
      if (receipt === null) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.equal(receipt?.success, true)
    assert.equal(receipt?.sender.toLowerCase(), address.toLowerCase())
    assert.equal((await client().getBalance({ address: bob })) - before, 3000n)
    assert.equal(
      await client().readContract({
        address: USDC,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [address, bob],
      }),
      9n,
    )
  })

  test('error: eth_sendUserOperation as an attacker would send it: each refused with its reason, nothing stored nor signed', async () => {
    const { session, address } = await smartUser('user-op-attacker')
    const one = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'execute',
      args: [bob, 1n, '0x'],
    })
    const attempt = async (operation: Record<string, unknown>, entryPoint: string = entryPoint08Address) => {
      const created = await t.call(
        '/embedded/v1/requests',
        { chainId: EVM, method: 'eth_sendUserOperation', params: [operation, entryPoint] },
        { token: session.token },
      )
      return { status: created.status, ...errorOf(created.body) }
    }
    const cases: [string, Record<string, unknown>, string, number, RegExp][] = [
      [
        'another sender',
        { sender: bob, callData: one },
        entryPoint08Address,
        403,
        /^The UserOperation is for an account this wallet does not hold$/,
      ],
      [
        'another EntryPoint (v0.7)',
        { sender: address, callData: one },
        '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
        400,
        /^Unsupported EntryPoint 0x0000000071727De22E5E9d8BAf0edAc6f37da032/,
      ],
      [
        'a huge callGasLimit',
        { sender: address, callData: one, callGasLimit: '0xffffffffffffffff' },
        entryPoint08Address,
        400,
        /callGasLimit is over this wallet's cap of 10000000$/,
      ],
      [
        'a huge verificationGasLimit',
        { sender: address, callData: one, verificationGasLimit: '0x1000000' },
        entryPoint08Address,
        400,
        /verificationGasLimit is over/,
      ],
      [
        'a huge preVerificationGas',
        { sender: address, callData: one, preVerificationGas: '0x10000000' },
        entryPoint08Address,
        400,
        /preVerificationGas is over/,
      ],
      [
        'a huge fee',
        { sender: address, callData: one, maxFeePerGas: `0x${(10n ** 20n).toString(16)}` },
        entryPoint08Address,
        400,
        /maxFeePerGas is over this wallet's cap/,
      ],
      [
        'a tip above the fee',
        { sender: address, callData: one, maxFeePerGas: '0x10', maxPriorityFeePerGas: '0x20' },
        entryPoint08Address,
        400,
        /maxPriorityFeePerGas is above its maxFeePerGas/,
      ],
      [
        'callData that is not hex',
        { sender: address, callData: '0xzz' },
        entryPoint08Address,
        400,
        /^Invalid params of eth_sendUserOperation: callData$/,
      ],
      [
        'a nonce that is not a quantity',
        { sender: address, callData: one, nonce: 12 },
        entryPoint08Address,
        400,
        /^Invalid params of eth_sendUserOperation: nonce$/,
      ],
      [
        'no callData',
        { sender: address },
        entryPoint08Address,
        400,
        /^Invalid params of eth_sendUserOperation: callData$/,
      ],
      [
        'a v0.6 initCode field',
        { sender: address, callData: one, initCode: '0x' },
        entryPoint08Address,
        400,
        /^Invalid params of eth_sendUserOperation: initCode$/,
      ],
      [
        'an EIP-7702 authorisation',
        { sender: address, callData: one, eip7702Auth: {} },
        entryPoint08Address,
        400,
        /eip7702Auth$/,
      ],
      [
        'a paymaster',
        { sender: address, callData: one, paymaster: bob, paymasterData: '0x01' },
        entryPoint08Address,
        400,
        /^Paymasters are not supported by this wallet$/,
      ],
      [
        'another factory',
        { sender: address, callData: one, factory: bob, factoryData: '0x01' },
        entryPoint08Address,
        400,
        /factory is not this wallet's account factory$/,
      ],
      [
        'callData that is no call of the account',
        { sender: address, callData: '0x12345678' },
        entryPoint08Address,
        400,
        /callData is not a call of this wallet's account/,
      ],
      [
        'oversized callData',
        {
          sender: address,
          callData: encodeFunctionData({
            abi: walletAccountAbi,
            functionName: 'execute',
            args: [bob, 0n, `0x${'00'.repeat(20_000)}`],
          }),
        },
        entryPoint08Address,
        400,
        /callData is over 16384 bytes$/,
      ],
      [
        'eleven calls',
        {
          sender: address,
          callData: encodeFunctionData({
            abi: walletAccountAbi,
            functionName: 'executeBatch',
            args: [Array.from({ length: 11 }, () => ({ target: bob, value: 1n, data: '0x' as Hex }))],
          }),
        },
        entryPoint08Address,
        400,
        /carries 11 calls; 1 to 10 are allowed$/,
      ],
    ]
    for (const [name, operation, entryPoint, status, message] of cases) {
      const refused = await attempt(operation, entryPoint)
      assert.equal(refused.status, status, `${name}: ${JSON.stringify(refused)}`)
      assert.match(refused.message, message, name)
    }
    const stored = await testDb.database.db
      .select({ params: walletRequests.params })
      .from(walletRequests)
      .where(eq(walletRequests.method, 'eth_sendUserOperation'))
    const mine = stored.filter(
      (row) => (row.params as [{ sender?: string }])[0]?.sender?.toLowerCase() === address.toLowerCase(),
    )
    assert.deepEqual(mine, [], 'nothing stored for approval')
    assert.equal(await client().getCode({ address }), undefined, 'nothing sent')
  })

  test('attack: typed data for the person’s own smart account (its WalletAccount domain, any name) is refused', async () => {
    const { session, address } = await smartUser('own-domain')
    for (const name of ['WalletAccount', 'Innocent Shop']) {
      const created = await t.call(
        '/embedded/v1/requests',
        {
          chainId: EVM,
          method: 'eth_signTypedData_v4',
          params: [
            address,
            {
              domain: { name, version: '1', chainId: 31337, verifyingContract: address },
              types: { WalletAccountMessage: [{ name: 'hash', type: 'bytes32' }] },
              primaryType: 'WalletAccountMessage',
              message: { hash: `0x${'22'.repeat(32)}` },
            },
          ],
        },
        { token: session.token },
      )
      assert.equal(created.status, 403, name)
      assert.match(errorOf(created.body).message, /wallet's own account or the EntryPoint/)
    }
  })

  test('attack: an unlimited approve inside a UserOperation’s executeBatch is shown decoded, as unlimited, with a warning', async () => {
    const { session, address } = await smartUser('unlimited')
    const USDC = market.tokens.USDC.address
    const callData = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'executeBatch',
      args: [[{ target: USDC, value: 0n, data: approve(bob, maxUint256) }]],
    })
    const created = await t.call(
      '/embedded/v1/requests',
      {
        chainId: EVM,
        method: 'eth_sendUserOperation',
        params: [{ sender: address, callData }, entryPoint08Address],
      },
      { token: session.token },
    )
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const { id, preview } = approvalResponse.parse(created.body)
    assert.deepEqual(preview.transfers, [
      {
        to: USDC,
        value: '0',
        dataBytes: 68,
        action: usdcApproval(USDC, maxUint256.toString(), true),
      },
    ])
    await t.call(`/embedded/v1/requests/${id}/reject`, {}, { token: session.token })
  })

  test('error: the bundler being down: a clear error, the request is not lost from the chain’s view', async () => {
    const session = await signIn(t, `down.${Date.now()}@example.com`)
    const { account } = await accountType(session, EVM2, 'smartAccount')
    const { answer } = await approved(session, EVM2, 'eth_sendTransaction', [
      { from: account.address, to: bob, value: '0x1' },
    ])
    assert.equal(answer.status, 502)
    assert.match(errorOf(answer.body).message, /^The bundler for eip155:31338 is unreachable/)
    // Nothing was sent: the account is still undeployed and the person can try again.
    assert.equal((await accountType(session, EVM2)).account.smartAccountDeployed, false)
  })

  test('error: a service without a bundler keeps the EOA: This application might not support Smart Accounts', async () => {
    const session = await signIn(noBundler, `nobundler.${Date.now()}@example.com`)
    const answer = await noBundler.call(
      '/embedded/v1/account-type',
      { chainId: EVM, type: 'smartAccount' },
      { token: session.token },
    )
    assert.equal(answer.status, 400)
    assert.equal(errorOf(answer.body).message, 'This application might not support Smart Accounts')
    const networks = embeddedNetworksResponse.parse((await noBundler.call('/embedded/v1/networks')).body)
    assert.deepEqual(networks.smartAccountNetworks, [])
    const read = await noBundler.call('/embedded/v1/account-type', { chainId: EVM }, { token: session.token })
    assert.equal(accountTypeResponse.parse(read.body).account.type, 'eoa')
  })
})
