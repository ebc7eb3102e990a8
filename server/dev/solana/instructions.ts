/**
 * `jsonParsed` instructions for the programs these flows use (System, SPL Token / Token-2022, Associated Token
 * Account, Memo); any other instruction is "partially decoded" (programId, accounts, base58 data), as a validator
 * does for programs it has no parser for.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID } from '@solana/spl-token'
import { PublicKey, SystemProgram } from '@solana/web3.js'
import { TOKEN_PROGRAMS, tokenAmount } from './accounts.ts'
import { encodeBase58, readU32, readU64 } from './codec.ts'

export const MEMO_PROGRAMS: ReadonlySet<string> = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
])

export interface InstructionInput {
  readonly programId: PublicKey
  readonly accounts: readonly PublicKey[]
  readonly data: Uint8Array
  readonly stackHeight: number | null
}

type Info = Record<string, unknown>
type Parsed = { type: string; info: Info }

const key = (accounts: readonly PublicKey[], index: number): string | undefined => accounts[index]?.toBase58()

function parseSystem(data: Uint8Array, accounts: readonly PublicKey[]): Parsed | null {
  if (data.length < 4) return null
  const kind = readU32(data, 0)
  if (kind === 0 && data.length >= 52) {
    return {
      type: 'createAccount',
      info: {
        source: key(accounts, 0),
        newAccount: key(accounts, 1),
        lamports: Number(readU64(data, 4)),
        space: Number(readU64(data, 12)),
        owner: new PublicKey(data.subarray(20, 52)).toBase58(),
      },
    }
  }
  if (kind === 1 && data.length >= 36) {
    return {
      type: 'assign',
      info: { account: key(accounts, 0), owner: new PublicKey(data.subarray(4, 36)).toBase58() },
    }
  }
  if (kind === 2 && data.length >= 12) {
    return {
      type: 'transfer',
      info: { source: key(accounts, 0), destination: key(accounts, 1), lamports: Number(readU64(data, 4)) },
    }
  }
  if (kind === 8 && data.length >= 12) {
    return { type: 'allocate', info: { account: key(accounts, 0), space: Number(readU64(data, 4)) } }
  }
  return null
}

function optionKey(data: Uint8Array, offset: number): string | null {
  return data[offset] === 1 && data.length >= offset + 33
    ? new PublicKey(data.subarray(offset + 1, offset + 33)).toBase58()
    : null
}

function parseToken(data: Uint8Array, accounts: readonly PublicKey[]): Parsed | null {
  const kind = data[0]
  const amount = (): string | null => (data.length >= 9 ? readU64(data, 1).toString() : null)
  const checked = (): unknown => (data.length >= 10 ? tokenAmount(readU64(data, 1), data[9] ?? 0) : null)
  switch (kind) {
    case 0:
    case 20: {
      if (data.length < 35) return null
      const info: Info = {
        mint: key(accounts, 0),
        decimals: data[1],
        mintAuthority: new PublicKey(data.subarray(2, 34)).toBase58(),
      }
      const freeze = optionKey(data, 34)
      if (freeze) info.freezeAuthority = freeze
      if (kind === 0) info.rentSysvar = key(accounts, 1)
      return { type: kind === 0 ? 'initializeMint' : 'initializeMint2', info }
    }
    case 1:
      return {
        type: 'initializeAccount',
        info: {
          account: key(accounts, 0),
          mint: key(accounts, 1),
          owner: key(accounts, 2),
          rentSysvar: key(accounts, 3),
        },
      }
    case 16:
    case 18: {
      if (data.length < 33) return null
      const info: Info = {
        account: key(accounts, 0),
        mint: key(accounts, 1),
        owner: new PublicKey(data.subarray(1, 33)).toBase58(),
      }
      if (kind === 16) info.rentSysvar = key(accounts, 2)
      return { type: kind === 16 ? 'initializeAccount2' : 'initializeAccount3', info }
    }
    case 3: {
      const value = amount()
      if (value === null) return null
      return {
        type: 'transfer',
        info: {
          source: key(accounts, 0),
          destination: key(accounts, 1),
          authority: key(accounts, 2),
          amount: value,
        },
      }
    }
    case 12: {
      const value = checked()
      if (value === null) return null
      return {
        type: 'transferChecked',
        info: {
          source: key(accounts, 0),
          mint: key(accounts, 1),
          destination: key(accounts, 2),
          authority: key(accounts, 3),
          tokenAmount: value,
        },
      }
    }
    case 7:
    case 8: {
      const value = amount()
      if (value === null) return null
      return kind === 7
        ? {
            type: 'mintTo',
            info: {
              mint: key(accounts, 0),
              account: key(accounts, 1),
              mintAuthority: key(accounts, 2),
              amount: value,
            },
          }
        : {
            type: 'burn',
            info: {
              account: key(accounts, 0),
              mint: key(accounts, 1),
              authority: key(accounts, 2),
              amount: value,
            },
          }
    }
    case 14:
    case 15: {
      const value = checked()
      if (value === null) return null
      return kind === 14
        ? {
            type: 'mintToChecked',
            info: {
              mint: key(accounts, 0),
              account: key(accounts, 1),
              mintAuthority: key(accounts, 2),
              tokenAmount: value,
            },
          }
        : {
            type: 'burnChecked',
            info: {
              account: key(accounts, 0),
              mint: key(accounts, 1),
              authority: key(accounts, 2),
              tokenAmount: value,
            },
          }
    }
    case 9:
      return {
        type: 'closeAccount',
        info: { account: key(accounts, 0), destination: key(accounts, 1), owner: key(accounts, 2) },
      }
    case 17:
      return { type: 'syncNative', info: { account: key(accounts, 0) } }
    case 21:
      return { type: 'getAccountDataSize', info: { mint: key(accounts, 0) } }
    case 22:
      return { type: 'initializeImmutableOwner', info: { account: key(accounts, 0) } }
    default:
      return null
  }
}

function parseAssociatedTokenAccount(data: Uint8Array, accounts: readonly PublicKey[]): Parsed | null {
  const kind = data.length === 0 ? 0 : data[0]
  if (kind !== 0 && kind !== 1) return null
  return {
    type: kind === 0 ? 'create' : 'createIdempotent',
    info: {
      source: key(accounts, 0),
      account: key(accounts, 1),
      wallet: key(accounts, 2),
      mint: key(accounts, 3),
      systemProgram: key(accounts, 4),
      tokenProgram: key(accounts, 5),
    },
  }
}

/** One instruction in the `jsonParsed` shape: parsed when its program is known, partially decoded otherwise. */
export function parsedInstruction(ix: InstructionInput): Record<string, unknown> {
  const programId = ix.programId.toBase58()
  let program: string | null = null
  let parsed: unknown = null
  if (ix.programId.equals(SystemProgram.programId)) {
    program = 'system'
    parsed = parseSystem(ix.data, ix.accounts)
  } else if (TOKEN_PROGRAMS.has(programId)) {
    program = TOKEN_PROGRAMS.get(programId) ?? null
    parsed = parseToken(ix.data, ix.accounts)
  } else if (ix.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID)) {
    program = 'spl-associated-token-account'
    parsed = parseAssociatedTokenAccount(ix.data, ix.accounts)
  } else if (MEMO_PROGRAMS.has(programId)) {
    program = 'spl-memo'
    parsed = new TextDecoder('utf-8', { fatal: false }).decode(ix.data)
  }
  if (program !== null && parsed !== null) return { program, programId, parsed, stackHeight: ix.stackHeight }
  return {
    accounts: ix.accounts.map((account) => account.toBase58()),
    data: encodeBase58(ix.data),
    programId,
    stackHeight: ix.stackHeight,
  }
}
