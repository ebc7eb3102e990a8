// What a message asks for (compute budget, memo) and what litesvm's metadata of a run tells (fee, inner instructions, return data).
import type { VersionedMessage } from '@solana/web3.js'
import type { AccountInfoBytes, InnerInstruction, TransactionMetadata } from 'litesvm'
import type { LedgerAccount } from './accounts.ts'
import { encodeBase58 } from './codec.ts'
import { MEMO_PROGRAMS } from './instructions.ts'
import type { InnerInstructionGroup, ReturnData } from './ledgerTypes.ts'

const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111'
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000
const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000
const BUILTIN_INSTRUCTION_COMPUTE_UNIT_LIMIT = 3_000
const BUILTIN_PROGRAMS: ReadonlySet<string> = new Set([
  '11111111111111111111111111111111',
  COMPUTE_BUDGET_PROGRAM,
  'Vote111111111111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111',
])

/** The fee litesvm's metadata reports (only in its debug text), or null. */
export function feeFromDebug(meta: { toString(): string }): number | null {
  const match = /\bfee: (\d+) \}[\s})]*$/.exec(meta.toString())
  return match?.[1] ? Number(match[1]) : null
}

/** An account of litesvm as the ledger answers it, with its current lamports. */
export function toLedgerAccount(info: AccountInfoBytes, lamports: bigint): LedgerAccount {
  return {
    lamports,
    data: info.data,
    owner: info.owner,
    executable: info.executable,
    rentEpoch: BigInt(info.rentEpoch ?? 0),
  }
}

/** The inner instructions of a run, grouped by the instruction that made them (empty groups left out). */
export function innerGroups(meta: TransactionMetadata): InnerInstructionGroup[] {
  const groups: InnerInstructionGroup[] = []
  meta.innerInstructions().forEach((list: InnerInstruction[], index: number) => {
    if (list.length === 0) return
    groups.push({
      index,
      instructions: list.map((inner) => {
        const compiled = inner.instruction()
        return {
          programIdIndex: compiled.programIdIndex(),
          accounts: [...compiled.accounts()],
          data: compiled.data(),
          stackHeight: inner.stackHeight(),
        }
      }),
    })
  })
  return groups
}

/** The data a program returned, or null when none. */
export function returnDataOf(meta: TransactionMetadata): ReturnData | null {
  const value = meta.returnData()
  const data = value.data()
  return data.length === 0 ? null : { programId: encodeBase58(value.programId()), data }
}

/** Compute unit price (micro-lamports) and limit a message asks for, with the runtime's defaults. */
export function computeBudget(message: VersionedMessage): { price: bigint; limit: number } {
  const keys = message.staticAccountKeys
  let price = 0n
  let limit: number | null = null
  let defaultLimit = 0
  for (const ix of message.compiledInstructions) {
    const program = keys[ix.programIdIndex]?.toBase58() ?? ''
    const data = ix.data
    if (program === COMPUTE_BUDGET_PROGRAM) {
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
      if (data[0] === 2 && data.length >= 5) limit = view.getUint32(1, true)
      if (data[0] === 3 && data.length >= 9) price = view.getBigUint64(1, true)
    }
    defaultLimit += BUILTIN_PROGRAMS.has(program)
      ? BUILTIN_INSTRUCTION_COMPUTE_UNIT_LIMIT
      : DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT
  }
  return { price, limit: Math.min(limit ?? defaultLimit, MAX_COMPUTE_UNIT_LIMIT) }
}

/** Memo text as `getSignaturesForAddress` reports it ("[len] text; …"), or null. */
export function memoOf(message: VersionedMessage): string | null {
  const memos: string[] = []
  for (const ix of message.compiledInstructions) {
    const program = message.staticAccountKeys[ix.programIdIndex]?.toBase58()
    if (program && MEMO_PROGRAMS.has(program)) {
      memos.push(`[${ix.data.length}] ${new TextDecoder().decode(ix.data)}`)
    }
  }
  return memos.length > 0 ? memos.join('; ') : null
}
