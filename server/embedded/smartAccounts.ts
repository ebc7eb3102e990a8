/**
 * The embedded wallet's smart accounts (SPEC 3, 4, 6): the person's preferred account type, their
 * WalletAccount (ERC-4337 v0.8 with ERC-1271, owned by their EVM key) on the networks the service has a bundler for,
 * and UserOperations sent through that bundler. A UserOperation is prepared whole at the preview and
 * signed by plan (the service never opens a key here); the bundler is reached through the service's
 * forwarder, never by its URL.
 */
import { eq } from 'drizzle-orm'
import {
  type Address,
  BaseError,
  type Chain,
  createPublicClient,
  custom,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  serializeErc6492Signature,
} from 'viem'
import {
  createBundlerClient,
  createPaymasterClient,
  entryPoint08Address,
  type UserOperationReceipt,
} from 'viem/account-abstraction'
import { toAccount } from 'viem/accounts'
import { readContract } from 'viem/actions'
import { type PaymasterMethod, paymasterRpcErrorCodes } from '../../src/protocol/api/index.ts'
import { userOperationOf } from '../../src/protocol/embedded/signer.ts'
import type { SignRequest } from '../../src/protocol/embedded/signing.ts'
import type { AccountType } from '../../src/protocol/entities.ts'
import type { Db } from '../db/database.ts'
import { walletUsers } from '../db/schema.ts'
import { PaymasterRefusal, type PaymasterService } from '../paymaster/sponsor.ts'
import type { Custody } from './custody.ts'
import { EmbeddedError, isEmbeddedError } from './errors.ts'
import type { Upstream } from './upstream.ts'
import type { PageUserOperation } from './userOperations.ts'
import {
  encodeSessionCalls,
  toWalletAccount,
  WALLET_ACCOUNT_FACTORY,
  walletAccountAbi,
} from './walletAccount.ts'

/** SPEC 4: the preference could not be honoured, so the wallet stays on (or falls back to) the EOA. */
export const smartAccountsUnsupportedMessage = 'This application might not support Smart Accounts'

/** The fields of a prepared UserOperation that the owner signs (its signature aside). */
const plannedFields = new Set([
  'sender',
  'nonce',
  'factory',
  'factoryData',
  'callData',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymaster',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
  'paymasterData',
])

/** How long the wallet waits for a UserOperation's receipt before answering with its hash only. */
const RECEIPT_TIMEOUT_MS = 60_000

export interface SmartAccountDependencies {
  db: Db
  custody: Custody
  /** The networks' RPC upstreams. */
  upstream: Upstream
  /** The networks' bundlers (BUNDLER_UPSTREAMS). */
  bundler: Upstream
  /** CAIP-2 ids of the EVM networks with a bundler. */
  chains: readonly string[]
  /** The service's own paymaster (ERC-7677), asked in process when a request is sponsored. */
  paymaster?: PaymasterService
}

/** A UserOperation the project's paymaster pays for: its project, and the dapp's context for it. */
export interface Sponsorship {
  projectId: string
  context?: Record<string, unknown>
}

/** A call of a UserOperation. */
export interface SmartAccountCall {
  to: Address
  value?: bigint
  data?: Hex
}

/**
 * The smart-account side of the embedded wallet.
 *
 * @example
 * const smart = createSmartAccounts({ db, custody, upstream, bundler, chains: ['eip155:31337'] })
 * if (await smart.activeOn(userId, 'eip155:31337')) await smart.send(userId, 'eip155:31337', calls)
 */
export function createSmartAccounts(deps: SmartAccountDependencies) {
  const { db, custody, upstream, bundler } = deps
  const chains = new Set(deps.chains.filter((chainId) => chainId.startsWith('eip155:')))

  const chainOf = (chainId: string): Chain => {
    const id = Number(chainId.split(':')[1])
    return {
      id,
      name: chainId,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [] } },
    }
  }
  const transportOf = (over: Upstream, chainId: string) =>
    custom({ request: ({ method, params }) => over.call(chainId, method, params ?? []) }, { retryCount: 0 })
  const publicClient = (chainId: string) =>
    createPublicClient({ chain: chainOf(chainId), transport: transportOf(upstream, chainId) })

  /** What went wrong, as the wallet's error: the bundler's or the chain's own words when there are some. */
  const failure = (error: unknown): EmbeddedError => {
    if (isEmbeddedError(error)) return error
    const refusal =
      error instanceof BaseError ? error.walk((cause) => cause instanceof PaymasterRefusal) : error
    if (refusal instanceof PaymasterRefusal)
      return new EmbeddedError(403, 'FORBIDDEN', refusal.message, {
        rpcCode: refusal.code === 'INVALID_PARAMS' ? -32602 : paymasterRpcErrorCodes[refusal.code],
      })
    const inner = error instanceof BaseError ? error.walk((cause) => isEmbeddedError(cause)) : undefined
    if (isEmbeddedError(inner)) return inner
    const message = error instanceof BaseError ? error.shortMessage : 'The UserOperation failed'
    return new EmbeddedError(502, 'UPSTREAM_ERROR', message, { cause: error })
  }

  async function preference(userId: string): Promise<AccountType> {
    const [row] = await db
      .select({ type: walletUsers.preferredAccountType })
      .from(walletUsers)
      .where(eq(walletUsers.id, userId))
      .limit(1)
    return row?.type ?? 'eoa'
  }

  /** The owner's WalletAccount address (the same on every network with the factory). */
  async function address(userId: string, chainId: string): Promise<Address> {
    const owner = (await custody.accounts(userId)).secp256k1.address as Address
    try {
      return await readContract(publicClient(chainId), {
        address: WALLET_ACCOUNT_FACTORY,
        abi: walletAccountAbi,
        functionName: 'getAddress',
        args: [owner, 0n],
      })
    } catch (error) {
      throw failure(error)
    }
  }

  /** Whether the account has code on the network (its first UserOperation deploys it). */
  async function deployed(chainId: string, account: Address): Promise<boolean> {
    const code = (await upstream.call(chainId, 'eth_getCode', [account, 'latest'])) as string | null
    return typeof code === 'string' && code !== '0x'
  }

  /**
   * Estimates what is missing of one UserOperation (nonce, gas, fees, the factory while undeployed) and
   * answers it as the plan's signing request: the owner signs it whole, nothing is filled in later.
   */
  async function prepare(
    userId: string,
    chainId: string,
    request: { calls: SmartAccountCall[] } | ({ callData: Hex } & Record<string, unknown>),
    sponsor?: Sponsorship,
    stubSignature?: Hex,
  ): Promise<SignRequest> {
    const client = publicClient(chainId)
    const ownerAddress = (await custody.accounts(userId)).secp256k1.address as Address
    const cannotSign = () => Promise.reject(new Error('The owner signs by plan'))
    // The owner's address only: preparing needs no key (estimation uses the stub signature).
    const owner = toAccount({
      address: ownerAddress,
      signMessage: cannotSign,
      signTypedData: cannotSign,
      signTransaction: cannotSign,
    })
    try {
      const account = await toWalletAccount({ client, owner })
      const { paymaster } = deps
      // Sponsored: the stub data for the estimate, then the signed data, from the service's own paymaster
      // in process (a dapp's paymaster URL is never fetched).
      const sponsored =
        sponsor && paymaster
          ? {
              paymaster: createPaymasterClient({
                transport: custom(
                  {
                    request: ({ method, params }) =>
                      paymaster.answer(sponsor.projectId, method as PaymasterMethod, params),
                  },
                  { retryCount: 0 },
                ),
              }),
              paymasterContext: sponsor.context ?? {},
            }
          : {}
      const bundlerClient = createBundlerClient({
        client,
        account,
        transport: transportOf(bundler, chainId),
        ...sponsored,
      })
      // A session key's op estimates with the session's stub, so the account checks its policy now.
      const prepared = await bundlerClient.prepareUserOperation({
        ...request,
        ...(stubSignature ? { signature: stubSignature } : {}),
      } as Parameters<typeof bundlerClient.prepareUserOperation>[0])
      const userOperation: Record<string, string> = {}
      for (const [name, value] of Object.entries(prepared)) {
        if (!plannedFields.has(name) || value === undefined || value === null) continue
        userOperation[name] =
          typeof value === 'bigint' || typeof value === 'number' ? value.toString() : String(value)
      }
      return {
        kind: 'evm-user-operation',
        chainId: client.chain.id,
        entryPoint: entryPoint08Address,
        userOperation: userOperation as Extract<SignRequest, { kind: 'evm-user-operation' }>['userOperation'],
      }
    } catch (error) {
      throw failure(error)
    }
  }

  return {
    /** The networks with smart accounts (those with a bundler). */
    networks: (): string[] => [...chains].sort(),

    supports: (chainId: string): boolean => chains.has(chainId),

    preference,

    /** Sets the preference (the caller checks the network has smart accounts). */
    async setPreference(userId: string, type: AccountType): Promise<void> {
      await db.update(walletUsers).set({ preferredAccountType: type }).where(eq(walletUsers.id, userId))
    },

    /** Whether requests on `chainId` go through the person's smart account. */
    async activeOn(userId: string, chainId: string): Promise<boolean> {
      return chains.has(chainId) && (await preference(userId)) === 'smartAccount'
    },

    address,

    deployed,

    /** Whether `given` is the person's smart account address on the network. */
    async isOwn(userId: string, chainId: string, given: string): Promise<boolean> {
      return isAddressEqual(given as Address, await address(userId, chainId))
    },

    /**
     * Prepares one UserOperation with all `calls` (atomic: WalletAccount's `executeBatch` reverts as a
     * whole), as the plan's signing request; `session.stubSignature`: a session key's op, in the form the
     * account meters (`executeUserOp`, {@link encodeSessionCalls}) and estimated with the session's stub.
     */
    prepareCalls: (
      userId: string,
      chainId: string,
      calls: readonly SmartAccountCall[],
      sponsor?: Sponsorship,
      session?: { stubSignature: Hex },
    ): Promise<SignRequest> =>
      prepare(
        userId,
        chainId,
        session ? { callData: encodeSessionCalls(calls) } : { calls: [...calls] },
        sponsor,
        session?.stubSignature,
      ),

    /** Whether the project's paymaster sponsors gas on the network (its policy and the service's contracts). */
    async sponsors(projectId: string, chainId: string): Promise<boolean> {
      if (!deps.paymaster || !chains.has(chainId)) return false
      return (await deps.paymaster.sponsoredNetworks(projectId)).includes(chainId)
    },

    /**
     * Prepares a page's UserOperation (checked by userOperations.ts): what the page left out (nonce, gas,
     * fees, the factory while undeployed) is filled in; the signature is always the owner's, by plan.
     */
    prepareOperation(userId: string, chainId: string, operation: PageUserOperation): Promise<SignRequest> {
      const { sender: _sender, callData, ...quantities } = operation
      const given = Object.fromEntries(
        Object.entries(quantities).map(([name, value]) => [name, BigInt(value as Hex)]),
      )
      return prepare(userId, chainId, { callData, ...given })
    },

    /** Sends a planned UserOperation with the owner's (checked) signature, answering its hash. */
    async sendSigned(chainId: string, request: SignRequest, signature: Hex): Promise<Hex> {
      if (request.kind !== 'evm-user-operation')
        throw new EmbeddedError(403, 'FORBIDDEN', 'Not a UserOperation')
      const bundlerClient = createBundlerClient({
        client: publicClient(chainId),
        transport: transportOf(bundler, chainId),
      })
      try {
        return await bundlerClient.sendUserOperation({
          ...userOperationOf(request.userOperation),
          signature,
          entryPointAddress: entryPoint08Address,
        } as unknown as Parameters<typeof bundlerClient.sendUserOperation>[0])
      } catch (error) {
        throw failure(error)
      }
    },

    /**
     * The smart account's ERC-1271 signature from the owner's (checked) signature of the replay-safe
     * wrapping (the plan's `evm-account-message` / `evm-account-typed-data`, see walletAccount.ts): wrapped
     * in EIP-6492 with the factory call while the account is not deployed, so a verifier can deploy it first.
     */
    async accountSignature(userId: string, chainId: string, ownerSignature: Hex): Promise<Hex> {
      const owner = (await custody.accounts(userId)).secp256k1.address as Address
      if (await deployed(chainId, await address(userId, chainId))) return ownerSignature
      return serializeErc6492Signature({
        address: WALLET_ACCOUNT_FACTORY,
        data: encodeFunctionData({ abi: walletAccountAbi, functionName: 'createAccount', args: [owner, 0n] }),
        signature: ownerSignature,
      })
    },

    /** The UserOperation's receipt, waiting for it (up to a minute). */
    async waitForReceipt(chainId: string, hash: Hex): Promise<UserOperationReceipt> {
      const bundlerClient = createBundlerClient({
        client: publicClient(chainId),
        transport: transportOf(bundler, chainId),
      })
      try {
        return await bundlerClient.waitForUserOperationReceipt({
          hash,
          pollingInterval: 250,
          timeout: RECEIPT_TIMEOUT_MS,
        })
      } catch (error) {
        throw failure(error)
      }
    },

    /** The UserOperation's receipt as the bundler answers it (JSON-RPC), or null while pending. */
    async receipt(chainId: string, hash: Hex): Promise<{ success?: boolean; receipt?: unknown } | null> {
      return (await bundler.call(chainId, 'eth_getUserOperationReceipt', [hash])) as {
        success?: boolean
        receipt?: unknown
      } | null
    },
  }
}

export type SmartAccounts = ReturnType<typeof createSmartAccounts>
