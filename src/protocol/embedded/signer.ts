// The wallet's one signer: a plan's requests signed with the person's keys as bytes, in the service today and the frame later.
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import {
  type Address,
  bytesToHex,
  getAddress,
  type Hex,
  hashMessage,
  hashTypedData,
  hexToBytes,
  isAddressEqual,
  keccak256,
  recoverAddress,
  serializeTransaction,
  type TransactionSerializable,
  type TypedDataDefinition,
} from 'viem'
import { getUserOperationHash, type UserOperation } from 'viem/account-abstraction'
import type * as z from 'zod/mini'
import { decodeBase58 } from '../siwx/base58.ts'
import type { ApprovalMethod } from './methods.ts'
import type { SignPlan, SignRequest, signTypedDataShape } from './signing.ts'
import { base64Bytes, checkSignRequest } from './signingRules.ts'

/** The curve of each key. */
export type SignerCurve = 'secp256k1' | 'ed25519'
/** The key each request is signed with: a curve's, or one of the two Bitcoin keys (BIP-84 coin 0 / 1). */
export type SignerKey = SignerCurve | 'bitcoin' | 'bitcoinTest'

/** A 65-byte signature (r, s, v = 27 or 28) of a 32-byte hash, deterministic (RFC 6979) and low-s. */
export function signHash(hash: Hex, secret: Uint8Array): Hex {
  const digest = hexToBytes(hash)
  try {
    const signature = secp256k1.sign(digest, secret, { lowS: true, extraEntropy: false })
    const r = signature.r.toString(16).padStart(64, '0')
    const s = signature.s.toString(16).padStart(64, '0')
    return `0x${r}${s}${signature.recovery ? '1c' : '1b'}`
  } finally {
    digest.fill(0)
  }
}

/**
 * The EVM address of a secp256k1 key given as bytes.
 *
 * @example
 * evmAddressOf(secret) // '0xf39F…'
 */
export function evmAddressOf(secret: Uint8Array): Address {
  const point = secp256k1.getPublicKey(secret, false)
  return getAddress(`0x${keccak256(point.subarray(1)).slice(-40)}`)
}

/**
 * The EIP-712 typed data the owner signs for an ERC-1271 `hash` of the WalletAccount `account` on
 * `chainId`: the account's `isValidSignature` recovers the owner from this digest, so the signature holds
 * for no other account of the same owner and on no other chain.
 *
 * @example
 * signHash(hashTypedData(replaySafeTypedData(account, 31337, hashMessage('hello'))), secret)
 */
export function replaySafeTypedData(account: Address, chainId: number, hash: Hex) {
  return {
    domain: { name: 'WalletAccount', version: '1', chainId, verifyingContract: account },
    types: { WalletAccountMessage: [{ name: 'hash', type: 'bytes32' }] },
    primaryType: 'WalletAccountMessage',
    message: { hash },
  } as const
}

type TransactionRequest = Extract<SignRequest, { kind: 'evm-transaction' }>['transaction']
type UserOperationRequest = Extract<SignRequest, { kind: 'evm-user-operation' }>['userOperation']

/**
 * A planned transaction as viem serializes it (decimal strings to bigints).
 *
 * @example
 * const raw = serializeTransaction(transactionOf(request.transaction), parseSignature(signature))
 */
export function transactionOf(tx: TransactionRequest): TransactionSerializable {
  const common = {
    chainId: tx.chainId,
    nonce: tx.nonce,
    gas: BigInt(tx.gas),
    ...(tx.to ? { to: tx.to as Address } : {}),
    value: BigInt(tx.value),
    ...(tx.data ? { data: tx.data as Hex } : {}),
  }
  return tx.type === 'legacy'
    ? { ...common, type: 'legacy', gasPrice: BigInt(tx.gasPrice) }
    : {
        ...common,
        type: 'eip1559',
        maxFeePerGas: BigInt(tx.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas),
      }
}

const quantityFields = [
  'nonce',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const

/**
 * A planned UserOperation as viem hashes and sends it (decimal strings to bigints), without its signature.
 *
 * @example
 * getUserOperationHash({ chainId, entryPointAddress, entryPointVersion: '0.8', userOperation: { ...userOperationOf(op), signature } })
 */
export function userOperationOf(operation: UserOperationRequest): UserOperation<'0.8'> {
  const out: Record<string, unknown> = { ...operation, signature: '0x' }
  for (const name of quantityFields) {
    const value = operation[name]
    if (value !== undefined) out[name] = BigInt(value)
  }
  return out as unknown as UserOperation<'0.8'>
}

/** Typed data of a request as viem hashes it (the schema checked its shape; viem checks its values). */
const typedDataOf = (typedData: z.infer<typeof signTypedDataShape>) =>
  typedData as unknown as TypedDataDefinition

/** The 32-byte hash an EVM request's signature is over (computed here, never taken from the caller). */
export function evmDigestOf(request: Extract<SignRequest, { kind: `evm-${string}` }>): Hex {
  switch (request.kind) {
    case 'evm-message':
      return hashMessage({ raw: request.message as Hex })
    case 'evm-typed-data':
      return hashTypedData(typedDataOf(request.typedData))
    case 'evm-transaction':
      return keccak256(serializeTransaction(transactionOf(request.transaction)))
    case 'evm-user-operation':
      // v0.8: the hash is the UserOperation's EIP-712 digest, which WalletAccount checks with ECDSA.recover.
      return getUserOperationHash({
        chainId: request.chainId,
        entryPointAddress: request.entryPoint as Address,
        entryPointVersion: '0.8',
        userOperation: userOperationOf(request.userOperation),
      })
    case 'evm-account-message':
      return hashTypedData(
        replaySafeTypedData(
          request.account as Address,
          request.chainId,
          hashMessage({ raw: request.message as Hex }),
        ),
      )
    case 'evm-account-typed-data':
      return hashTypedData(
        replaySafeTypedData(
          request.account as Address,
          request.chainId,
          hashTypedData(typedDataOf(request.typedData)),
        ),
      )
  }
}

/** The curve of a request's key (the Bitcoin keys are secp256k1). */
export const curveOfRequest = (request: SignRequest): SignerCurve =>
  request.kind.startsWith('solana-') ? 'ed25519' : 'secp256k1'

/** The key a request is signed with. */
export const keyOfRequest = (request: SignRequest): SignerKey =>
  request.kind === 'bip122-message' || request.kind === 'bip122-psbt'
    ? request.key
    : request.kind.startsWith('solana-')
      ? 'ed25519'
      : 'secp256k1'

/** Whether a plan holds Bitcoin requests (the frame then loads the Bitcoin signer, its own chunk). */
export const hasBitcoinRequests = (plan: SignPlan): boolean =>
  plan.some((request) => request.kind.startsWith('bip122-'))

/** The Bitcoin signer (bitcoinSigner.ts), passed in so that the EVM and Solana paths never load it. */
export type BitcoinSigning = Pick<typeof import('./bitcoinSigner.ts'), 'signBitcoinRequest'>

/**
 * Signs one request, already checked ({@link checkSignRequest}), with the key of its curve.
 *
 * @example
 * const signature = signRequestWith({ kind: 'evm-message', message: '0x68656c6c6f' }, secp256k1Secret)
 */
export function signRequestWith(request: SignRequest, secret: Uint8Array, bitcoin?: BitcoinSigning): Hex {
  if (request.kind === 'solana-message' || request.kind === 'solana-transaction')
    return bytesToHex(ed25519.sign(base64Bytes(request.message), secret))
  if (request.kind === 'bip122-message' || request.kind === 'bip122-psbt') {
    if (!bitcoin) throw new Error(`No Bitcoin signer to sign ${request.kind}`)
    return bitcoin.signBitcoinRequest(request, secret)
  }
  return signHash(evmDigestOf(request), secret)
}

/** What {@link signPlan} needs. */
export interface SignPlanParameters {
  method: ApprovalMethod
  plan: SignPlan
  /** The person's keys as bytes: only the keys the plan uses are needed. */
  keys: Partial<Record<SignerKey, Uint8Array>>
  /** The person's smart account addresses: typed data for their domains is refused. */
  ownAccounts: readonly Address[]
  /** The Bitcoin signer, for plans with Bitcoin requests (it checks a PSBT's inputs itself). */
  bitcoin?: BitcoinSigning
}

/**
 * Signs every request of a plan, in order, after checking them all (signingRules.ts): one refused,
 * nothing is signed. The keys (secp256k1: 32 bytes, ed25519: the 32-byte seed) go to `@noble/curves` as
 * those bytes and are never turned into hex strings (immutable copies nothing can zero); viem only
 * hashes and serializes.
 *
 * @example
 * const signatures = signPlan({ method: 'personal_sign', plan, keys: { secp256k1: secret }, ownAccounts: [] })
 */
export function signPlan({ method, plan, keys, ownAccounts, bitcoin }: SignPlanParameters): Hex[] {
  for (const request of plan) checkSignRequest(method, request, { ownAccounts })
  return plan.map((request) => {
    const secret = keys[keyOfRequest(request)]
    if (!secret) throw new Error(`No ${keyOfRequest(request)} key to sign ${request.kind}`)
    return signRequestWith(request, secret, bitcoin)
  })
}

/**
 * Whether `signature` is the person's own over exactly this request: an EVM signature recovers to their
 * EOA (`own.evm`, the owner of their smart account too), a Solana one verifies against their key.
 *
 * @example
 * if (!(await verifyRequestSignature(request, signature, ctx.own))) throw refused()
 */
export async function verifyRequestSignature(
  request: SignRequest,
  signature: string,
  own: { evm: Address; solana: string },
): Promise<boolean> {
  try {
    const bytes = hexToBytes(signature as Hex)
    // Bitcoin signatures are checked by bitcoinSigner.ts's verifyBitcoinSignature (the service's plan.ts).
    if (request.kind === 'bip122-message' || request.kind === 'bip122-psbt') return false
    if (request.kind === 'solana-message' || request.kind === 'solana-transaction') {
      const key = decodeBase58(own.solana)
      return bytes.length === 64 && !!key && ed25519.verify(bytes, base64Bytes(request.message), key)
    }
    if (bytes.length !== 65) return false
    const signer = await recoverAddress({ hash: evmDigestOf(request), signature: signature as Hex })
    return isAddressEqual(signer, own.evm)
  } catch {
    return false
  }
}
