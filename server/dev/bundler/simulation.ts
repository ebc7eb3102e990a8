// Simulation of a UserOperation (EntryPointSimulations over the EntryPoint) and its gas estimate.
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  parseAbi,
  parseEther,
} from 'viem'
import {
  entryPoint08Address,
  getUserOperationHash,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import {
  EXECUTE_USER_OP_SELECTOR,
  isSessionSignature,
  SESSION_KEY_STUB,
} from '../../embedded/walletAccount.ts'
import { entryPointSimulationsCode } from '../chain/erc4337.ts'
import { simulationsAbi } from './abi.ts'
import { BundlerRpcError, bundlerErrorCodes, entryPointFailure, revertReason } from './errors.ts'
import { type CheckedUserOperation, preVerificationGasOf, toOperation } from './userOperation.ts'

/** The local chain's per-transaction gas cap (osaka). */
export const MAX_BUNDLE_GAS = 16_000_000n
/** Execution gas the EntryPoint charges 10 % of when unused (v0.8), beyond this threshold. */
const PENALTY_THRESHOLD = 40_000n
const ESTIMATE_VERIFICATION_GAS = 1_500_000n
const ESTIMATE_CALL_GAS = 5_000_000n
/** ERC-4337's IAccountExecute: what the EntryPoint calls when a callData starts with its selector. */
const accountExecuteAbi = parseAbi([
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function executeUserOp(PackedUserOperation userOp, bytes32 userOpHash)',
])

/**
 * Runs UserOperations through EntryPointSimulations' `simulateHandleOp` with `eth_call` and a state
 * override that puts its code at the EntryPoint's address (as bundlers do; it is never deployed).
 *
 * @example
 * const { simulate, checkValidation } = createSimulator(publicClient)
 * checkValidation((await simulate(operation)).accountValidationData)
 */
export function createSimulator(publicClient: PublicClient) {
  const simulate = async (
    operation: UserOperation<'0.8'>,
    options: { target?: Address; targetCallData?: Hex; sender?: { balance: bigint } } = {},
  ) => {
    const data = encodeFunctionData({
      abi: simulationsAbi,
      functionName: 'simulateHandleOp',
      args: [
        toPackedUserOperation(operation),
        options.target ?? '0x0000000000000000000000000000000000000000',
        options.targetCallData ?? '0x',
      ],
    })
    try {
      const { data: result } = await publicClient.call({
        to: entryPoint08Address,
        data,
        gas: MAX_BUNDLE_GAS,
        stateOverride: [
          { address: entryPoint08Address, code: entryPointSimulationsCode() },
          ...(options.sender ? [{ address: operation.sender, balance: options.sender.balance }] : []),
        ],
      })
      return decodeFunctionResult({
        abi: simulationsAbi,
        functionName: 'simulateHandleOp',
        data: result ?? '0x',
      })
    } catch (error) {
      throw entryPointFailure(error)
    }
  }

  /** Refuses a signature failure, an aggregator and a window that is not open (the account's or the paymaster's). */
  const checkValidation = (validationData: bigint, by: 'account' | 'paymaster' = 'account') => {
    const aggregator = validationData & ((1n << 160n) - 1n)
    if (aggregator === 1n)
      throw by === 'account'
        ? new BundlerRpcError(bundlerErrorCodes.invalidSignature, 'Invalid UserOperation signature')
        : new BundlerRpcError(bundlerErrorCodes.rejectedByPaymaster, 'Invalid paymaster signature')
    if (aggregator !== 0n)
      throw new BundlerRpcError(
        bundlerErrorCodes.rejectedByEntryPoint,
        'Aggregators are not supported by this bundler',
      )
    const validUntil = (validationData >> 160n) & ((1n << 48n) - 1n)
    const validAfter = validationData >> 208n
    const now = BigInt(Math.floor(Date.now() / 1000))
    if ((validUntil !== 0n && validUntil < now + 30n) || validAfter > now)
      throw new BundlerRpcError(
        bundlerErrorCodes.outOfTimeRange,
        by === 'account'
          ? 'The UserOperation is outside its time range'
          : "The UserOperation is outside its paymaster's time range",
      )
  }

  /**
   * The call the EntryPoint makes to the account to run `operation`'s calls: its callData as it is, or,
   * when that starts with `executeUserOp`'s selector, `executeUserOp(operation, userOpHash)`.
   */
  const executionCall = async (operation: UserOperation<'0.8'>): Promise<Hex> => {
    if (!operation.callData.toLowerCase().startsWith(EXECUTE_USER_OP_SELECTOR)) return operation.callData
    const userOpHash = getUserOperationHash({
      chainId: await publicClient.getChainId(),
      entryPointAddress: entryPoint08Address,
      entryPointVersion: '0.8',
      userOperation: operation,
    })
    return encodeFunctionData({
      abi: accountExecuteAbi,
      functionName: 'executeUserOp',
      args: [toPackedUserOperation(operation), userOpHash],
    })
  }

  const estimate = async (checked: CheckedUserOperation) => {
    const draft = toOperation(checked, {
      callGasLimit: ESTIMATE_CALL_GAS,
      verificationGasLimit: ESTIMATE_VERIFICATION_GAS,
      preVerificationGas: 0n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
    })
    const preVerificationGas = preVerificationGasOf(draft)
    draft.preVerificationGas = preVerificationGas
    const balance = (await publicClient.getBalance({ address: draft.sender })) + parseEther('1')
    // 1. Do the calls succeed? Run them from the EntryPoint after an operation without calls (which
    //    still deploys the account when it has a factory).
    //    A session key's signature (WalletAccount's `0x01 ‖ key ‖ period ‖ sig`) is checked against the
    //    calls it signs, which this run leaves out: it runs with a plain stub signature instead. A session
    //    op's calls run as the EntryPoint runs them, through `executeUserOp` with the op as it is (the
    //    account measures what leaves it there, so an op over its limits reverts here).
    const withoutCalls = await simulate(
      {
        ...draft,
        callData: '0x',
        ...(isSessionSignature(draft.signature) ? { signature: SESSION_KEY_STUB } : {}),
      },
      {
        target: draft.sender,
        targetCallData: await executionCall(draft),
        sender: { balance },
      },
    )
    if (!withoutCalls.targetSuccess) {
      throw new BundlerRpcError(
        bundlerErrorCodes.executionReverted,
        `The UserOperation's calls revert: ${revertReason(withoutCalls.targetResult)}`,
        withoutCalls.targetResult,
      )
    }
    // 2. What it costs: at a gas price of 1 wei, `paid` is the gas used, with 10 % of the unused call
    //    gas beyond 40,000 charged as a penalty.
    const measured = await simulate(draft, { sender: { balance } })
    const verificationUsed = measured.preOpGas - preVerificationGas
    const executionCharged = measured.paid - measured.preOpGas
    let executionUsed = executionCharged
    if (ESTIMATE_CALL_GAS - executionCharged > PENALTY_THRESHOLD)
      executionUsed = (executionCharged * 10n - ESTIMATE_CALL_GAS) / 9n
    return {
      preVerificationGas,
      verificationGasLimit: (verificationUsed * 3n) / 2n + 20_000n,
      callGasLimit: (executionUsed * 6n) / 5n + 20_000n,
    }
  }

  return { simulate, checkValidation, estimate }
}
