// The validator's JSON shapes of accounts, signature statuses and transactions.
import { PublicKey } from '@solana/web3.js'
import { type AccountEncoding, type DataSlice, type LedgerAccount, uiAccount } from './accounts.ts'
import { encodeBase58, encodeBase64 } from './codec.ts'
import { RPC_ERROR, RpcError } from './errors.ts'
import { parsedInstruction } from './instructions.ts'
import type { Ledger } from './ledger.ts'
import type { InnerInstructionGroup, LandedTransaction, ResolvedKeys } from './ledgerTypes.ts'

/** An account in the requested encoding; jsonParsed with a data slice falls back to base64. */
export function encodeAccount(
  ledger: Ledger,
  account: LedgerAccount | null,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
): Record<string, unknown> | null {
  if (!account) return null
  if (slice && encoding === 'jsonParsed') return uiAccount(account, 'base64', ledger.read, slice)
  return uiAccount(account, encoding, ledger.read, slice)
}

/** A landed transaction in the `getSignatureStatuses` shape. */
export function statusJson(entry: LandedTransaction): Record<string, unknown> {
  const err = entry.err?.json ?? null
  return {
    slot: entry.slot,
    confirmations: null,
    err,
    status: err === null ? { Ok: null } : { Err: err },
    confirmationStatus: 'finalized',
  }
}

/** Inner instructions, parsed (jsonParsed) or compiled. */
export function innerInstructionsJson(
  groups: readonly InnerInstructionGroup[],
  keys: ResolvedKeys,
  parsed: boolean,
): Record<string, unknown>[] {
  return groups.map((group) => ({
    index: group.index,
    instructions: group.instructions.map((ix) =>
      parsed
        ? parsedInstruction({
            programId: keys.keys[ix.programIdIndex] ?? PublicKey.default,
            accounts: ix.accounts.map((i) => keys.keys[i] ?? PublicKey.default),
            data: ix.data,
            stackHeight: ix.stackHeight,
          })
        : {
            programIdIndex: ix.programIdIndex,
            accounts: ix.accounts,
            data: encodeBase58(ix.data),
            stackHeight: ix.stackHeight,
          },
    ),
  }))
}

type TransactionEncoding = 'json' | 'jsonParsed' | 'base58' | 'base64'

/** A history entry in the `getTransaction` shape. */
export function transactionJson(
  entry: LandedTransaction,
  encoding: TransactionEncoding,
  maxSupportedTransactionVersion: number | undefined,
): Record<string, unknown> {
  const tx = entry.transaction
  const message = tx.message
  const version = message.version
  if (
    version !== 'legacy' &&
    (maxSupportedTransactionVersion === undefined || version > maxSupportedTransactionVersion)
  ) {
    throw new RpcError(
      RPC_ERROR.unsupportedTransactionVersion,
      maxSupportedTransactionVersion === undefined
        ? `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`
        : `Transaction version (${version}) is not supported by the requesting client`,
    )
  }
  const keys = entry.accounts
  const parsed = encoding === 'jsonParsed'
  const signatures = tx.signatures.map((sig) => encodeBase58(sig))
  const lookups =
    version === 'legacy'
      ? undefined
      : message.addressTableLookups.map((lookup) => ({
          accountKey: lookup.accountKey.toBase58(),
          writableIndexes: lookup.writableIndexes,
          readonlyIndexes: lookup.readonlyIndexes,
        }))
  let transaction: unknown
  if (encoding === 'base64' || encoding === 'base58') {
    const bytes = tx.serialize()
    transaction = encoding === 'base64' ? [encodeBase64(bytes), 'base64'] : [encodeBase58(bytes), 'base58']
  } else if (parsed) {
    transaction = {
      signatures,
      message: {
        accountKeys: keys.keys.map((key, i) => ({
          pubkey: key.toBase58(),
          signer: keys.signer[i] ?? false,
          source: i < keys.staticCount ? 'transaction' : 'lookupTable',
          writable: keys.writable[i] ?? false,
        })),
        instructions: message.compiledInstructions.map((ix) =>
          parsedInstruction({
            programId: keys.keys[ix.programIdIndex] ?? PublicKey.default,
            accounts: ix.accountKeyIndexes.map((i) => keys.keys[i] ?? PublicKey.default),
            data: ix.data,
            stackHeight: null,
          }),
        ),
        recentBlockhash: message.recentBlockhash,
        ...(lookups ? { addressTableLookups: lookups } : {}),
      },
    }
  } else {
    transaction = {
      signatures,
      message: {
        accountKeys: message.staticAccountKeys.map((key) => key.toBase58()),
        header: message.header,
        instructions: message.compiledInstructions.map((ix) => ({
          programIdIndex: ix.programIdIndex,
          accounts: ix.accountKeyIndexes,
          data: encodeBase58(ix.data),
          stackHeight: null,
        })),
        recentBlockhash: message.recentBlockhash,
        ...(lookups ? { addressTableLookups: lookups } : {}),
      },
    }
  }
  const err = entry.err?.json ?? null
  const meta: Record<string, unknown> = {
    err,
    status: err === null ? { Ok: null } : { Err: err },
    fee: entry.fee,
    preBalances: entry.preBalances,
    postBalances: entry.postBalances,
    innerInstructions: innerInstructionsJson(entry.innerInstructions, keys, parsed),
    logMessages: entry.logs,
    preTokenBalances: entry.preTokenBalances,
    postTokenBalances: entry.postTokenBalances,
    rewards: [],
    computeUnitsConsumed: entry.unitsConsumed,
  }
  if (!parsed) {
    meta.loadedAddresses = {
      writable: keys.loaded.writable.map((key) => key.toBase58()),
      readonly: keys.loaded.readonly.map((key) => key.toBase58()),
    }
  }
  if (entry.returnData) {
    meta.returnData = {
      programId: entry.returnData.programId,
      data: [encodeBase64(entry.returnData.data), 'base64'],
    }
  }
  return {
    slot: entry.slot,
    blockTime: entry.blockTime,
    meta,
    transaction,
    ...(maxSupportedTransactionVersion !== undefined ? { version } : {}),
  }
}
