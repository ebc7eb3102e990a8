// Reading the transactions a page gives the Demo Wallet's Solana side, and describing them (and messages)
// in its prompt.

import type { SolanaTransactionVersion } from '@solana/wallet-standard-features'
import { type MessageCompiledInstruction, VersionedTransaction } from '@solana/web3.js'
import { invalidParams } from '../errors.ts'

/** The transaction versions the wallet signs. */
export const SUPPORTED_VERSIONS: readonly SolanaTransactionVersion[] = ['legacy', 0]

export function readTransaction(bytes: unknown): VersionedTransaction {
  if (!(bytes instanceof Uint8Array)) throw invalidParams('The transaction must be a Uint8Array.')
  let transaction: VersionedTransaction
  try {
    // Reads legacy transactions too (no version prefix).
    transaction = VersionedTransaction.deserialize(bytes)
  } catch (error) {
    throw invalidParams(`The Demo Wallet could not read the transaction: ${String(error)}`)
  }
  if (!SUPPORTED_VERSIONS.includes(transaction.version)) {
    throw invalidParams(
      `The Demo Wallet signs legacy and version 0 transactions, not ${transaction.version}.`,
    )
  }
  return transaction
}

const SYSTEM_PROGRAM = '11111111111111111111111111111111'
const TOKEN_PROGRAMS = new Set([
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
])

/** A prompt's summary: fee payer, instruction count, and the transfers it recognises. */
export function describeTransaction(transaction: VersionedTransaction, signer: string): string[] {
  const { message } = transaction
  const keys = message.staticAccountKeys.map((key) => key.toBase58())
  const instructions = message.compiledInstructions
  const lines = [
    `Fee payer ${keys[0] ?? 'none'}`,
    `${instructions.length} instruction${instructions.length === 1 ? '' : 's'}`,
  ]
  for (const instruction of instructions) {
    const line = describeInstruction(instruction, keys, signer)
    if (line) lines.push(line)
  }
  return lines
}

function describeInstruction(
  instruction: MessageCompiledInstruction,
  keys: readonly string[],
  signer: string,
): string | undefined {
  const program = keys[instruction.programIdIndex]
  // Accounts from address lookup tables are not in `keys`: those stay undescribed.
  const account = (position: number) => keys[instruction.accountKeyIndexes[position] ?? -1]
  const { data } = instruction
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const from = (owner: string | undefined) => (owner === signer ? '' : ` from ${owner}`)

  if (program === SYSTEM_PROGRAM && data.length === 12 && view.getUint32(0, true) === 2) {
    const [source, destination] = [account(0), account(1)]
    if (!source || !destination) return undefined
    return `Send ${formatUnits(view.getBigUint64(4, true), 9)} SOL${from(source)} to ${destination}`
  }
  if (program && TOKEN_PROGRAMS.has(program)) {
    if (data.length === 9 && data[0] === 3) {
      const [destination, owner] = [account(1), account(2)]
      if (!destination || !owner) return undefined
      const amount = view.getBigUint64(1, true)
      return `Send ${amount} token units${from(owner)} to token account ${destination}`
    }
    if (data.length === 10 && data[0] === 12) {
      const [mint, destination, owner] = [account(1), account(2), account(3)]
      if (!mint || !destination || !owner) return undefined
      const amount = formatUnits(view.getBigUint64(1, true), data[9] ?? 0)
      return `Send ${amount} of token ${mint}${from(owner)} to token account ${destination}`
    }
  }
  return undefined
}

function formatUnits(value: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals)
  const whole = value / base
  const fraction = (value % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}

/** Messages are usually UTF-8 text (sign-in statements); binary ones show as hex. */
export function showMessage(message: Uint8Array): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(message)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: binary payloads are shown as hex.
    if (!/[\u0000-\u0008\u000e-\u001f]/.test(text)) return text
  } catch {}
  return `0x${Array.from(message, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
}

export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}
