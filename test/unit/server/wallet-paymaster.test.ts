/**
 * The verifying paymaster (WalletPaymaster.sol), probed as someone who wants free gas would: a signature
 * by another key, an operation changed after the service signed it (its calls, its gas), a window that
 * has passed or not come, an approval for another chain or another paymaster, and replay. Against the
 * real EntryPoint v0.8 on a local chain; the account's own ETH never pays for a sponsored operation.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Address, createWalletClient, type Hex, http, parseAbi, parseEther } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { deployPaymaster, planPaymaster, walletPaymasterAbi } from '../../../server/dev/chain/paymaster.ts'
import { paymasterHash, signPaymasterData } from '../../../server/paymaster/approval.ts'
import { type Bench, CHAIN_ID, startBench } from './wallet-account-sessions.helpers.ts'

let bench: Bench
let paymaster: Address
const signer = privateKeyToAccount(generatePrivateKey())
const bob = devAccount(5).address

before(
  async () => {
    bench = await startBench()
    paymaster = await deployPaymaster({
      url: chainUrl(),
      chainId: CHAIN_ID,
      signer: signer.address,
    })
  },
  { timeout: 120_000 },
)
after(async () => {
  await bench?.stop()
})

const getHashAbi = parseAbi([
  'function getHash((address sender, uint256 nonce, bytes initCode, bytes callData, bytes32 accountGasLimits, uint256 preVerificationGas, bytes32 gasFees, bytes paymasterAndData, bytes signature) userOp, uint48 validUntil, uint48 validAfter) view returns (bytes32)',
  'function withdrawTo(address to, uint256 amount)',
  'function setSigner(address newSigner)',
  'error OwnableUnauthorizedAccount(address account)',
])

/** The bench's chain URL. */
const chainUrl = (): string => {
  const [url] = bench.client.chain.rpcUrls.default.http
  if (!url) throw new Error('the bench has no chain URL')
  return url
}

const PAYMASTER_GAS = { paymasterVerificationGasLimit: 100_000n, paymasterPostOpGasLimit: 10_000n }

/** An hour from the chain's clock. */
const inAnHour = async () => Number(await bench.now()) + 3_600

/** A new account's op sending 1 wei to bob, with the paymaster's fields (no data yet). */
async function sponsoredOp(address: Address, overrides: Partial<UserOperation<'0.8'>> = {}) {
  const operation = await bench.userOp(address, [{ to: bob, value: 1n }], {
    paymaster,
    ...PAYMASTER_GAS,
    ...overrides,
  })
  return operation as UserOperation<'0.8'> & {
    paymaster: Address
    paymasterVerificationGasLimit: bigint
    paymasterPostOpGasLimit: bigint
  }
}

/** `operation` with paymasterData signed by `by` for `chainId` and the window. */
async function approved(
  operation: Awaited<ReturnType<typeof sponsoredOp>>,
  {
    by = signer,
    chainId = CHAIN_ID,
    validUntil,
    validAfter = 0,
  }: { by?: PrivateKeyAccount; chainId?: number; validUntil?: number; validAfter?: number } = {},
) {
  const until = validUntil ?? (await inAnHour())
  const paymasterData: Hex = await signPaymasterData(by, {
    userOperation: operation,
    chainId,
    validUntil: until,
    validAfter,
  })
  return { ...operation, paymasterData }
}

const deposit = () =>
  bench.client.readContract({ address: paymaster, abi: walletPaymasterAbi, functionName: 'getDeposit' })

describe('WalletPaymaster: who pays', { timeout: 120_000 }, () => {
  test('default: an approved operation is paid from the paymaster deposit, the account ETH is unchanged', async () => {
    const { owner, address } = await bench.newAccount()
    const ethBefore = await bench.client.getBalance({ address })
    const depositBefore = await deposit()
    const bobBefore = await bench.client.getBalance({ address: bob })
    const operation = await approved(await sponsoredOp(address))
    assert.equal(await bench.submit(await bench.byOwner(owner, operation)), 'ok')
    assert.equal(
      await bench.client.getBalance({ address }),
      ethBefore - 1n,
      'only the 1 wei sent left the account',
    )
    assert.equal((await bench.client.getBalance({ address: bob })) - bobBefore, 1n)
    assert.ok((await deposit()) < depositBefore, 'the paymaster deposit paid the gas')
  })

  test('default: on a fresh chain the paymaster lands where the stack tells the service it is', () => {
    assert.equal(paymaster, planPaymaster())
  })

  test('default: the service hash is the contract getHash', async () => {
    const { address } = await bench.newAccount()
    const operation = await approved(await sponsoredOp(address))
    const validUntil = await inAnHour()
    const onChain = await bench.client.readContract({
      address: paymaster,
      abi: getHashAbi,
      functionName: 'getHash',
      args: [toPackedUserOperation(operation), validUntil, 7],
    })
    assert.equal(
      onChain,
      paymasterHash({ userOperation: operation, chainId: CHAIN_ID, validUntil, validAfter: 7 }),
    )
  })
})

describe('WalletPaymaster: attacks', { timeout: 120_000 }, () => {
  test('error: paymasterData signed by another key does not pay (AA34)', async () => {
    const { owner, address } = await bench.newAccount()
    const forger = privateKeyToAccount(generatePrivateKey())
    const operation = await approved(await sponsoredOp(address), { by: forger })
    assert.equal(await bench.submit(await bench.byOwner(owner, operation)), 'AA34 signature error')
  })

  test('error: calls changed after the service signed do not pay (AA34)', async () => {
    const { owner, address } = await bench.newAccount()
    const operation = await approved(await sponsoredOp(address))
    const other = await bench.userOp(address, [{ to: bob, value: parseEther('0.5') }])
    const changed = { ...operation, callData: other.callData }
    assert.equal(await bench.submit(await bench.byOwner(owner, changed)), 'AA34 signature error')
  })

  test('error: gas limits or fees raised after the service signed do not pay (AA34)', async () => {
    const { owner, address } = await bench.newAccount()
    const operation = await approved(await sponsoredOp(address))
    for (const changed of [
      { ...operation, callGasLimit: operation.callGasLimit + 1n },
      { ...operation, maxFeePerGas: operation.maxFeePerGas * 2n },
      { ...operation, preVerificationGas: operation.preVerificationGas + 1n },
      { ...operation, paymasterVerificationGasLimit: operation.paymasterVerificationGasLimit + 1n },
    ]) {
      assert.equal(await bench.submit(await bench.byOwner(owner, changed)), 'AA34 signature error')
    }
  })

  test('error: an expired window or one not yet open does not pay (AA32)', async () => {
    const { owner, address } = await bench.newAccount()
    const now = Number(await bench.now())
    const expired = await approved(await sponsoredOp(address), { validUntil: now - 1 })
    assert.equal(await bench.submit(await bench.byOwner(owner, expired)), 'AA32 paymaster expired or not due')
    const early = await approved(await sponsoredOp(address), {
      validUntil: now + 7_200,
      validAfter: now + 3_600,
    })
    assert.equal(await bench.submit(await bench.byOwner(owner, early)), 'AA32 paymaster expired or not due')
  })

  test('error: an approval signed for another chain does not pay (AA34)', async () => {
    const { owner, address } = await bench.newAccount()
    const operation = await approved(await sponsoredOp(address), { chainId: 1 })
    assert.equal(await bench.submit(await bench.byOwner(owner, operation)), 'AA34 signature error')
  })

  test('error: an approval for another paymaster of the same signer does not pay here (AA34)', async () => {
    const { owner, address } = await bench.newAccount()
    const other = await deployPaymaster({
      url: chainUrl(),
      chainId: CHAIN_ID,
      signer: signer.address,
      deposit: parseEther('1'),
    })
    const forOther = await approved(await sponsoredOp(address, { paymaster: other }))
    const moved = { ...forOther, paymaster }
    assert.equal(await bench.submit(await bench.byOwner(owner, moved)), 'AA34 signature error')
  })

  test('error: replay: the same operation twice, or its approval on the next operation', async () => {
    const { owner, address } = await bench.newAccount()
    const operation = await bench.byOwner(owner, await approved(await sponsoredOp(address)))
    assert.equal(await bench.submit(operation), 'ok')
    assert.equal(await bench.submit(operation), 'AA25 invalid account nonce')
    const next = await sponsoredOp(address)
    const reused = { ...next, paymasterData: operation.paymasterData }
    assert.equal(await bench.submit(await bench.byOwner(owner, reused)), 'AA34 signature error')
  })

  test('error: only the owner withdraws or changes the signer; only the EntryPoint validates', async () => {
    const stranger = createWalletClient({
      account: devAccount(3),
      chain: bench.client.chain,
      transport: http(chainUrl()),
    })
    for (const [functionName, args] of [
      ['withdrawTo', [devAccount(3).address, 1n]],
      ['setSigner', [devAccount(3).address]],
    ] as const) {
      await assert.rejects(
        bench.client.simulateContract({
          account: stranger.account,
          address: paymaster,
          abi: getHashAbi,
          functionName,
          args: args as never,
        }),
        /OwnableUnauthorizedAccount/,
      )
    }
    const { address } = await bench.newAccount()
    await assert.rejects(
      bench.client.readContract({
        address: paymaster,
        abi: parseAbi([
          'function validatePaymasterUserOp((address sender, uint256 nonce, bytes initCode, bytes callData, bytes32 accountGasLimits, uint256 preVerificationGas, bytes32 gasFees, bytes paymasterAndData, bytes signature) userOp, bytes32 userOpHash, uint256 maxCost) view returns (bytes context, uint256 validationData)',
          'error NotFromEntryPoint(address caller)',
        ]),
        functionName: 'validatePaymasterUserOp',
        args: [toPackedUserOperation(await approved(await sponsoredOp(address))), `0x${'00'.repeat(32)}`, 0n],
        account: devAccount(3).address,
      }),
      /NotFromEntryPoint/,
    )
    assert.equal(
      await bench.client.readContract({
        address: paymaster,
        abi: walletPaymasterAbi,
        functionName: 'signer',
      }),
      signer.address,
    )
  })
})
