// Signing by plan: every signature an approval needs, described as data the signer interprets itself.
import * as z from 'zod/mini'

const hex = z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'Expected hex bytes'))
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected an address'))
/** A bigint as a decimal string (JSON has no bigints). */
const decimal = z.string().check(z.regex(/^\d{1,78}$/, 'Expected a decimal integer'))
const base64 = z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Expected base64'))
/** Which of the person's Bitcoin keys signs: BIP-84 coin 0 (mainnet) or coin 1 (the test networks). */
const bitcoinKey = z.enum(['bitcoin', 'bitcoinTest'])

/** EIP-712 typed data as viem hashes it (without an `EIP712Domain` type). */
export const signTypedDataShape = z.object({
  domain: z.optional(z.record(z.string(), z.unknown())),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
})

const transactionCommon = {
  chainId: z.number().check(z.int(), z.positive()),
  nonce: z.number().check(z.int(), z.nonnegative()),
  gas: decimal,
  to: z.optional(address),
  value: decimal,
  data: z.optional(hex),
}

/** A transaction of the person's EOA, whole: what is serialized and signed, and nothing else. */
export const signTransactionShape = z.discriminatedUnion('type', [
  z.object({ type: z.literal('legacy'), gasPrice: decimal, ...transactionCommon }),
  z.object({
    type: z.literal('eip1559'),
    maxFeePerGas: decimal,
    maxPriorityFeePerGas: decimal,
    ...transactionCommon,
  }),
])

/** An ERC-4337 v0.8 UserOperation without its signature (quantities as decimal strings). */
export const signUserOperationShape = z.object({
  sender: address,
  nonce: decimal,
  factory: z.optional(address),
  factoryData: z.optional(hex),
  callData: hex,
  callGasLimit: decimal,
  verificationGasLimit: decimal,
  preVerificationGas: decimal,
  maxFeePerGas: decimal,
  maxPriorityFeePerGas: decimal,
  paymaster: z.optional(address),
  paymasterVerificationGasLimit: z.optional(decimal),
  paymasterPostOpGasLimit: z.optional(decimal),
  paymasterData: z.optional(hex),
})

/**
 * One signature an approval needs, as the data that is signed (never a bare digest):
 * - `evm-message`: EIP-191 over raw bytes (`personal_sign`);
 * - `evm-typed-data`: EIP-712 typed data;
 * - `evm-transaction`: a transaction of the EOA, signed whole (answered as the 65-byte r, s, v);
 * - `evm-user-operation`: the owner's signature of a v0.8 UserOperation (its EIP-712 typed data on
 *   `entryPoint` and `chainId`; the signer computes the hash itself);
 * - `evm-account-message` / `evm-account-typed-data`: the smart account's ERC-1271 signature: the owner
 *   signs the hash of the message or typed data wrapped in the account's replay-safe EIP-712 domain;
 * - `solana-message`: ed25519 over off-chain message bytes (never bytes a transaction could carry);
 * - `solana-transaction`: ed25519 over a transaction's message bytes (base64);
 * - `bip122-message`: a Bitcoin message (base64 bytes) signed with the network's BIP-84 key, by BIP-137
 *   (`ecdsa`, "Bitcoin Signed Message") or BIP-322 "simple" (`bip322`);
 * - `bip122-psbt`: a PSBT (base64) whose `inputs` (the person's own, by index) the key signs, SIGHASH_ALL.
 */
export const signRequest = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('evm-message'), message: hex }),
  z.object({ kind: z.literal('evm-typed-data'), typedData: signTypedDataShape }),
  z.object({ kind: z.literal('evm-transaction'), transaction: signTransactionShape }),
  z.object({
    kind: z.literal('evm-user-operation'),
    chainId: z.number().check(z.int(), z.positive()),
    entryPoint: address,
    userOperation: signUserOperationShape,
  }),
  z.object({
    kind: z.literal('evm-account-message'),
    account: address,
    chainId: z.number().check(z.int(), z.positive()),
    message: hex,
  }),
  z.object({
    kind: z.literal('evm-account-typed-data'),
    account: address,
    chainId: z.number().check(z.int(), z.positive()),
    typedData: signTypedDataShape,
  }),
  z.object({ kind: z.literal('solana-message'), message: base64 }),
  z.object({ kind: z.literal('solana-transaction'), message: base64 }),
  z.object({
    kind: z.literal('bip122-message'),
    key: bitcoinKey,
    protocol: z.enum(['ecdsa', 'bip322']),
    message: base64,
  }),
  z.object({
    kind: z.literal('bip122-psbt'),
    key: bitcoinKey,
    psbt: base64,
    inputs: z.array(z.number().check(z.int(), z.nonnegative())),
  }),
])
export type SignRequest = z.infer<typeof signRequest>
export type SignRequestKind = SignRequest['kind']

/** A plan: the signatures an approval needs, in order. */
export const signingPlan = z.array(signRequest)
export type SignPlan = z.infer<typeof signingPlan>

/**
 * One signature per request of the plan, in its order, as hex: 65 bytes (r, s, v) for the EVM kinds,
 * 64 bytes for the Solana ones; for Bitcoin see `signBitcoinRequest` (bitcoinSigner.ts).
 */
export const planSignatures = z.array(hex)
export type PlanSignatures = z.infer<typeof planSignatures>
