/**
 * The preview of a Solana transaction's instructions, parsed from the message that will be signed:
 * System (Transfer, CreateAccount, Assign, …) and SPL Token / Token-2022 (Transfer, TransferChecked,
 * Approve, ApproveChecked, Revoke, SetAuthority, MintTo, Burn, CloseAccount, …). Plain SOL transfers
 * stay transfers; other instructions become actions, with warnings for those that hand over control
 * (Assign, Approve, SetAuthority, CloseAccount); programs this wallet cannot read are listed apart and
 * the frame warns of them.
 */

import { encodeBase58 } from '../../siwx/base58.ts'
import type { ApprovalPreview, PreviewAction } from '../index.ts'
import type { SolanaTransaction } from '../solanaWire.ts'

export const SYSTEM_PROGRAM = '11111111111111111111111111111111'
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'
const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111'

/** SPL approvals of this much are shown as unlimited (u64::MAX). */
const U64_MAX = 2n ** 64n - 1n

type Field = PreviewAction['fields'][number]
type Warning = PreviewAction['warnings'][number]

const systemNames = [
  'CreateAccount',
  'Assign',
  'Transfer',
  'CreateAccountWithSeed',
  'AdvanceNonceAccount',
  'WithdrawNonceAccount',
  'InitializeNonceAccount',
  'AuthorizeNonceAccount',
  'Allocate',
  'AllocateWithSeed',
  'AssignWithSeed',
  'TransferWithSeed',
  'UpgradeNonceAccount',
]
const tokenNames: Record<number, string> = {
  0: 'InitializeMint',
  1: 'InitializeAccount',
  3: 'Transfer',
  4: 'Approve',
  5: 'Revoke',
  6: 'SetAuthority',
  7: 'MintTo',
  8: 'Burn',
  9: 'CloseAccount',
  10: 'FreezeAccount',
  11: 'ThawAccount',
  12: 'TransferChecked',
  13: 'ApproveChecked',
  14: 'MintToChecked',
  15: 'BurnChecked',
  16: 'InitializeAccount2',
  17: 'SyncNative',
  18: 'InitializeAccount3',
  20: 'InitializeMint2',
}
const authorityTypes = ['MintTokens', 'FreezeAccount', 'AccountOwner', 'CloseAccount']

/** Little-endian reads that throw past the end. */
function bytesReader(data: Uint8Array) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  let at = 0
  const need = (count: number) => {
    if (at + count > data.length) throw new RangeError('instruction data is short')
    const start = at
    at += count
    return start
  }
  return {
    u8: () => view.getUint8(need(1)),
    u32: () => view.getUint32(need(4), true),
    u64: () => view.getBigUint64(need(8), true),
    key: () => encodeBase58(data.subarray(need(32), at)),
    /** A Rust `String` as bincode writes it: u64 length, then UTF-8. */
    seed: () => {
      const length = Number(view.getBigUint64(need(8), true))
      return new TextDecoder().decode(data.subarray(need(length), at))
    },
  }
}

interface Decoded {
  transfer?: { to: string; value: string }
  action?: PreviewAction
}

/**
 * Every instruction of `tx`, as the approval shows it.
 *
 * @example
 * const { transfers, instructions, programs } = solanaInstructionsPreview(tx)
 */
export function solanaInstructionsPreview(
  tx: Pick<SolanaTransaction, 'staticAccountKeys' | 'instructions'>,
): Required<Pick<ApprovalPreview, 'transfers' | 'instructions' | 'programs'>> {
  const keys = tx.staticAccountKeys
  // Keys loaded from address tables are not in the message: named by their index.
  const key = (index: number | undefined) =>
    index === undefined ? '?' : (keys[index] ?? `address table account #${index - keys.length}`)
  const transfers: NonNullable<ApprovalPreview['transfers']> = []
  const instructions: PreviewAction[] = []
  const programs = new Set<string>()
  for (const instruction of tx.instructions) {
    const program = keys[instruction.programIdIndex]
    const account = (position: number) => key(instruction.accountKeyIndexes[position])
    let decoded: Decoded | undefined
    try {
      if (program === SYSTEM_PROGRAM) decoded = system(instruction.data, account)
      else if (program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM)
        decoded = token(instruction.data, account, program === TOKEN_PROGRAM ? 'SPL Token' : 'Token-2022')
      else if (program === ASSOCIATED_TOKEN_PROGRAM)
        decoded = {
          action: plain('Associated Token Account', 'Create', program, [
            { label: 'account', address: account(1) },
            { label: 'owner', address: account(2) },
            { label: 'mint', address: account(3) },
          ]),
        }
      else if (program === COMPUTE_BUDGET_PROGRAM)
        decoded = { action: plain('Compute Budget', 'SetComputeUnits', program, []) }
    } catch {
      decoded = undefined
    }
    if (decoded?.transfer) transfers.push({ ...decoded.transfer, dataBytes: 0 })
    else if (decoded?.action) {
      decoded.action.contract = program as string
      instructions.push(decoded.action)
    } else programs.add(program ?? key(instruction.programIdIndex))
  }
  return { transfers, instructions, programs: [...programs] }
}

const plain = (
  standard: string,
  name: string,
  contract: string,
  fields: Field[],
  warnings: Warning[] = [],
): PreviewAction => ({ standard, name, contract, fields, warnings })

function system(data: Uint8Array, account: (position: number) => string): Decoded | undefined {
  const read = bytesReader(data)
  const index = read.u32()
  const name = systemNames[index]
  if (!name) return undefined
  // Amounts of System instructions are lamports.
  const action = (fields: Field[], warnings: Warning[] = []) => ({
    action: {
      ...plain('System', name, SYSTEM_PROGRAM, fields, warnings),
      token: { symbol: 'SOL', decimals: 9 },
    },
  })
  switch (name) {
    case 'Transfer':
      return { transfer: { to: account(1), value: read.u64().toString() } }
    case 'CreateAccount': {
      const lamports = read.u64()
      const space = read.u64()
      return action([
        { label: 'from', address: account(0) },
        { label: 'account', address: account(1) },
        { label: 'amount', amount: lamports.toString() },
        { label: 'space', text: space.toString() },
        { label: 'program', address: read.key() },
      ])
    }
    case 'Assign':
      return action(
        [
          { label: 'account', address: account(0) },
          { label: 'program', address: read.key() },
        ],
        ['assign'],
      )
    case 'AssignWithSeed': {
      read.key()
      read.seed()
      return action(
        [
          { label: 'account', address: account(0) },
          { label: 'program', address: read.key() },
        ],
        ['assign'],
      )
    }
    case 'TransferWithSeed': {
      const lamports = read.u64()
      return action([
        { label: 'from', address: account(0) },
        { label: 'to', address: account(2) },
        { label: 'amount', amount: lamports.toString() },
      ])
    }
    case 'WithdrawNonceAccount':
      return action([
        { label: 'account', address: account(0) },
        { label: 'to', address: account(1) },
        { label: 'amount', amount: read.u64().toString() },
      ])
    case 'AuthorizeNonceAccount':
      return action(
        [
          { label: 'account', address: account(0) },
          { label: 'newAuthority', address: read.key() },
        ],
        ['setAuthority'],
      )
    case 'Allocate':
      return action([
        { label: 'account', address: account(0) },
        { label: 'space', text: read.u64().toString() },
      ])
    default:
      return action([{ label: 'account', address: account(0) }])
  }
}

function token(
  data: Uint8Array,
  account: (position: number) => string,
  standard: string,
): Decoded | undefined {
  const read = bytesReader(data)
  const tag = read.u8()
  const name = tokenNames[tag]
  if (!name) return undefined
  const action = (fields: Field[], warnings: Warning[] = [], decimals?: number) => ({
    action: {
      ...plain(standard, name, '', fields, warnings),
      ...(decimals === undefined ? {} : { token: { decimals } }),
    },
  })
  switch (name) {
    case 'Transfer':
      return action([
        { label: 'from', address: account(0) },
        { label: 'to', address: account(1) },
        { label: 'authority', address: account(2) },
        { label: 'amount', amount: read.u64().toString() },
      ])
    case 'TransferChecked': {
      const value = read.u64()
      return action(
        [
          { label: 'from', address: account(0) },
          { label: 'mint', address: account(1) },
          { label: 'to', address: account(2) },
          { label: 'authority', address: account(3) },
          { label: 'amount', amount: value.toString() },
        ],
        [],
        read.u8(),
      )
    }
    case 'Approve':
    case 'ApproveChecked': {
      const checked = name === 'ApproveChecked'
      const value = read.u64()
      const unlimited = value === U64_MAX
      return action(
        [
          { label: 'account', address: account(0) },
          ...(checked ? [{ label: 'mint' as const, address: account(1) }] : []),
          { label: 'delegate', address: account(checked ? 2 : 1) },
          { label: 'owner', address: account(checked ? 3 : 2) },
          { label: 'amount', amount: value.toString(), ...(unlimited ? { unlimited } : {}) },
        ],
        unlimited ? ['delegate', 'unlimitedApproval'] : ['delegate'],
        checked ? read.u8() : undefined,
      )
    }
    case 'Revoke':
      return action([
        { label: 'account', address: account(0) },
        { label: 'owner', address: account(1) },
      ])
    case 'SetAuthority': {
      const type = read.u8()
      const next = read.u8() === 1 ? read.key() : undefined
      return action(
        [
          { label: 'account', address: account(0) },
          { label: 'authority', address: account(1) },
          { label: 'authorityType', text: authorityTypes[type] ?? String(type) },
          next === undefined
            ? { label: 'newAuthority', text: '—' }
            : { label: 'newAuthority', address: next },
        ],
        ['setAuthority'],
      )
    }
    case 'MintTo':
    case 'MintToChecked': {
      const value = read.u64()
      return action(
        [
          { label: 'mint', address: account(0) },
          { label: 'to', address: account(1) },
          { label: 'authority', address: account(2) },
          { label: 'amount', amount: value.toString() },
        ],
        [],
        name === 'MintToChecked' ? read.u8() : undefined,
      )
    }
    case 'Burn':
    case 'BurnChecked': {
      const value = read.u64()
      return action(
        [
          { label: 'account', address: account(0) },
          { label: 'mint', address: account(1) },
          { label: 'owner', address: account(2) },
          { label: 'amount', amount: value.toString() },
        ],
        [],
        name === 'BurnChecked' ? read.u8() : undefined,
      )
    }
    case 'CloseAccount':
      return action(
        [
          { label: 'account', address: account(0) },
          { label: 'destination', address: account(1) },
          { label: 'owner', address: account(2) },
        ],
        ['closeAccount'],
      )
    default:
      return action([{ label: 'account', address: account(0) }])
  }
}
