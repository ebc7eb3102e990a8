/**
 * The session tests' bench (wallet-account-sessions*.test.ts): a local chain with EntryPoint v0.8, the
 * WalletAccountFactory and two test tokens; WalletAccounts created by a stranger and funded; UserOperations
 * built, signed and handed to the real EntryPoint's `handleOps` by a dev account acting as the bundler, so a
 * refusal shows as the EntryPoint reports it (`AA23 reverted: <the account's error>`, `AA22 expired or not
 * due`, `AA24 signature error`, `AA25 invalid account nonce`). A session key's op has the form the account
 * meters (`executeUserOp ‖ execute/executeBatch`, as the service builds it); an op whose calls revert in
 * execution reads `included, but its calls reverted: <the account's error>`.
 */
import assert from 'node:assert/strict'
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  concat,
  createPublicClient,
  createWalletClient,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
  toHex,
} from 'viem'
import {
  entryPoint08Abi,
  entryPoint08Address,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import {
  generatePrivateKey,
  type LocalAccount,
  type PrivateKeyAccount,
  privateKeyToAccount,
} from 'viem/accounts'
import { compileContracts } from '../../../server/dev/chain/compile.ts'
import { deployErc4337 } from '../../../server/dev/chain/erc4337.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import {
  EXECUTE_USER_OP_SELECTOR,
  encodeWalletAccountCalls,
  grantSessionData,
  type SessionPolicy,
  sessionSignature,
  WALLET_ACCOUNT_FACTORY,
  walletAccountAbi,
  walletAccountSessionAbi,
} from '../../../server/embedded/walletAccount.ts'
import { freePort } from './helpers.ts'

export const CHAIN_ID = 31337
/** Per-op gas: limits × maxFeePerGas = 1.26M × 3 gwei = 0.00378 ETH (the policies cap it at 0.01 ETH). */
export const GAS = {
  verificationGasLimit: 600_000n,
  callGasLimit: 600_000n,
  preVerificationGas: 60_000n,
  maxFeePerGas: 3_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
}
export const DAY = 86_400n

/** One chain per test file, started by {@link startBench}. */
export type Bench = Awaited<ReturnType<typeof startBench>>

/**
 * Starts a chain with ERC-4337 v0.8 and two tokens (supply with dev account 0).
 *
 * @example
 * const bench = await startBench(); after(() => bench.stop())
 */
export async function startBench() {
  const chain: LocalChain = await startChain({ port: await freePort(), chainId: CHAIN_ID })
  await deployErc4337({ url: chain.url })
  const localChain = {
    id: CHAIN_ID,
    name: 'Local Chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.url] } },
  }
  const client = createPublicClient({ chain: localChain, transport: http(chain.url, { retryCount: 0 }) })
  const walletOf = (account: LocalAccount) =>
    createWalletClient({ account, chain: localChain, transport: http(chain.url, { retryCount: 0 }) })
  const deployer = walletOf(devAccount(0))
  const bundler = walletOf(devAccount(2))
  const stranger = walletOf(devAccount(3))
  const { DevToken } = await compileContracts()
  if (!DevToken) throw new Error('DevToken did not compile')
  const mined = async (hash: Hex) => {
    const receipt = await client.waitForTransactionReceipt({ hash })
    assert.equal(receipt.status, 'success')
    return receipt
  }
  const token = async (symbol: string): Promise<Address> => {
    const hash = await deployer.deployContract({
      abi: DevToken.abi,
      bytecode: DevToken.bytecode,
      args: [symbol, symbol, 6, 1_000_000_000_000n],
    })
    const { contractAddress } = await mined(hash)
    assert.ok(contractAddress)
    return contractAddress
  }
  const tokens = { usdc: await token('USDC'), other: await token('OTHER') }

  /** Moves the chain's clock to `timestamp` (a mined block at it). */
  const jumpTo = async (timestamp: bigint) => {
    await client.request({ method: 'evm_setNextBlockTimestamp', params: [toHex(timestamp)] } as never)
    await client.request({ method: 'evm_mine', params: [] } as never)
  }
  const now = async () => (await client.getBlock()).timestamp

  /** A new owner's WalletAccount, deployed by a stranger, with 1 ETH and 1,000 of each token. */
  const newAccount = async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    await mined(
      await stranger.writeContract({
        address: WALLET_ACCOUNT_FACTORY,
        abi: walletAccountAbi,
        functionName: 'createAccount',
        args: [owner.address, 0n],
      }),
    )
    const address = await client.readContract({
      address: WALLET_ACCOUNT_FACTORY,
      abi: walletAccountAbi,
      functionName: 'getAddress',
      args: [owner.address, 0n],
    })
    await client.request({ method: 'hardhat_setBalance', params: [address, toHex(parseEther('1'))] } as never)
    for (const tokenAddress of Object.values(tokens)) {
      await mined(
        await deployer.writeContract({
          address: tokenAddress,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [address, 1_000n],
        }),
      )
    }
    return { owner, address }
  }

  /** An unsigned UserOperation from `sender` with `calls` (one: `execute`, more: `executeBatch`). */
  const userOp = async (
    sender: Address,
    calls: { to: Address; value?: bigint; data?: Hex }[],
    overrides: Partial<UserOperation<'0.8'>> = {},
  ): Promise<UserOperation<'0.8'>> => {
    const callData = encodeWalletAccountCalls(calls)
    const nonce = await client.readContract({
      address: entryPoint08Address,
      abi: entryPoint08Abi,
      functionName: 'getNonce',
      args: [sender, 0n],
    })
    return { sender, nonce, callData, signature: '0x', ...GAS, ...overrides }
  }

  const hashOf = (operation: UserOperation<'0.8'>, chainId = CHAIN_ID) =>
    getUserOperationHash({
      userOperation: operation,
      entryPointAddress: entryPoint08Address,
      entryPointVersion: '0.8',
      chainId,
    })

  /** `operation` signed by the owner (a plain 65-byte signature). */
  const byOwner = async (owner: PrivateKeyAccount, operation: UserOperation<'0.8'>) => ({
    ...operation,
    signature: await owner.sign({ hash: hashOf(operation) }),
  })

  /**
   * `operation` signed by session `key` for allowance period `period` (and `chainId`), its callData in the
   * session form (`executeUserOp`'s selector first) unless `plain` keeps the owner's form.
   */
  const byKey = async (
    key: PrivateKeyAccount,
    operation: UserOperation<'0.8'>,
    period = 0n,
    chainId = CHAIN_ID,
    { plain = false } = {},
  ) => {
    const session =
      plain || operation.callData.startsWith(EXECUTE_USER_OP_SELECTOR)
        ? operation
        : { ...operation, callData: concat([EXECUTE_USER_OP_SELECTOR, operation.callData]) }
    return {
      ...session,
      signature: sessionSignature({
        key: key.address,
        period,
        signature: await key.sign({ hash: hashOf(session, chainId) }),
      }),
    }
  }

  /**
   * Hands `operation` to the EntryPoint: resolves to 'ok' when it was included and its calls ran, or to
   * the EntryPoint's refusal (`AA23 reverted: SessionSelfCall`), in which case nothing was sent.
   */
  const submit = async (operation: UserOperation<'0.8'>): Promise<string> => {
    const request = {
      address: entryPoint08Address,
      abi: entryPoint08Abi,
      functionName: 'handleOps',
      args: [[toPackedUserOperation(operation)], bundler.account.address],
      account: bundler.account,
      gas: 3_000_000n,
    } as const
    try {
      await client.simulateContract(request)
    } catch (error) {
      return refusal(error)
    }
    const receipt = await mined(await bundler.writeContract(request))
    const [event] = parseEventLogs({
      abi: entryPoint08Abi,
      logs: receipt.logs,
      eventName: 'UserOperationEvent',
    })
    if (event?.args.success) return 'ok'
    const [reason] = parseEventLogs({
      abi: entryPoint08Abi,
      logs: receipt.logs,
      eventName: 'UserOperationRevertReason',
    })
    return `included, but its calls reverted: ${accountError(reason?.args.revertReason)}`
  }

  /** The owner's op making the account call itself (grant, revoke); asserts it went through. */
  const asOwner = async (account: { owner: PrivateKeyAccount; address: Address }, data: Hex) =>
    assert.equal(
      await submit(
        await byOwner(account.owner, await userOp(account.address, [{ to: account.address, data }])),
      ),
      'ok',
    )

  const grant = (
    account: { owner: PrivateKeyAccount; address: Address },
    key: Address,
    policy: SessionPolicy,
  ) => asOwner(account, grantSessionData({ key, policy }))

  const balanceOf = (tokenAddress: Address, holder: Address) =>
    client.readContract({ address: tokenAddress, abi: erc20Abi, functionName: 'balanceOf', args: [holder] })

  /** Deploys a test contract (server/dev/chain/contracts) from dev account 0. */
  const deploy = async (name: string, args: readonly unknown[] = []): Promise<Address> => {
    const compiled = (await compileContracts())[name]
    if (!compiled) throw new Error(`${name} did not compile`)
    const { contractAddress } = await mined(
      await deployer.deployContract({ abi: compiled.abi as Abi, bytecode: compiled.bytecode, args }),
    )
    assert.ok(contractAddress)
    return contractAddress
  }

  return {
    client,
    tokens,
    jumpTo,
    now,
    newAccount,
    userOp,
    byOwner,
    byKey,
    submit,
    asOwner,
    grant,
    balanceOf,
    deploy,
    stop: () => chain.stop(),
  }
}

/** A revert's data as the account's error name when it is one, else as it is. */
function accountError(data: Hex | undefined): string {
  if (!data || data === '0x') return 'no reason'
  try {
    return decodeErrorResult({ abi: walletAccountSessionAbi, data }).errorName
  } catch {
    return data
  }
}

/** The EntryPoint's refusal as one line, with the account's own error decoded when it reverted. */
function refusal(error: unknown): string {
  const reverted =
    error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
  if (!(reverted instanceof ContractFunctionRevertedError) || !reverted.data) throw error
  const { errorName, args = [] } = reverted.data
  if (errorName === 'FailedOp') return String(args[1])
  if (errorName === 'FailedOpWithRevert') {
    try {
      const inner = decodeErrorResult({ abi: walletAccountSessionAbi, data: args[2] as Hex })
      return `${String(args[1])}: ${inner.errorName}`
    } catch {
      return `${String(args[1])}: ${String(args[2])}`
    }
  }
  return errorName
}

/** ERC-20 calldata: `transfer(to, amount)` / `approve(spender, amount)`. */
export const transfer = (to: Address, amount: bigint): Hex =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
export const approve = (spender: Address, amount: bigint): Hex =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
