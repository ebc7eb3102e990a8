/**
 * The paymaster service (ERC-7677): answers `pm_getPaymasterStubData` and `pm_getPaymasterData` for a
 * project, after its policy (server/paymaster/policies.ts) says yes: the network, every call target of the
 * operation's `execute`/`executeBatch`, and the daily budgets (taken when the final data is signed). The
 * final data is the WalletPaymaster signer's approval of exactly this operation for ten minutes.
 */
import { type Address, type Hex, hexToBigInt, isAddressEqual, toHex } from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import * as z from 'zod/mini'
import {
  type PaymasterErrorCode,
  type PaymasterMethod,
  type PaymasterResult,
  type PaymasterUserOperation,
  paymasterParams,
} from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import { decodeWalletAccountCalls } from '../embedded/walletAccount.ts'
import { encodePaymasterData, signPaymasterData } from './approval.ts'
import { budgetShortfall, getPaymasterPolicy, type PaymasterPolicy, takeBudget, utcDay } from './policies.ts'

/** Gas for WalletPaymaster's validation (a hash of the operation and one ecrecover use about 15,000). */
export const PAYMASTER_VERIFICATION_GAS = 60_000n
/** WalletPaymaster has no postOp work (its context is empty). */
export const PAYMASTER_POST_OP_GAS = 0n
/** How long a signed approval pays. */
export const APPROVAL_SECONDS = 600

/** A refusal, answered as a JSON-RPC error with `data.code`. */
export class PaymasterRefusal extends Error {
  override name = 'PaymasterRefusal'
  constructor(
    readonly code: PaymasterErrorCode | 'INVALID_PARAMS',
    message: string,
  ) {
    super(message)
  }
}

export type PaymasterServiceOptions = {
  db: Db
  /** `PAYMASTER_SIGNER_KEY`; null: nothing is sponsored. */
  signerKey: Hex | null
  /** `PAYMASTER_ADDRESSES`: the WalletPaymaster of each network. */
  addresses: Readonly<Record<string, Address>>
  now?: () => number
}

export type PaymasterService = {
  /** The networks that have a paymaster contract (when a signer is configured). */
  networks: readonly string[]
  /** The signer's address (never the key), or null. */
  signer: Address | null
  /** The answer to one ERC-7677 request, or a {@link PaymasterRefusal}. */
  answer(projectId: string, method: PaymasterMethod, params: unknown): Promise<PaymasterResult>
  /** The networks this project sponsors (its policy's, where the service has a paymaster). */
  sponsoredNetworks(projectId: string): Promise<string[]>
}

/**
 * The paymaster service of the companion service.
 *
 * @example
 * const paymaster = createPaymasterService({ db, signerKey: config.paymasterSignerKey, addresses: config.paymasterAddresses })
 * const stub = await paymaster.answer('shop', 'pm_getPaymasterStubData', [userOp, entryPoint08Address, '0x7a69', {}])
 */
export function createPaymasterService(options: PaymasterServiceOptions): PaymasterService {
  const now = options.now ?? Date.now
  const signer = options.signerKey === null ? null : privateKeyToAccount(options.signerKey)
  const networks = signer === null ? [] : Object.keys(options.addresses).sort()

  const policyOf = async (projectId: string): Promise<PaymasterPolicy> => {
    if (signer === null)
      throw new PaymasterRefusal(
        'PAYMASTER_NOT_CONFIGURED',
        'Sponsored gas is not configured on this service',
      )
    const policy = await getPaymasterPolicy(options.db, projectId)
    if (policy === null)
      throw new PaymasterRefusal('PAYMASTER_NOT_CONFIGURED', `The project ${projectId} sponsors no gas`)
    return policy
  }

  const answer: PaymasterService['answer'] = async (projectId, method, params) => {
    const parsed = z.safeParse(paymasterParams, params)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new PaymasterRefusal(
        'INVALID_PARAMS',
        `Invalid params${issue && issue.path.length > 0 ? ` [${issue.path.join('.')}]` : ''}: expected [userOp, entryPoint, chainId, context]`,
      )
    }
    const [operation, entryPoint, chainIdHex] = parsed.data
    if (!isAddressEqual(entryPoint as Address, entryPoint08Address))
      throw new PaymasterRefusal(
        'INVALID_PARAMS',
        `Unsupported EntryPoint: this paymaster serves ${entryPoint08Address}`,
      )
    const policy = await policyOf(projectId)
    const chainId = Number(hexToBigInt(chainIdHex as Hex))
    const network = `eip155:${chainId}`
    const paymaster = options.addresses[network]
    if (!policy.networks.includes(network) || paymaster === undefined || !Number.isSafeInteger(chainId))
      throw new PaymasterRefusal(
        'PAYMASTER_NETWORK_NOT_SPONSORED',
        `The project does not sponsor gas on ${network}`,
      )
    checkCalls(operation, policy)

    const sender = operation.sender as Address
    const day = utcDay(now())
    const limits = {
      paymasterVerificationGasLimit: toHex(PAYMASTER_VERIFICATION_GAS),
      paymasterPostOpGasLimit: toHex(PAYMASTER_POST_OP_GAS),
    }
    const validUntil = Math.floor(now() / 1000) + APPROVAL_SECONDS
    if (method === 'pm_getPaymasterStubData') {
      // Gas is not known yet: refuse only when a budget is already spent.
      const short = await budgetShortfall(options.db, { projectId, day, sender, cost: 1n, policy })
      if (short !== null) throw budgetSpent(short)
      return {
        paymaster,
        paymasterData: encodePaymasterData({ validUntil, validAfter: 0 }),
        ...limits,
        isFinal: false,
      }
    }
    const gas = gasOf(operation)
    const cost =
      (gas.preVerificationGas +
        gas.verificationGasLimit +
        gas.callGasLimit +
        PAYMASTER_VERIFICATION_GAS +
        PAYMASTER_POST_OP_GAS) *
      gas.maxFeePerGas
    const short = await takeBudget(options.db, { projectId, day, sender, cost, policy })
    if (short !== null) throw budgetSpent(short)
    const paymasterData = await signPaymasterData(signer as NonNullable<typeof signer>, {
      userOperation: {
        sender,
        nonce: hexToBigInt(operation.nonce as Hex),
        ...(operation.factory && operation.factoryData
          ? { factory: operation.factory as Address, factoryData: operation.factoryData as Hex }
          : {}),
        callData: operation.callData as Hex,
        ...gas,
        paymaster,
        paymasterVerificationGasLimit: PAYMASTER_VERIFICATION_GAS,
        paymasterPostOpGasLimit: PAYMASTER_POST_OP_GAS,
      },
      chainId,
      validUntil,
      validAfter: 0,
    })
    return { paymaster, paymasterData, ...limits }
  }

  return {
    networks,
    signer: signer?.address ?? null,
    answer,
    async sponsoredNetworks(projectId) {
      if (signer === null) return []
      const policy = await getPaymasterPolicy(options.db, projectId)
      return policy === null ? [] : policy.networks.filter((network) => networks.includes(network))
    },
  }
}

/** Every call of the operation must target a contract of the policy. */
function checkCalls(operation: PaymasterUserOperation, policy: PaymasterPolicy): void {
  let calls: { to: Address }[]
  try {
    calls = decodeWalletAccountCalls(operation.callData as Hex)
  } catch {
    throw new PaymasterRefusal(
      'PAYMASTER_CONTRACT_NOT_SPONSORED',
      'Only execute and executeBatch calls of a WalletAccount are sponsored',
    )
  }
  if (calls.length === 0)
    throw new PaymasterRefusal(
      'PAYMASTER_CONTRACT_NOT_SPONSORED',
      'An operation without calls is not sponsored',
    )
  for (const call of calls) {
    if (!policy.contracts.some((contract) => isAddressEqual(contract, call.to)))
      throw new PaymasterRefusal(
        'PAYMASTER_CONTRACT_NOT_SPONSORED',
        `Calls to ${call.to} are not sponsored by this project`,
      )
  }
}

/** The final data needs every gas field: it signs them. */
function gasOf(operation: PaymasterUserOperation) {
  const fields = [
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
    'maxFeePerGas',
    'maxPriorityFeePerGas',
  ] as const
  const gas = {} as Record<(typeof fields)[number], bigint>
  for (const field of fields) {
    const value = operation[field]
    if (value === undefined)
      throw new PaymasterRefusal(
        'INVALID_PARAMS',
        `The UserOperation has no ${field}: estimate its gas first`,
      )
    gas[field] = hexToBigInt(value as Hex)
  }
  return gas
}

function budgetSpent(short: 'per-user' | 'total'): PaymasterRefusal {
  return new PaymasterRefusal(
    'PAYMASTER_BUDGET_SPENT',
    short === 'per-user'
      ? "The project's daily gas budget for this account is spent: try again tomorrow (UTC)"
      : "The project's daily gas budget is spent: try again tomorrow (UTC)",
  )
}
