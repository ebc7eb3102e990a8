// Bitcoin signing by plan: a PSBT read into what the person approves, its own inputs signed, messages signed (BIP-137, BIP-322).
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { Address, OutScript, RawTx, RawWitness, Script, SigHash, Transaction } from '@scure/btc-signer'
import { btcSignerNetworkOfHrp } from '../bitcoinNetworks.ts'
import { type BitcoinNetwork, hash160, p2wpkhScript } from './bitcoin.ts'
import type { SignRequest } from './signing.ts'
import { base64Bytes, SigningRefusedError } from './signingRules.ts'

type BitcoinRequest = Extract<SignRequest, { kind: `bip122-${string}` }>

/** A PSBT input without its amount (`witnessUtxo`): its fee could not be shown. */
export const missingAmountMessage =
  'Every input of this PSBT must carry its amount and script (witnessUtxo): nothing was signed'
/** A PSBT that is not one. */
export const notAPsbtMessage = 'These bytes are not a PSBT'
/** An input asked to be signed that does not belong to the person's address. */
export const foreignInputMessage = (index: number) =>
  `Input ${index} is not this wallet's: only inputs of its own address are signed`
/** A PSBT that spends nothing of the person's. */
export const noOwnInputMessage = 'This PSBT spends nothing of this wallet: there is nothing to sign'
/** Outputs worth more than the inputs. */
export const negativeFeeMessage = 'The outputs of this PSBT are worth more than its inputs'
/** An own input with a sighash type other than ALL: the preview would not bind what is signed. */
export const sighashMessage = (index: number) =>
  `Input ${index} asks for a signature hash other than SIGHASH_ALL, which this wallet does not sign`

/** One input or output of a PSBT as the person sees it. */
export interface BitcoinPreviewEntry {
  /** The address (or `script:<hex>` for a script that has none). */
  address: string
  /** Satoshis, as a decimal string. */
  amount: string
  /** It is the person's own address (a spent coin of theirs, or their change). */
  own: boolean
}

/** A PSBT read for approval: every input and output, the fee, and the inputs the person's key signs. */
export interface BitcoinPsbtPreview {
  inputs: BitcoinPreviewEntry[]
  outputs: BitcoinPreviewEntry[]
  /** Inputs minus outputs, in satoshis. */
  fee: string
  /** Indexes of the inputs that pay from the person's address. */
  ownInputs: number[]
}

const refuse = (message: string) => new SigningRefusedError('bitcoin-psbt', message)

/** The btc-signer network of a bip122 network: its bech32 prefix and base58 versions, from the table. */
const networkOf = (network: Pick<BitcoinNetwork, 'hrp'>) => btcSignerNetworkOfHrp(network.hrp)

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])

/**
 * Parses a PSBT (base64 or bytes), refusing what is not one.
 *
 * @example
 * const tx = parsePsbt(psbtBase64)
 */
export function parsePsbt(psbt: string | Uint8Array): Transaction {
  try {
    const bytes = typeof psbt === 'string' ? base64Bytes(psbt) : psbt
    return Transaction.fromPSBT(bytes, { allowUnknownOutputs: true, allowUnknownInputs: true })
  } catch {
    throw refuse(notAPsbtMessage)
  }
}

/** An output script as an address on the network, else `script:<hex>` (OP_RETURN, non-standard). */
function addressOfScript(script: Uint8Array, network: Pick<BitcoinNetwork, 'hrp'>): string {
  try {
    return Address(networkOf(network)).encode(OutScript.decode(script))
  } catch {
    return `script:${bytesToHex(script)}`
  }
}

/**
 * What the person approves, read from the PSBT's own bytes: each input's address and amount (from its
 * `witnessUtxo`, refused when missing), each output's address and amount, the fee, and which inputs
 * pay from `publicKey`'s P2WPKH address.
 *
 * @example
 * const { outputs, fee, ownInputs } = previewPsbt(psbt, publicKey, { hrp: 'bcrt' })
 */
export function previewPsbt(
  psbt: string | Uint8Array | Transaction,
  publicKey: Uint8Array,
  network: Pick<BitcoinNetwork, 'hrp'>,
): BitcoinPsbtPreview {
  const tx = psbt instanceof Transaction ? psbt : parsePsbt(psbt)
  const own = p2wpkhScript(publicKey)
  const inputs: BitcoinPreviewEntry[] = []
  const ownInputs: number[] = []
  let paid = 0n
  for (let index = 0; index < tx.inputsLength; index++) {
    const utxo = tx.getInput(index).witnessUtxo
    if (!utxo) throw refuse(missingAmountMessage)
    const mine = equal(utxo.script, own)
    if (mine) ownInputs.push(index)
    paid += utxo.amount
    inputs.push({ address: addressOfScript(utxo.script, network), amount: utxo.amount.toString(), own: mine })
  }
  const outputs: BitcoinPreviewEntry[] = []
  let spent = 0n
  for (let index = 0; index < tx.outputsLength; index++) {
    const output = tx.getOutput(index)
    if (!output.script || output.amount === undefined) throw refuse(notAPsbtMessage)
    spent += output.amount
    outputs.push({
      address: addressOfScript(output.script, network),
      amount: output.amount.toString(),
      own: equal(output.script, own),
    })
  }
  if (spent > paid) throw refuse(negativeFeeMessage)
  return { inputs, outputs, fee: (paid - spent).toString(), ownInputs }
}

/**
 * Refuses a `bip122-psbt` request whose inputs to sign are not exactly inputs of the person's address,
 * lack their amount, or ask for another sighash than ALL; answers the parsed transaction.
 *
 * @example
 * const tx = checkPsbtRequest(request, publicKey)
 */
export function checkPsbtRequest(
  request: Extract<BitcoinRequest, { kind: 'bip122-psbt' }>,
  publicKey: Uint8Array,
): Transaction {
  const tx = parsePsbt(request.psbt)
  const { ownInputs } = previewPsbt(tx, publicKey, { hrp: 'bc' })
  if (request.inputs.length === 0) throw refuse(noOwnInputMessage)
  for (const [position, index] of request.inputs.entries()) {
    if (request.inputs.indexOf(index) !== position) throw refuse(foreignInputMessage(index))
    if (!ownInputs.includes(index)) throw refuse(foreignInputMessage(index))
    const sighash = tx.getInput(index).sighashType
    if (sighash !== undefined && sighash !== SigHash.ALL) throw refuse(sighashMessage(index))
  }
  return tx
}

/** The BIP-143 hash a P2WPKH input's signature is over (SIGHASH_ALL). */
function inputSighash(tx: Transaction, index: number, publicKey: Uint8Array): Uint8Array {
  const amount = tx.getInput(index).witnessUtxo?.amount
  if (amount === undefined) throw refuse(missingAmountMessage)
  const scriptCode = OutScript.encode({ type: 'pkh', hash: hash160(publicKey) })
  return tx.preimageWitnessV0(index, scriptCode, SigHash.ALL, amount)
}

/** Bitcoin's double SHA-256. */
const sha256x2 = (...parts: Uint8Array[]) => sha256(sha256(concatBytes(...parts)))

/** A Bitcoin CompactSize length prefix. */
function compactSize(length: number): Uint8Array {
  if (length < 0xfd) return Uint8Array.of(length)
  if (length <= 0xffff) return Uint8Array.of(0xfd, length & 0xff, length >> 8)
  return Uint8Array.of(0xfe, length & 0xff, (length >> 8) & 0xff, (length >> 16) & 0xff, length >>> 24)
}

const MESSAGE_MAGIC = utf8ToBytes('Bitcoin Signed Message:\n')

/**
 * The hash a legacy "Bitcoin Signed Message" signature is over (what `signmessage` signs).
 *
 * @example
 * bytesToHex(bitcoinMessageHash(utf8ToBytes('hello')))
 */
export const bitcoinMessageHash = (message: Uint8Array): Uint8Array =>
  sha256x2(compactSize(MESSAGE_MAGIC.length), MESSAGE_MAGIC, compactSize(message.length), message)

/** BIP-340's tagged hash, as BIP-322 hashes the message. */
function taggedHash(tag: string, message: Uint8Array): Uint8Array {
  const tagHash = sha256(utf8ToBytes(tag))
  return sha256(concatBytes(tagHash, tagHash, message))
}

/**
 * BIP-322's hash of a message (the tagged hash `to_spend` commits to), for the signer here and the
 * service's sign-in check.
 *
 * @example
 * bytesToHex(bip322MessageHash(utf8ToBytes('')))
 * // 'c90c269c4f8fcbe6880f72a721ddfbf1914268a794cbb21cfafee13770ae19f1'
 */
export const bip322MessageHash = (message: Uint8Array): Uint8Array =>
  taggedHash('BIP0322-signed-message', message)

/** BIP-322 "simple": the virtual `to_sign` transaction of a message for a P2WPKH key, unsigned. */
function bip322ToSign(message: Uint8Array, publicKey: Uint8Array): Transaction {
  const script = p2wpkhScript(publicKey)
  const messageHash = bip322MessageHash(message)
  const toSpend = RawTx.encode({
    version: 0,
    segwitFlag: false,
    inputs: [
      {
        txid: new Uint8Array(32),
        index: 0xffffffff,
        finalScriptSig: Script.encode(['OP_0', messageHash]),
        sequence: 0,
      },
    ],
    outputs: [{ amount: 0n, script }],
    witnesses: [],
    lockTime: 0,
  })
  const toSign = new Transaction({ version: 0, allowUnknownOutputs: true })
  toSign.addInput({
    txid: sha256x2(toSpend).reverse(),
    index: 0,
    sequence: 0,
    witnessUtxo: { script, amount: 0n },
  })
  toSign.addOutput({ script: Script.encode(['RETURN']), amount: 0n })
  return toSign
}

/** A DER signature with its sighash byte (ALL), as a P2WPKH witness carries it. */
const witnessSignature = (compact: Uint8Array) =>
  concatBytes(secp256k1.Signature.fromCompact(compact).toDERRawBytes(), Uint8Array.of(SigHash.ALL))

/**
 * Signs a Bitcoin request with the key of its network (already checked where it applies): a PSBT's own
 * inputs (64-byte compact signatures, one per input of `inputs`, in order), a message by BIP-137 (65
 * bytes: header 39 + recovery, r, s; the header of a P2WPKH address) or by BIP-322 "simple" (the
 * witness, serialized). Answers hex.
 *
 * @example
 * const signature = signBitcoinRequest(request, keys.bitcoinTest)
 */
export function signBitcoinRequest(request: BitcoinRequest, secret: Uint8Array): `0x${string}` {
  const publicKey = secp256k1.getPublicKey(secret, true)
  if (request.kind === 'bip122-psbt') {
    const tx = checkPsbtRequest(request, publicKey)
    const signatures = request.inputs.map((index) =>
      secp256k1.sign(inputSighash(tx, index, publicKey), secret, { lowS: true }).toCompactRawBytes(),
    )
    return `0x${bytesToHex(concatBytes(...signatures))}`
  }
  const message = base64Bytes(request.message)
  if (request.protocol === 'ecdsa') {
    const signature = secp256k1.sign(bitcoinMessageHash(message), secret, { lowS: true })
    return `0x${bytesToHex(concatBytes(Uint8Array.of(39 + signature.recovery), signature.toCompactRawBytes()))}`
  }
  const toSign = bip322ToSign(message, publicKey)
  const compact = secp256k1.sign(inputSighash(toSign, 0, publicKey), secret, { lowS: true })
  return `0x${bytesToHex(RawWitness.encode([witnessSignature(compact.toCompactRawBytes()), publicKey]))}`
}

/** The 64-byte compact signatures of a PSBT request's signature, one per input to sign. */
function psbtSignatures(request: Extract<BitcoinRequest, { kind: 'bip122-psbt' }>, signature: Uint8Array) {
  if (signature.length !== 64 * request.inputs.length) return undefined
  return request.inputs.map((_, i) => signature.subarray(64 * i, 64 * (i + 1)))
}

/**
 * Whether `signature` (hex) is the person's own (`publicKey`) over exactly this request.
 *
 * @example
 * if (!verifyBitcoinSignature(request, signature, publicKey)) throw refused()
 */
export function verifyBitcoinSignature(
  request: BitcoinRequest,
  signature: string,
  publicKey: Uint8Array,
): boolean {
  try {
    const bytes = Uint8Array.from(signature.replace(/^0x/, '').match(/../g) ?? [], (pair) =>
      Number.parseInt(pair, 16),
    )
    if (request.kind === 'bip122-psbt') {
      const tx = checkPsbtRequest(request, publicKey)
      const signatures = psbtSignatures(request, bytes)
      return (
        !!signatures &&
        request.inputs.every((index, i) =>
          secp256k1.verify(signatures[i] as Uint8Array, inputSighash(tx, index, publicKey), publicKey),
        )
      )
    }
    const message = base64Bytes(request.message)
    if (request.protocol === 'ecdsa') {
      const header = bytes[0] ?? 0
      if (bytes.length !== 65 || header < 39 || header > 42) return false
      const recovered = secp256k1.Signature.fromCompact(bytes.subarray(1))
        .addRecoveryBit(header - 39)
        .recoverPublicKey(bitcoinMessageHash(message))
      return equal(recovered.toRawBytes(true), publicKey)
    }
    const [der, key] = RawWitness.decode(bytes)
    if (!der || !key || !equal(key, publicKey) || der[der.length - 1] !== SigHash.ALL) return false
    const hash = inputSighash(bip322ToSign(message, publicKey), 0, publicKey)
    return secp256k1.verify(der.subarray(0, -1), hash, publicKey, { format: 'der' })
  } catch {
    return false
  }
}

/**
 * The PSBT of a request with its signatures placed on the person's inputs (as partial signatures, then
 * finalized: P2WPKH witnesses), for the page or for broadcast.
 *
 * @example
 * const tx = signedPsbt(request, signature, publicKey)
 * if (tx.isFinal) broadcast(tx.hex)
 */
export function signedPsbt(
  request: Extract<BitcoinRequest, { kind: 'bip122-psbt' }>,
  signature: string,
  publicKey: Uint8Array,
): Transaction {
  const tx = checkPsbtRequest(request, publicKey)
  const bytes = Uint8Array.from(signature.replace(/^0x/, '').match(/../g) ?? [], (pair) =>
    Number.parseInt(pair, 16),
  )
  const signatures = psbtSignatures(request, bytes) ?? []
  for (const [i, index] of request.inputs.entries()) {
    const compact = signatures[i]
    if (!compact) throw refuse(foreignInputMessage(index))
    tx.updateInput(index, { partialSig: [[publicKey, witnessSignature(compact)]] }, true)
    tx.finalizeIdx(index)
  }
  return tx
}

/**
 * The signature of a message request as the page gets it: base64 of the 65 bytes (BIP-137) or of the
 * serialized witness (BIP-322).
 *
 * @example
 * messageSignatureBase64('0x27…') // 'J…'
 */
export function messageSignatureBase64(signature: string): string {
  const bytes = Uint8Array.from(signature.replace(/^0x/, '').match(/../g) ?? [], (pair) =>
    Number.parseInt(pair, 16),
  )
  return btoa(String.fromCharCode(...bytes))
}
