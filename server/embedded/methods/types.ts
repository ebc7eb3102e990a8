/** The contract of the wallet's request methods: the context they are given, and one handler's shape. */
import type { Address } from 'viem'
import type * as z from 'zod/mini'
import type { BitcoinNetwork } from '../../../src/protocol/embedded/bitcoin.ts'
import type { ApprovalMethod, ApprovalPreview, WalletMethod } from '../../../src/protocol/embedded/index.ts'
import type { BitcoinNodes } from '../bitcoinNode.ts'
import type { CallBatches } from '../callBatches.ts'
import type { EmbeddedNetwork } from '../networks.ts'
import type { PermissionIndex } from '../permissionIndex.ts'
import type { SmartAccounts } from '../smartAccounts.ts'
import type { Upstream } from '../upstream.ts'

/** The EVM account a request uses: the person's EOA, or their smart account where they prefer it. */
export interface EvmAccount {
  address: Address
  smart: boolean
}

/** What the smart-account methods use of the smart accounts (see smartAccounts.ts). */
export type SmartAccountActions = Pick<
  SmartAccounts,
  | 'accountSignature'
  | 'prepareCalls'
  | 'prepareOperation'
  | 'sendSigned'
  | 'waitForReceipt'
  | 'receipt'
  | 'preference'
  | 'supports'
  | 'sponsors'
>

/** The person's Bitcoin account on a bip122 network, and that network's node. */
export interface BitcoinAccount {
  readonly network: BitcoinNetwork
  /** The compressed public key of the network's BIP-84 key. */
  readonly publicKey: Uint8Array
  /** Its native segwit (P2WPKH) address. */
  readonly address: string
  /** Its BIP-84 path. */
  readonly path: string
  readonly node: Omit<BitcoinNodes, 'networks'>
}

/**
 * Everything a method needs for one person on one network, passed in: a method reaches for nothing
 * else (no database, no session), so it can be tested with a real key and a scripted chain.
 */
export interface MethodContext {
  readonly userId: string
  /** The project the person signed in through (the site asking). */
  readonly projectId: string
  /**
   * The project's own paymaster endpoint (`PAYMASTER_PUBLIC_URL?projectId=…`): the only `paymasterService`
   * URL `wallet_sendCalls` honours.
   */
  readonly paymasterUrl: string
  /** The CAIP-2 network of the request. */
  readonly chainId: string
  readonly network: EmbeddedNetwork
  /** Every network the wallet serves (capabilities and assets answer per EVM network). */
  readonly networks: readonly EmbeddedNetwork[]
  /** The addresses of the person's own keys. */
  readonly own: { evm: Address; solana: string }
  /** The EVM account requests on this network use: the smart account when the person prefers it here. */
  evmAccount(): Promise<EvmAccount>
  /**
   * The person's smart account addresses whose EIP-712 domains the owner key must not sign for a page
   * (the same address on every network with the factory); none when no network has smart accounts.
   */
  ownSmartAccounts(): Promise<Address[]>
  /** JSON-RPC on the service's upstreams. */
  readonly upstream: Upstream
  readonly smart: SmartAccountActions
  readonly batches: CallBatches
  /** The permissions (sessions) the person granted sites. */
  readonly permissions: PermissionIndex
  /** Unix seconds now (a permission's expiry is checked against it). */
  nowSeconds(): number
  /**
   * On a bip122 network: the person's Bitcoin account there (refused until the frame sent the keys,
   * and on a network without a node). Absent where the service has no Bitcoin node.
   */
  bitcoin?(): Promise<BitcoinAccount>
}

/** A preview without what the request service adds to every one (the method, the network, the fee in USD). */
export type MethodPreview = Omit<ApprovalPreview, 'method' | 'network' | 'feeUsd'>

/** What a method's preview answers: what the person is shown, and what signing will need (stored with it). */
export interface Built<Prepared> {
  shown: MethodPreview
  prepared: Prepared
}

/**
 * A method that signs or sends after the person's approval. `preview` builds what is shown from what
 * will be signed and puts every signature it needs, as data, in `prepared.plan` (signing by plan);
 * `execute` gets the stored params (checked again with `params`), that `prepared` and one signature per
 * request of the plan, checks each is the person's own over its request, and relays: it never opens a key.
 */
export interface ApprovalHandler<Schema extends z.ZodMiniType = z.ZodMiniType, Prepared = unknown> {
  readonly method: ApprovalMethod
  readonly params: Schema
  preview(ctx: MethodContext, params: z.output<Schema>): Promise<Built<Prepared>>
  execute(
    ctx: MethodContext,
    params: z.output<Schema>,
    prepared: Prepared,
    signatures: readonly string[],
  ): Promise<unknown>
}

/** A method the wallet answers itself, without approval; `namespace`: the only one it answers on. */
export interface WalletHandler<Schema extends z.ZodMiniType = z.ZodMiniType> {
  readonly method: WalletMethod
  readonly namespace?: 'eip155' | 'solana' | 'bip122'
  readonly params: Schema
  answer(ctx: MethodContext, params: z.output<Schema>): Promise<unknown>
}

/**
 * Types an approval method's handler (its params and prepared data inferred).
 *
 * @example
 * export const personalSign = approvalMethod({ method: 'personal_sign', params, preview, execute })
 */
export const approvalMethod = <Schema extends z.ZodMiniType, Prepared>(
  handler: ApprovalHandler<Schema, Prepared>,
) => handler

/**
 * Types a wallet method's handler (its params inferred).
 *
 * @example
 * export const getCapabilities = walletMethod({ method: 'wallet_getCapabilities', params, answer })
 */
export const walletMethod = <Schema extends z.ZodMiniType>(handler: WalletHandler<Schema>) => handler
