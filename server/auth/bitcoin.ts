/**
 * Bitcoin sign-in signatures: BIP-322's simple form (a witness that spends the message's virtual
 * `to_spend` output, for P2WPKH and key-path P2TR addresses) and the legacy "Bitcoin Signed Message"
 * ECDSA signature (BIP-137 headers, for P2PKH, P2SH-P2WPKH and P2WPKH addresses). The address is
 * decoded for the sign-in network first: a mainnet address never signs in on testnet.
 */
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base64, bech32, bech32m, createBase58check } from '@scure/base'
import { BITCOIN_NETWORKS, bitcoinNetworkKind } from '../../src/protocol/bitcoinNetworks.ts'
import { hash160 } from '../../src/protocol/embedded/bitcoin.ts'
import { bip322MessageHash, bitcoinMessageHash } from '../../src/protocol/embedded/bitcoinSigner.ts'

/** What an address pays to: a key hash, a script hash, or a witness program of a version. */
export type BitcoinDestination =
  | { type: 'p2pkh' | 'p2sh'; hash: Uint8Array }
  | { type: 'p2wpkh' | 'p2wsh' | 'p2tr'; program: Uint8Array }

const base58check = createBase58check(sha256)

/**
 * Decodes an address of the network with CAIP-2 reference `reference`, or answers undefined (an unknown
 * network, another network's address, a bad checksum, a witness version that must use the other bech32).
 *
 * @example
 * decodeBitcoinAddress('000000000019d6689c085ae165831e93', 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l')
 * // { type: 'p2wpkh', program: Uint8Array(20) }
 */
export function decodeBitcoinAddress(reference: string, address: string): BitcoinDestination | undefined {
  const kind = bitcoinNetworkKind(`bip122:${reference}`)
  if (kind === undefined) return undefined
  const network = BITCOIN_NETWORKS[kind]
  if (address.toLowerCase().startsWith(`${network.hrp}1`)) return decodeSegwit(network.hrp, address)
  let payload: Uint8Array
  try {
    payload = base58check.decode(address)
  } catch {
    return undefined
  }
  if (payload.length !== 21) return undefined
  const hash = payload.slice(1)
  if (payload[0] === network.pubKeyHash) return { type: 'p2pkh', hash }
  if (payload[0] === network.scriptHash) return { type: 'p2sh', hash }
  return undefined
}

function decodeSegwit(hrp: string, address: string): BitcoinDestination | undefined {
  // Mixed case is not an address (BIP-173).
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return undefined
  const text = address.toLowerCase() as `${string}1${string}`
  const v0 = safe(() => bech32.decode(text, 90))
  const v1 = v0 ? undefined : safe(() => bech32m.decode(text, 90))
  const decoded = v0 ?? v1
  if (decoded === undefined || decoded.prefix !== hrp || decoded.words.length === 0) return undefined
  const [version = -1, ...words] = decoded.words
  const program = safe(() => bech32.fromWords(words))
  if (program === undefined) return undefined
  // BIP-350: version 0 in bech32, every later version in bech32m.
  if ((version === 0) !== (v0 !== undefined)) return undefined
  if (version === 0 && program.length === 20) return { type: 'p2wpkh', program }
  if (version === 0 && program.length === 32) return { type: 'p2wsh', program }
  if (version === 1 && program.length === 32) return { type: 'p2tr', program }
  return undefined
}

function safe<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

const hash256 = (bytes: Uint8Array): Uint8Array => sha256(sha256(bytes))
const equal = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, index) => byte === b[index])

function taggedHash(tag: string, ...parts: Uint8Array[]): Uint8Array {
  const tagHash = sha256(new TextEncoder().encode(tag))
  return sha256(concat(tagHash, tagHash, ...parts))
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/** Bitcoin's CompactSize length prefix. */
function compactSize(length: number): Uint8Array {
  if (length < 0xfd) return Uint8Array.of(length)
  if (length <= 0xffff) return Uint8Array.of(0xfd, length & 0xff, length >> 8)
  return concat(Uint8Array.of(0xfe), uint32(length))
}

function uint32(value: number): Uint8Array {
  const out = new Uint8Array(4)
  new DataView(out.buffer).setUint32(0, value, true)
  return out
}

const withLength = (bytes: Uint8Array): Uint8Array => concat(compactSize(bytes.length), bytes)

/** The output script an address pays to. */
export function scriptOf(destination: BitcoinDestination): Uint8Array {
  switch (destination.type) {
    case 'p2pkh':
      return concat(Uint8Array.of(0x76, 0xa9, 0x14), destination.hash, Uint8Array.of(0x88, 0xac))
    case 'p2sh':
      return concat(Uint8Array.of(0xa9, 0x14), destination.hash, Uint8Array.of(0x87))
    case 'p2wpkh':
    case 'p2wsh':
      return concat(Uint8Array.of(0x00, destination.program.length), destination.program)
    case 'p2tr':
      return concat(Uint8Array.of(0x51, 0x20), destination.program)
  }
}

/** How a Bitcoin sign-in signature verified. */
export type BitcoinSignatureType = 'bip122:bip322-simple' | 'bip122:ecdsa'

/**
 * Checks a sign-in signature of `message` by `address` on the network `reference`: a 65-byte base64
 * signature is read as the legacy ECDSA form, anything else as BIP-322's simple witness. Answers how it
 * verified, `'malformed'` when the signature is not base64 of either form, or `'invalid'`.
 *
 * @example
 * verifyBitcoinSignature({ reference, address, message: 'Hello World', signature: 'AkcwRAIg…' }) // 'bip122:bip322-simple'
 */
export function verifyBitcoinSignature(parameters: {
  reference: string
  address: string
  message: string
  signature: string
}): BitcoinSignatureType | 'malformed' | 'invalid' {
  const destination = decodeBitcoinAddress(parameters.reference, parameters.address)
  if (destination === undefined) return 'invalid'
  const bytes = safe(() => base64.decode(parameters.signature))
  if (bytes === undefined) return 'malformed'
  const message = new TextEncoder().encode(parameters.message)
  if (bytes.length === 65 && bytes[0] !== undefined && bytes[0] >= 27 && bytes[0] <= 42) {
    return verifyLegacy(destination, message, bytes) ? 'bip122:ecdsa' : 'invalid'
  }
  const witness = readWitness(bytes)
  if (witness === undefined) return 'malformed'
  return verifySimple(destination, message, witness) ? 'bip122:bip322-simple' : 'invalid'
}

/** A consensus-serialized witness stack (BIP-322's simple signature), or undefined. */
function readWitness(bytes: Uint8Array): Uint8Array[] | undefined {
  let offset = 0
  const readSize = (): number | undefined => {
    const first = bytes[offset++]
    if (first === undefined) return undefined
    if (first < 0xfd) return first
    if (first === 0xfd && offset + 2 <= bytes.length) {
      const size = (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8)
      offset += 2
      return size
    }
    return undefined
  }
  const count = readSize()
  if (count === undefined || count === 0 || count > 16) return undefined
  const items: Uint8Array[] = []
  for (let index = 0; index < count; index++) {
    const size = readSize()
    if (size === undefined || offset + size > bytes.length) return undefined
    items.push(bytes.slice(offset, offset + size))
    offset += size
  }
  return offset === bytes.length ? items : undefined
}

/**
 * BIP-322: the virtual transaction `to_spend` pays 0 to the address from an input that commits to the
 * message; `to_sign` spends it to OP_RETURN. Answers `to_sign`'s parts a signature hash needs.
 */
function virtualTransactions(script: Uint8Array, message: Uint8Array) {
  const messageHash = bip322MessageHash(message)
  const zero4 = new Uint8Array(4)
  const zero8 = new Uint8Array(8)
  const toSpend = concat(
    zero4, // version 0
    Uint8Array.of(1), // one input
    new Uint8Array(32),
    Uint8Array.of(0xff, 0xff, 0xff, 0xff),
    withLength(concat(Uint8Array.of(0x00, 0x20), messageHash)),
    zero4, // sequence 0
    Uint8Array.of(1), // one output
    zero8,
    withLength(script),
    zero4, // lock time 0
  )
  const outpoint = concat(hash256(toSpend), zero4)
  const outputs = concat(zero8, withLength(Uint8Array.of(0x6a)))
  return { outpoint, outputs, sequence: zero4, version: zero4, lockTime: zero4, amount: zero8 }
}

function verifySimple(destination: BitcoinDestination, message: Uint8Array, witness: Uint8Array[]): boolean {
  const script = scriptOf(destination)
  const tx = virtualTransactions(script, message)
  if (destination.type === 'p2wpkh') {
    const [signature, publicKey] = witness
    if (witness.length !== 2 || signature === undefined || publicKey === undefined) return false
    if (publicKey.length !== 33 || !equal(hash160(publicKey), destination.program)) return false
    // SIGHASH_ALL only: the one the simple form's signers use.
    if (signature.at(-1) !== 0x01) return false
    // BIP-143's digest of input 0, spending 0 sats with the key hash's P2PKH script code.
    const scriptCode = concat(Uint8Array.of(0x76, 0xa9, 0x14), destination.program, Uint8Array.of(0x88, 0xac))
    const digest = hash256(
      concat(
        tx.version,
        hash256(tx.outpoint),
        hash256(tx.sequence),
        tx.outpoint,
        withLength(scriptCode),
        tx.amount,
        tx.sequence,
        hash256(tx.outputs),
        tx.lockTime,
        uint32(0x01),
      ),
    )
    return ecdsaVerifies(signature.slice(0, -1), digest, publicKey)
  }
  if (destination.type === 'p2tr') {
    const [signature] = witness
    if (witness.length !== 1 || signature === undefined) return false
    if (signature.length !== 64 && signature.length !== 65) return false
    const hashType = signature.length === 65 ? signature[64] : 0x00
    // SIGHASH_DEFAULT, or SIGHASH_ALL spelled out (a 65th byte of 0 is not allowed).
    if (hashType !== 0x00 && (signature.length !== 65 || hashType !== 0x01)) return false
    // BIP-341's signature message for a key-path spend of input 0, no annex.
    const sigMsg = concat(
      Uint8Array.of(hashType),
      tx.version,
      tx.lockTime,
      sha256(tx.outpoint),
      sha256(tx.amount),
      sha256(withLength(script)),
      sha256(tx.sequence),
      sha256(tx.outputs),
      Uint8Array.of(0x00),
      uint32(0),
    )
    const digest = taggedHash('TapSighash', Uint8Array.of(0x00), sigMsg)
    return safe(() => schnorr.verify(signature.slice(0, 64), digest, destination.program)) === true
  }
  return false
}

/** A DER signature (strict, as BIP-66) of a 32-byte digest by a compressed key. High S is allowed, as in consensus. */
function ecdsaVerifies(der: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean {
  const signature = safe(() => secp256k1.Signature.fromDER(der))
  if (signature === undefined) return false
  return safe(() => secp256k1.verify(signature, digest, publicKey, { lowS: false, prehash: false })) === true
}

/**
 * The legacy signature: a recoverable ECDSA signature of the "Bitcoin Signed Message" hash whose header
 * (27-42, BIP-137) holds the recovery id. The recovered key must be the address's: its hash for P2PKH and
 * P2WPKH, its P2WPKH script's hash for P2SH. Wallets disagree on which header they write for segwit
 * addresses, so the address decides, not the header; an uncompressed key (27-30) only pays to P2PKH.
 */
function verifyLegacy(destination: BitcoinDestination, message: Uint8Array, bytes: Uint8Array): boolean {
  const header = bytes[0] ?? 0
  const digest = bitcoinMessageHash(message)
  const recovered = safe(() =>
    secp256k1.Signature.fromCompact(bytes.slice(1))
      .addRecoveryBit((header - 27) & 3)
      .recoverPublicKey(digest),
  )
  if (recovered === undefined) return false
  const compressed = header >= 31
  const keyHash = hash160(recovered.toRawBytes(compressed))
  switch (destination.type) {
    case 'p2pkh':
      return equal(keyHash, destination.hash)
    case 'p2wpkh':
      return compressed && equal(keyHash, destination.program)
    case 'p2sh':
      return compressed && equal(hash160(concat(Uint8Array.of(0x00, 0x14), keyHash)), destination.hash)
    default:
      return false
  }
}
