// A wire transaction on its way in: decoded within the validator's limits, its keys resolved, or refused.
import {
  AddressLookupTableAccount,
  type PublicKey,
  type VersionedMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import type { TransactionMetadata } from 'litesvm'
import type { AccountReader } from './accounts.ts'
import {
  RPC_ERROR,
  RpcError,
  type TransactionErrorJson,
  type TransactionFailure,
  transactionFailure,
} from './errors.ts'
import type { ResolvedKeys } from './ledgerTypes.ts'

/** Largest serialized transaction (PACKET_DATA_SIZE). */
export const MAX_TRANSACTION_BYTES = 1_232

/** Decodes wire bytes; throws the validator's -32602 when they are not a transaction. */
export function decodeTransaction(wire: Uint8Array): VersionedTransaction {
  if (wire.length > MAX_TRANSACTION_BYTES) {
    throw new RpcError(
      RPC_ERROR.invalidParams,
      `transaction too large: ${wire.length} bytes (max: ${MAX_TRANSACTION_BYTES})`,
    )
  }
  let tx: VersionedTransaction
  try {
    tx = VersionedTransaction.deserialize(wire)
  } catch (error) {
    throw new RpcError(
      RPC_ERROR.invalidParams,
      `failed to deserialize VersionedTransaction: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  if (tx.message.version !== 'legacy' && tx.message.version !== 0) {
    throw new RpcError(RPC_ERROR.invalidParams, 'invalid transaction: Transaction version is unsupported')
  }
  if (tx.signatures.length !== tx.message.header.numRequiredSignatures || tx.signatures.length === 0) {
    throw new RpcError(
      RPC_ERROR.invalidParams,
      `invalid transaction: ${transactionFailure('SanitizeFailure').message}`,
    )
  }
  return tx
}

/** Account keys of a message with its lookup tables resolved; null when a table cannot be read. */
export function resolveKeys(message: VersionedMessage, read: AccountReader): ResolvedKeys | null {
  const staticKeys = message.staticAccountKeys
  const lookups = message.addressTableLookups
  let loaded = { writable: [] as PublicKey[], readonly: [] as PublicKey[] }
  if (lookups.length > 0 && message.version === 0) {
    const tables: AddressLookupTableAccount[] = []
    for (const lookup of lookups) {
      const account = read(lookup.accountKey)
      if (!account) return null
      try {
        tables.push(
          new AddressLookupTableAccount({
            key: lookup.accountKey,
            state: AddressLookupTableAccount.deserialize(account.data),
          }),
        )
      } catch {
        return null
      }
    }
    try {
      loaded = message.resolveAddressTableLookups(tables)
    } catch {
      return null
    }
  }
  const keys = [...staticKeys, ...loaded.writable, ...loaded.readonly]
  const writable = keys.map((_, i) =>
    i < staticKeys.length ? message.isAccountWritable(i) : i < staticKeys.length + loaded.writable.length,
  )
  const signer = keys.map((_, i) => i < message.header.numRequiredSignatures)
  return { keys, writable, signer, staticCount: staticKeys.length, loaded }
}

/** The error a validator answers for a transaction it refuses. */
export function preflightError(
  failure: TransactionFailure,
  meta: TransactionMetadata | null,
  skippedPreflight: boolean,
): RpcError {
  if (failure.json === 'SignatureFailure') {
    return new RpcError(
      RPC_ERROR.transactionSignatureVerificationFailure,
      'Transaction signature verification failure',
      {
        err: failure.json,
        logs: [],
      },
    )
  }
  if (failure.json === 'SanitizeFailure') {
    return new RpcError(RPC_ERROR.invalidParams, `invalid transaction: ${failure.message}`)
  }
  const data: { err: TransactionErrorJson } & Record<string, unknown> = {
    accounts: null,
    err: failure.json,
    innerInstructions: null,
    logs: meta ? meta.logs() : [],
    replacementBlockhash: null,
    returnData: null,
    unitsConsumed: meta ? Number(meta.computeUnitsConsumed()) : 0,
  }
  return new RpcError(
    RPC_ERROR.sendTransactionPreflightFailure,
    skippedPreflight
      ? `Transaction was not processed: ${failure.message}`
      : `Transaction simulation failed: ${failure.message}`,
    data,
  )
}
