/**
 * Solana's transaction wire format, read so the service can show a transaction and the signer (service
 * or frame) can sign it without `@solana/web3.js` (whose WebSocket client is LGPL-3.0, outside the service's licence allow-list).
 * A transaction is its signatures (a compact-u16 count, 64 bytes each) and the message they sign; the
 * message is legacy, or versioned (first byte `0x80 | version`, only version 0) with address-table
 * lookups after its instructions. The service never changes a message: it signs its bytes as they came
 * and puts the signature in its slot.
 */
import { encodeBase58 } from '../siwx/base58.ts'

/** The transaction could not be read (truncated, trailing bytes, an unknown version, …). */
export class SolanaWireError extends Error {
  override name = 'SolanaWireError'
}

export interface SolanaInstruction {
  programIdIndex: number
  accountKeyIndexes: number[]
  data: Uint8Array
}

export interface SolanaTransaction {
  /** One 64-byte slot per required signature, zeros where nobody signed yet. */
  signatures: Uint8Array[]
  /** The message's bytes: what every signer signs. */
  message: Uint8Array
  version: 'legacy' | 0
  numRequiredSignatures: number
  /** The message's own account keys, base58 (not those loaded from address tables). */
  staticAccountKeys: string[]
  instructions: SolanaInstruction[]
}

const SIGNATURE_BYTES = 64
const KEY_BYTES = 32

/** Reads bytes front to back; every read past the end throws. */
function reader(bytes: Uint8Array) {
  let at = 0
  const take = (count: number) => {
    if (count < 0 || at + count > bytes.length) throw new SolanaWireError('The transaction is truncated')
    const slice = bytes.subarray(at, at + count)
    at += count
    return slice
  }
  return {
    get offset() {
      return at
    },
    done: () => at === bytes.length,
    u8: () => take(1)[0] as number,
    take,
    /** A compact-u16: 7 bits a byte, low bits first, at most 3 bytes. */
    shortVec() {
      let value = 0
      for (let index = 0; index < 3; index++) {
        const byte = take(1)[0] as number
        value |= (byte & 0x7f) << (7 * index)
        if ((byte & 0x80) === 0) return value
      }
      throw new SolanaWireError('A length is malformed')
    },
  }
}

/** A transaction message's fields, read from `input` up to its end. */
function readMessage(input: ReturnType<typeof reader>) {
  const first = input.u8()
  let version: SolanaTransaction['version'] = 'legacy'
  let numRequiredSignatures = first
  if (first & 0x80) {
    if ((first & 0x7f) !== 0)
      throw new SolanaWireError(`Transaction version ${first & 0x7f} is not supported`)
    version = 0
    numRequiredSignatures = input.u8()
  }
  input.take(2) // read-only signed and unsigned account counts
  const staticAccountKeys = Array.from({ length: input.shortVec() }, () =>
    encodeBase58(input.take(KEY_BYTES)),
  )
  input.take(KEY_BYTES) // recent blockhash
  const instructions = Array.from({ length: input.shortVec() }, () => {
    const programIdIndex = input.u8()
    const accountKeyIndexes = [...input.take(input.shortVec())]
    const data = Uint8Array.from(input.take(input.shortVec()))
    return { programIdIndex, accountKeyIndexes, data }
  })
  if (version === 0) {
    const lookups = input.shortVec()
    for (let lookup = 0; lookup < lookups; lookup++) {
      input.take(KEY_BYTES)
      input.take(input.shortVec()) // writable indexes
      input.take(input.shortVec()) // read-only indexes
    }
  }
  if (!input.done()) throw new SolanaWireError('The transaction has bytes after its message')
  if (numRequiredSignatures > staticAccountKeys.length)
    throw new SolanaWireError('The transaction has the wrong number of signatures')
  return { version, numRequiredSignatures, staticAccountKeys, instructions }
}

/**
 * Reads a serialized transaction (legacy or version 0).
 *
 * @example
 * const tx = readSolanaTransaction(Buffer.from(encoded, 'base64'))
 * const slot = tx.staticAccountKeys.slice(0, tx.numRequiredSignatures).indexOf(ownAddress)
 */
export function readSolanaTransaction(bytes: Uint8Array): SolanaTransaction {
  const input = reader(bytes)
  const signatureCount = input.shortVec()
  const signatures = Array.from({ length: signatureCount }, () =>
    Uint8Array.from(input.take(SIGNATURE_BYTES)),
  )
  const messageStart = input.offset
  const message = readMessage(input)
  if (signatureCount !== message.numRequiredSignatures)
    throw new SolanaWireError('The transaction has the wrong number of signatures')
  return { signatures, message: Uint8Array.from(bytes.subarray(messageStart)), ...message }
}

/**
 * Reads a transaction's message alone (what its signers sign): what the signer checks a
 * `solana-transaction` request is before it signs it.
 *
 * @example
 * const { staticAccountKeys, numRequiredSignatures } = readSolanaTransactionMessage(messageBytes)
 */
export function readSolanaTransactionMessage(bytes: Uint8Array) {
  return readMessage(reader(bytes))
}

/**
 * The transaction's bytes again, with its signature slots as they are now.
 *
 * @example
 * tx.signatures[slot] = ed25519.sign(tx.message, secret)
 * const signed = Buffer.from(writeSolanaTransaction(tx)).toString('base64')
 */
export function writeSolanaTransaction(tx: Pick<SolanaTransaction, 'signatures' | 'message'>): Uint8Array {
  const count = tx.signatures.length
  const prefix: number[] = []
  for (let rest = count; ; ) {
    const low = rest & 0x7f
    rest >>= 7
    if (rest === 0) {
      prefix.push(low)
      break
    }
    prefix.push(low | 0x80)
  }
  const out = new Uint8Array(prefix.length + count * SIGNATURE_BYTES + tx.message.length)
  out.set(prefix, 0)
  tx.signatures.forEach((signature, index) => {
    if (signature.length !== SIGNATURE_BYTES) throw new SolanaWireError('A signature is not 64 bytes')
    out.set(signature, prefix.length + index * SIGNATURE_BYTES)
  })
  out.set(tx.message, prefix.length + count * SIGNATURE_BYTES)
  return out
}

/**
 * Whether `bytes` start with something the Solana runtime could take as a transaction message (legacy,
 * or versioned with any version byte), or are a whole serialized transaction. The runtime verifies a
 * signature over the message bytes (and a packet may carry bytes after them), so a signature over
 * such bytes "as a message" would be a signature of that transaction: `solana_signMessage` refuses them.
 * The check is deliberately wider than what lands (version bytes beyond 0, unsanitised indexes).
 *
 * @example
 * if (isSolanaTransactionShaped(bytes)) throw refused()
 */
export function isSolanaTransactionShaped(bytes: Uint8Array): boolean {
  try {
    readSolanaTransaction(bytes)
    return true
  } catch {}
  try {
    const input = reader(bytes)
    const first = input.u8()
    const required = first & 0x80 ? input.u8() : first
    const readonlySigned = input.u8()
    input.u8() // read-only unsigned
    const keys = input.shortVec()
    input.take(keys * KEY_BYTES)
    input.take(KEY_BYTES) // recent blockhash
    const instructions = input.shortVec()
    for (let index = 0; index < instructions; index++) {
      input.u8()
      input.take(input.shortVec())
      input.take(input.shortVec())
    }
    // A message needs a fee payer among its keys; anything else never lands.
    return required >= 1 && required <= keys && readonlySigned < required
  } catch {
    return false
  }
}
