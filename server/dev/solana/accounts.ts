/**
 * Accounts on the wire: the `UiAccount` shape (`binary`, `base58`, `base64`, `jsonParsed`, `dataSlice`) and the
 * SPL Token (and Token-2022 base layout) account and mint parsers behind `jsonParsed` and token balances.
 */

import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token'
import { PublicKey } from '@solana/web3.js'
import { encodeBase58, encodeBase64, formatUnits, readU32, readU64 } from './codec.ts'
import { invalidParams, RPC_ERROR, RpcError } from './errors.ts'

/** An account as the ledger reads it (lamports as bigint: litesvm's `getAccount` rounds through Number). */
export interface LedgerAccount {
  readonly lamports: bigint
  readonly data: Uint8Array
  readonly owner: PublicKey
  readonly executable: boolean
  readonly rentEpoch: bigint
}

export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed'

export interface DataSlice {
  readonly offset: number
  readonly length: number
}

export const TOKEN_PROGRAMS: ReadonlyMap<string, string> = new Map([
  [TOKEN_PROGRAM_ID.toBase58(), 'spl-token'],
  [TOKEN_2022_PROGRAM_ID.toBase58(), 'spl-token-2022'],
])

const MINT_SIZE = 82
const ACCOUNT_SIZE = 165
const MULTISIG_SIZE = 355
const ACCOUNT_TYPE_MINT = 1
const ACCOUNT_TYPE_ACCOUNT = 2

export interface TokenAmountJson {
  amount: string
  decimals: number
  uiAmount: number | null
  uiAmountString: string
}

export function tokenAmount(amount: bigint, decimals: number): TokenAmountJson {
  const text = formatUnits(amount, decimals)
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text }
}

export interface TokenAccountState {
  readonly mint: PublicKey
  readonly owner: PublicKey
  readonly amount: bigint
  readonly delegate: PublicKey | null
  readonly state: 'uninitialized' | 'initialized' | 'frozen'
  readonly isNative: bigint | null
  readonly delegatedAmount: bigint
  readonly closeAuthority: PublicKey | null
}

export interface MintState {
  readonly mintAuthority: PublicKey | null
  readonly supply: bigint
  readonly decimals: number
  readonly isInitialized: boolean
  readonly freezeAuthority: PublicKey | null
}

function optionKey(data: Uint8Array, offset: number): PublicKey | null {
  return readU32(data, offset) === 1 ? new PublicKey(data.subarray(offset + 4, offset + 36)) : null
}

function tokenKind(account: LedgerAccount): 'mint' | 'account' | 'multisig' | null {
  const program = account.owner.toBase58()
  if (!TOKEN_PROGRAMS.has(program)) return null
  const { data } = account
  if (data.length === MINT_SIZE) return 'mint'
  if (data.length === ACCOUNT_SIZE) return 'account'
  if (data.length === MULTISIG_SIZE && program === TOKEN_PROGRAM_ID.toBase58()) return 'multisig'
  if (data.length > ACCOUNT_SIZE && program === TOKEN_2022_PROGRAM_ID.toBase58()) {
    if (data[ACCOUNT_SIZE] === ACCOUNT_TYPE_MINT) return 'mint'
    if (data[ACCOUNT_SIZE] === ACCOUNT_TYPE_ACCOUNT) return 'account'
  }
  return null
}

/** The token account state if `account` is an initialized SPL Token / Token-2022 token account. */
export function parseTokenAccount(account: LedgerAccount | null): TokenAccountState | null {
  if (!account || tokenKind(account) !== 'account') return null
  const { data } = account
  const state = data[108]
  if (state !== 1 && state !== 2) return null
  return {
    mint: new PublicKey(data.subarray(0, 32)),
    owner: new PublicKey(data.subarray(32, 64)),
    amount: readU64(data, 64),
    delegate: optionKey(data, 72),
    state: state === 2 ? 'frozen' : 'initialized',
    isNative: readU32(data, 109) === 1 ? readU64(data, 113) : null,
    delegatedAmount: readU64(data, 121),
    closeAuthority: optionKey(data, 129),
  }
}

/** The mint state if `account` is an initialized SPL Token / Token-2022 mint. */
export function parseMint(account: LedgerAccount | null): MintState | null {
  if (!account || tokenKind(account) !== 'mint') return null
  const { data } = account
  if (data[45] !== 1) return null
  return {
    mintAuthority: optionKey(data, 0),
    supply: readU64(data, 36),
    decimals: data[44] ?? 0,
    isInitialized: true,
    freezeAuthority: optionKey(data, 46),
  }
}

/** Reads accounts for the parsers (a token account's decimals live in its mint). */
export type AccountReader = (address: PublicKey) => LedgerAccount | null

interface ParsedAccountJson {
  program: string
  parsed: unknown
  space: number
}

/** The `jsonParsed` data of a token account or mint, or null when the account is something else. */
export function parsedTokenData(account: LedgerAccount, read: AccountReader): ParsedAccountJson | null {
  const program = TOKEN_PROGRAMS.get(account.owner.toBase58())
  if (!program) return null
  const space = account.data.length
  const tokenAccount = parseTokenAccount(account)
  if (tokenAccount) {
    const mint = parseMint(read(tokenAccount.mint))
    if (!mint) return null
    const info: Record<string, unknown> = {
      isNative: tokenAccount.isNative !== null,
      mint: tokenAccount.mint.toBase58(),
      owner: tokenAccount.owner.toBase58(),
      state: tokenAccount.state,
      tokenAmount: tokenAmount(tokenAccount.amount, mint.decimals),
    }
    if (tokenAccount.delegate) {
      info.delegate = tokenAccount.delegate.toBase58()
      info.delegatedAmount = tokenAmount(tokenAccount.delegatedAmount, mint.decimals)
    }
    if (tokenAccount.isNative !== null)
      info.rentExemptReserve = tokenAmount(tokenAccount.isNative, mint.decimals)
    if (tokenAccount.closeAuthority) info.closeAuthority = tokenAccount.closeAuthority.toBase58()
    return { program, parsed: { info, type: 'account' }, space }
  }
  const mint = parseMint(account)
  if (mint) {
    return {
      program,
      parsed: {
        info: {
          decimals: mint.decimals,
          freezeAuthority: mint.freezeAuthority?.toBase58() ?? null,
          isInitialized: mint.isInitialized,
          mintAuthority: mint.mintAuthority?.toBase58() ?? null,
          supply: mint.supply.toString(),
        },
        type: 'mint',
      },
      space,
    }
  }
  return null
}

const MAX_BASE58_BYTES = 128

function encodeData(
  data: Uint8Array,
  encoding: Exclude<AccountEncoding, 'jsonParsed'>,
  slice: DataSlice | undefined,
): string | [string, string] {
  const bytes = slice ? data.subarray(slice.offset, slice.offset + slice.length) : data
  switch (encoding) {
    case 'binary':
    case 'base58':
      if (bytes.length > MAX_BASE58_BYTES) {
        throw new RpcError(
          RPC_ERROR.invalidRequest,
          `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`,
        )
      }
      return encoding === 'binary' ? encodeBase58(bytes) : [encodeBase58(bytes), 'base58']
    case 'base64':
      return [encodeBase64(bytes), 'base64']
    case 'base64+zstd':
      throw invalidParams('base64+zstd encoding is not supported by the local network; use base64')
  }
}

/** An account in the RPC's `UiAccount` shape. */
export function uiAccount(
  account: LedgerAccount,
  encoding: AccountEncoding,
  read: AccountReader,
  slice?: DataSlice,
): Record<string, unknown> {
  let data: unknown
  if (encoding === 'jsonParsed') {
    data = parsedTokenData(account, read) ?? encodeData(account.data, 'base64', slice)
  } else {
    data = encodeData(account.data, encoding, slice)
  }
  return {
    data,
    executable: account.executable,
    lamports: Number(account.lamports),
    owner: account.owner.toBase58(),
    rentEpoch: Number(account.rentEpoch),
    space: account.data.length,
  }
}

/** A token balance entry of transaction meta (`preTokenBalances` / `postTokenBalances`). */
export interface TokenBalanceJson {
  accountIndex: number
  mint: string
  owner: string
  programId: string
  uiTokenAmount: TokenAmountJson
}

export function tokenBalance(
  accountIndex: number,
  account: LedgerAccount | null,
  read: AccountReader,
): TokenBalanceJson | null {
  const state = parseTokenAccount(account)
  if (!account || !state) return null
  const mint = parseMint(read(state.mint))
  if (!mint) return null
  return {
    accountIndex,
    mint: state.mint.toBase58(),
    owner: state.owner.toBase58(),
    programId: account.owner.toBase58(),
    uiTokenAmount: tokenAmount(state.amount, mint.decimals),
  }
}
