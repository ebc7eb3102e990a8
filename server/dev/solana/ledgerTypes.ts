// What the local Solana ledger records and answers: landed transactions, simulations, queries, events.
import type { PublicKey, VersionedTransaction } from '@solana/web3.js'
import type { LedgerAccount, TokenBalanceJson } from './accounts.ts'
import type { TransactionFailure } from './errors.ts'

/** An inner instruction as recorded: indices into the transaction's account keys. */
export interface RecordedInnerInstruction {
  readonly programIdIndex: number
  readonly accounts: readonly number[]
  readonly data: Uint8Array
  readonly stackHeight: number
}

export interface InnerInstructionGroup {
  readonly index: number
  readonly instructions: readonly RecordedInnerInstruction[]
}

export interface ReturnData {
  readonly programId: string
  readonly data: Uint8Array
}

/** Account keys of a transaction: static keys, then keys loaded from lookup tables (writable, then readonly). */
export interface ResolvedKeys {
  readonly keys: readonly PublicKey[]
  readonly writable: readonly boolean[]
  readonly signer: readonly boolean[]
  readonly staticCount: number
  readonly loaded: { readonly writable: readonly PublicKey[]; readonly readonly: readonly PublicKey[] }
}

/** A transaction in the history. */
export interface LandedTransaction {
  readonly signature: string
  readonly slot: number
  readonly blockTime: number
  readonly transaction: VersionedTransaction
  readonly accounts: ResolvedKeys
  readonly err: TransactionFailure | null
  readonly fee: number
  readonly preBalances: readonly number[]
  readonly postBalances: readonly number[]
  readonly preTokenBalances: readonly TokenBalanceJson[]
  readonly postTokenBalances: readonly TokenBalanceJson[]
  readonly logs: readonly string[]
  readonly innerInstructions: readonly InnerInstructionGroup[]
  readonly unitsConsumed: number
  readonly returnData: ReturnData | null
  readonly computeUnitPrice: bigint
  readonly memo: string | null
}

export interface Simulation {
  readonly err: TransactionFailure | null
  readonly logs: readonly string[]
  readonly unitsConsumed: number
  readonly returnData: ReturnData | null
  readonly fee: number | null
  readonly accounts: ResolvedKeys | null
  readonly innerInstructions: readonly InnerInstructionGroup[]
  /** Post-simulation state of the accounts the transaction touched, by address. */
  readonly postAccounts: ReadonlyMap<string, LedgerAccount | null>
  readonly replacementBlockhash: { blockhash: string; lastValidBlockHeight: number } | null
}

export interface SignatureQuery {
  readonly limit: number
  readonly before?: string | undefined
  readonly until?: string | undefined
}

export type TokenAccountFilter = { readonly mint: PublicKey } | { readonly programId: PublicKey }

export interface LedgerEvents {
  /** A transaction reached the node (before it runs). */
  received?(signature: string): void
  /** A transaction landed (successfully or not) and its block closed. */
  landed?(transaction: LandedTransaction): void
}
