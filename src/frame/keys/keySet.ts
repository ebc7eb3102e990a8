// A share set as the service receives it: set id, shares as URL-safe base64, the addresses and the keys' proof.
import { bytesToHex, toHex } from 'viem'
import { fromBase64Url, toBase64, toBase64Url } from '../../protocol/base64.ts'
import {
  type CustodyMode,
  type KeySetProof,
  type KeySetupRequest,
  keySetProofMessage,
  type WalletAddressesWire,
} from '../../protocol/embedded/keys.ts'
import { signRequestWith } from '../../protocol/embedded/signer.ts'
import { addressesOfKeys, type PrivateKeys } from './derive.ts'
import { InvalidShareError } from './errors.ts'
import type { WalletSecret } from './secret.ts'
import { type ShareSet, splitSecret } from './shares.ts'

/**
 * The id of the set a share belongs to: its bytes 1 to 8 (after the format byte), as hex.
 *
 * @example
 * setIdOf(shares.device) // '9f2c…' (16 hex digits)
 */
export const setIdOf = (share: Uint8Array): string => bytesToHex(share.subarray(1, 9)).slice(2)

/**
 * A share as it travels: URL-safe base64 without padding.
 *
 * @example
 * const authShare = toWireShare(shares.auth)
 */
export const toWireShare = (share: Uint8Array): string => toBase64Url(share)

/**
 * The bytes of a share (or a version-2 secret) received as URL-safe base64; the caller zeroes them.
 *
 * @example
 * const auth = fromWireShare(answer.authShare)
 */
export function fromWireShare(text: string): Uint8Array {
  try {
    return fromBase64Url(text)
  } catch (cause) {
    throw new InvalidShareError({ cause, details: 'Not URL-safe base64' })
  }
}

/**
 * The proof that the frame holds both keys of `addresses`: each key signs
 * {@link keySetProofMessage} (EIP-191 for EVM; ed25519 over the UTF-8 bytes for Solana), through
 * the wallet's one signer.
 *
 * @example
 * const proof = proveKeySet(keys, keySetProofMessage({ projectId, setId, addresses }))
 */
export function proveKeySet(keys: PrivateKeys, message: string): KeySetProof {
  return {
    eip155: signRequestWith({ kind: 'evm-message', message: toHex(message) }, keys.secp256k1),
    solana: signRequestWith(
      { kind: 'solana-message', message: toBase64(new TextEncoder().encode(message)) },
      keys.ed25519,
    ),
  }
}

/** A new share set with the request that stores it (the caller zeroes `shares` when done). */
export interface NewKeySet {
  shares: ShareSet
  setId: string
  addresses: WalletAddressesWire
  /** The body of `POST keys/setup` (and, with `previousSetId`, of `POST keys/reshare`). */
  request: KeySetupRequest
}

/**
 * Splits `secret` (whose keys are `keys`) into a new set and builds what the service keeps: the auth
 * share, the addresses, the proof, and in `operator` custody the recovery share too (in `user` custody
 * it never leaves the frame unsealed).
 *
 * @example
 * const set = await withKeys(secret, (keys) => newKeySet({ secret, keys, projectId, custody: 'user' }))
 */
export async function newKeySet(parameters: {
  secret: WalletSecret
  keys: PrivateKeys
  projectId: string
  custody: CustodyMode
}): Promise<NewKeySet> {
  const shares = await splitSecret(parameters.secret)
  const setId = setIdOf(shares.device)
  const addresses = addressesOfKeys(parameters.keys)
  const proof = proveKeySet(
    parameters.keys,
    keySetProofMessage({ projectId: parameters.projectId, setId, addresses }),
  )
  return {
    shares,
    setId,
    addresses,
    request: {
      setId,
      authShare: toWireShare(shares.auth),
      addresses,
      proof,
      ...(parameters.custody === 'operator' ? { recoveryShare: toWireShare(shares.recovery) } : {}),
    },
  }
}

/**
 * Zeroes every share of a set.
 *
 * @example
 * zeroShares(set.shares)
 */
export function zeroShares(shares: ShareSet): void {
  shares.device.fill(0)
  shares.auth.fill(0)
  shares.recovery.fill(0)
}
