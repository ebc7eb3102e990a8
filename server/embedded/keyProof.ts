// Checks of a share set the frame sends: the proof that it holds both keys, and the shares' set id.
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { type Hex, hashMessage, isAddressEqual, recoverPublicKey } from 'viem'
import { publicKeyToAddress } from 'viem/accounts'
import {
  type KeySetProof,
  keySetProofMessage,
  type WalletAddressesWire,
} from '../../src/protocol/embedded/keys.ts'
import { decodeBase58 } from '../../src/protocol/siwx/base58.ts'
import { EmbeddedError } from './errors.ts'

/** The format byte of a share (src/frame/keys/shares.ts), then its 8-byte set id. */
const SHARE_FORMAT = 1
const SET_ID_BYTES = 8

/** The refusal of a proof that the two addresses' keys did not sign. */
export const proofRefusedMessage = "The proof is not signed by the wallet's keys"
/** The refusal of a share whose bytes name another set than `setId`. */
export const shareSetMismatchMessage = 'The share does not belong to this share set'

/**
 * A wire share's bytes after checking its format and that it belongs to `setId`, or 400.
 *
 * @example
 * const bytes = shareOfSet(body.authShare, body.setId)
 */
export function shareOfSet(share: string, setId: string): Buffer {
  const bytes = Buffer.from(share, 'base64url')
  const ofSet = bytes.subarray(1, 1 + SET_ID_BYTES).toString('hex')
  if (bytes[0] !== SHARE_FORMAT || bytes.length <= 1 + SET_ID_BYTES + 1 || ofSet !== setId)
    throw new EmbeddedError(400, 'BAD_REQUEST', shareSetMismatchMessage, { field: 'authShare' })
  return bytes
}

/**
 * Checks that the keys of both addresses signed {@link keySetProofMessage} for this project and set
 * (EIP-191 recovering to the EVM address; ed25519 over the text's UTF-8 bytes with the Solana address
 * as public key); answers the EVM key's compressed public key (hex), or 403.
 *
 * @example
 * const evmPublicKey = await checkKeySetProof({ projectId, setId, addresses, proof })
 */
export async function checkKeySetProof(parameters: {
  projectId: string
  setId: string
  addresses: WalletAddressesWire
  proof: KeySetProof
}): Promise<Hex> {
  const { projectId, setId, addresses, proof } = parameters
  const message = keySetProofMessage({ projectId, setId, addresses })
  const refused = () => new EmbeddedError(403, 'FORBIDDEN', proofRefusedMessage, { field: 'proof' })
  let evmPublicKey: Hex
  try {
    evmPublicKey = await recoverPublicKey({ hash: hashMessage(message), signature: proof.eip155 as Hex })
  } catch {
    throw refused()
  }
  if (!isAddressEqual(publicKeyToAddress(evmPublicKey), addresses.eip155 as Hex)) throw refused()
  const solanaKey = decodeBase58(addresses.solana)
  let solanaSigned = false
  try {
    solanaSigned =
      solanaKey !== null &&
      solanaKey.length === 32 &&
      ed25519.verify(Buffer.from(proof.solana.slice(2), 'hex'), new TextEncoder().encode(message), solanaKey)
  } catch {
    solanaSigned = false
  }
  if (!solanaSigned) throw refused()
  const point = secp256k1.ProjectivePoint.fromHex(evmPublicKey.slice(2))
  return `0x${point.toHex(true)}`
}
