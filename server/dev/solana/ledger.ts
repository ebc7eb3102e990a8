/**
 * The ledger of the local Solana network: litesvm (the real SVM, in-process) plus what a validator keeps around
 * it — slots and block heights, a window of recent blockhashes, the transaction history and an index of token
 * accounts by owner. Every landed transaction closes a block: the slot advances and a new blockhash is issued,
 * and blockhashes stay valid for 150 blocks, as on a cluster.
 */
import {
  PublicKey,
  SystemProgram,
  Transaction,
  type VersionedMessage,
  type VersionedTransaction,
} from '@solana/web3.js'
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm'
import {
  type AccountReader,
  type LedgerAccount,
  parseTokenAccount,
  type TokenBalanceJson,
  tokenBalance,
} from './accounts.ts'
import { decodeTransaction, preflightError, resolveKeys } from './admission.ts'
import { encodeBase58 } from './codec.ts'
import { fromLiteSvm, type TransactionFailure, transactionFailure } from './errors.ts'
import { type FpuReset, loadFpuReset } from './fpu.ts'
import type {
  LandedTransaction,
  LedgerEvents,
  ResolvedKeys,
  SignatureQuery,
  Simulation,
  TokenAccountFilter,
} from './ledgerTypes.ts'
import {
  computeBudget,
  feeFromDebug,
  innerGroups,
  memoOf,
  returnDataOf,
  toLedgerAccount,
} from './transactionMeta.ts'

/** Blocks a blockhash stays usable for (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALIDITY = 150
/** Lamports per signature. */
export const LAMPORTS_PER_SIGNATURE = 5_000

export class Ledger {
  /** The SVM. Run transactions through `send` / `simulate`, which clean up after its JIT (see fpu-reset.c). */
  readonly svm: LiteSVM
  readonly events: LedgerEvents[] = []
  #slot = 0
  #blockhash: string
  readonly #blockhashes = new Map<string, number>()
  readonly #history = new Map<string, LandedTransaction>()
  readonly #byAddress = new Map<string, string[]>()
  readonly #tokenAccounts = new Map<string, string>()
  readonly #blockFees: { slot: number; fee: bigint; accounts: ReadonlySet<string> }[] = []
  readonly #resetFpu: FpuReset

  constructor() {
    const fpu = loadFpuReset()
    if (fpu.error) {
      console.warn(
        `local Solana: could not build the FPU reset helper (${fpu.error}); litesvm may abort the process ` +
          'with std::bad_alloc after running the Associated Token Account or Memo program (litesvm issue #171)',
      )
    }
    this.#resetFpu = fpu.reset
    // litesvm checks one blockhash at a time; the ledger checks its own 150-block window instead.
    this.svm = new LiteSVM().withBlockhashCheck(false).withSigverify(true)
    this.#touchClock()
    this.#blockhash = this.svm.latestBlockhash()
    this.#blockhashes.set(this.#blockhash, BLOCKHASH_VALIDITY)
  }

  /** The slot being filled (the last landed transaction is in the slot before). */
  get slot(): number {
    return this.#slot
  }

  /** Block height equals the slot here: no slot is ever skipped. */
  get blockHeight(): number {
    return this.#slot
  }

  get transactionCount(): number {
    return this.#history.size
  }

  readonly read: AccountReader = (address) => this.getAccount(address)

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    return { blockhash: this.#blockhash, lastValidBlockHeight: this.#blockhashes.get(this.#blockhash) ?? 0 }
  }

  isBlockhashValid(blockhash: string): boolean {
    const lastValid = this.#blockhashes.get(blockhash)
    return lastValid !== undefined && this.blockHeight <= lastValid
  }

  /** An account, or null when it does not exist (no lamports). */
  getAccount(address: PublicKey): LedgerAccount | null {
    const info = this.svm.getAccount(address)
    if (!info) return null
    const lamports = this.svm.getBalance(address) ?? BigInt(info.lamports)
    return lamports === 0n ? null : toLedgerAccount(info, lamports)
  }

  minimumBalanceForRentExemption(dataLength: number): bigint {
    return this.svm.minimumBalanceForRentExemption(BigInt(dataLength))
  }

  /** Fee of a message at the current state, or null when its blockhash is not valid. */
  feeForMessage(message: VersionedMessage): number | null {
    if (!this.isBlockhashValid(message.recentBlockhash)) return null
    const { price, limit } = computeBudget(message)
    const priority = (price * BigInt(limit) + 999_999n) / 1_000_000n
    return message.header.numRequiredSignatures * LAMPORTS_PER_SIGNATURE + Number(priority)
  }

  transaction(signature: string): LandedTransaction | undefined {
    return this.#history.get(signature)
  }

  /** Transactions that touched `address`, newest first. */
  signaturesFor(address: PublicKey, query: SignatureQuery): LandedTransaction[] {
    const signatures = this.#byAddress.get(address.toBase58()) ?? []
    const out: LandedTransaction[] = []
    let i = signatures.length - 1
    if (query.before !== undefined) {
      const at = signatures.lastIndexOf(query.before)
      i = at === -1 ? -1 : at - 1
    }
    for (; i >= 0 && out.length < query.limit; i--) {
      const signature = signatures[i]
      if (signature === undefined || signature === query.until) break
      const entry = this.#history.get(signature)
      if (entry) out.push(entry)
    }
    return out
  }

  /** Token accounts owned by `owner`, for a mint or a token program. */
  tokenAccountsByOwner(owner: PublicKey, filter: TokenAccountFilter): [PublicKey, LedgerAccount][] {
    const ownerText = owner.toBase58()
    const out: [PublicKey, LedgerAccount][] = []
    for (const [address, indexedOwner] of this.#tokenAccounts) {
      if (indexedOwner !== ownerText) continue
      const key = new PublicKey(address)
      const account = this.getAccount(key)
      const state = parseTokenAccount(account)
      if (!account || !state) continue
      if (!state.owner.equals(owner)) continue
      if ('mint' in filter ? state.mint.equals(filter.mint) : account.owner.equals(filter.programId)) {
        out.push([key, account])
      }
    }
    return out
  }

  /** Per-block priority fees (micro-lamports per CU) of recent blocks, for `getRecentPrioritizationFees`. */
  recentPrioritizationFees(addresses: readonly string[]): { slot: number; prioritizationFee: number }[] {
    return this.#blockFees.map((block) => ({
      slot: block.slot,
      prioritizationFee:
        addresses.length === 0 || addresses.some((address) => block.accounts.has(address))
          ? Number(block.fee)
          : 0,
    }))
  }

  /**
   * Runs a transaction. Without `skipPreflight` a failing simulation is refused with -32002 (and nothing lands);
   * a transaction that fails while executing lands with its error and fee, as on a cluster.
   */
  send(wire: Uint8Array, options: { skipPreflight: boolean }): string {
    const tx = decodeTransaction(wire)
    const signatureBytes = tx.signatures[0] ?? new Uint8Array(64)
    const signature = encodeBase58(signatureBytes)
    for (const listener of this.events) listener.received?.(signature)
    const accounts = resolveKeys(tx.message, this.read)

    const refuse = (failure: TransactionFailure, meta: TransactionMetadata | null): never => {
      throw preflightError(failure, meta, options.skipPreflight)
    }
    if (!this.isBlockhashValid(tx.message.recentBlockhash))
      refuse(transactionFailure('BlockhashNotFound'), null)
    if (this.#history.has(signature)) refuse(transactionFailure('AlreadyProcessed'), null)

    this.#touchClock()
    if (!options.skipPreflight) {
      const simulated = this.#execute(() => this.svm.simulateTransaction(tx))
      if (simulated instanceof FailedTransactionMetadata)
        refuse(fromLiteSvm(simulated.err()), simulated.meta())
    }
    const before = accounts ? accounts.keys.map((key) => this.getAccount(key)) : []
    const result = this.#execute(() => this.svm.sendTransaction(tx))
    let failure: TransactionFailure | null = null
    let meta: TransactionMetadata
    if (result instanceof FailedTransactionMetadata) {
      failure = fromLiteSvm(result.err())
      meta = result.meta()
      // Errors found before execution (fee payer, blockhash, signatures, …) leave no trace; execution errors land.
      if (this.svm.getTransaction(signatureBytes) === null) refuse(failure, meta)
    } else {
      meta = result
    }
    this.#record(tx, signature, accounts, before, failure, meta, feeFromDebug(result))
    return signature
  }

  /** Simulates a transaction against the current state without changing it. */
  simulate(wire: Uint8Array, options: { sigVerify: boolean; replaceRecentBlockhash: boolean }): Simulation {
    const tx = decodeTransaction(wire)
    let replacementBlockhash: Simulation['replacementBlockhash'] = null
    if (options.replaceRecentBlockhash) {
      replacementBlockhash = this.latestBlockhash()
      tx.message.recentBlockhash = replacementBlockhash.blockhash
    }
    const accounts = resolveKeys(tx.message, this.read)
    const empty = {
      logs: [],
      unitsConsumed: 0,
      returnData: null,
      fee: null,
      accounts,
      innerInstructions: [],
      postAccounts: new Map(),
      replacementBlockhash,
    }
    if (!this.isBlockhashValid(tx.message.recentBlockhash)) {
      return { ...empty, err: transactionFailure('BlockhashNotFound') }
    }
    this.#touchClock()
    this.svm.withSigverify(options.sigVerify)
    let result: ReturnType<LiteSVM['simulateTransaction']>
    try {
      result = this.#execute(() => this.svm.simulateTransaction(tx))
    } finally {
      this.svm.withSigverify(true)
    }
    if (result instanceof FailedTransactionMetadata) {
      const meta = result.meta()
      return {
        ...empty,
        err: fromLiteSvm(result.err()),
        logs: meta.logs(),
        unitsConsumed: Number(meta.computeUnitsConsumed()),
        innerInstructions: innerGroups(meta),
        fee: feeFromDebug(meta),
      }
    }
    const meta = result.meta()
    const postAccounts = new Map<string, LedgerAccount | null>()
    for (const [address, account] of result.postAccounts()) {
      const lamports = account.lamports()
      postAccounts.set(
        address.toBase58(),
        lamports === 0n
          ? null
          : {
              lamports,
              data: account.data(),
              owner: new PublicKey(account.owner()),
              executable: account.executable(),
              rentEpoch: account.rentEpoch(),
            },
      )
    }
    return {
      ...empty,
      err: null,
      logs: meta.logs(),
      unitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnDataOf(meta),
      innerInstructions: innerGroups(meta),
      fee: feeFromDebug(meta),
      postAccounts,
    }
  }

  /** Sends `lamports` from `payer` to `to` in a real transfer (the faucet behind `requestAirdrop`). */
  transfer(payer: { publicKey: PublicKey; secretKey: Uint8Array }, to: PublicKey, lamports: bigint): string {
    const { blockhash, lastValidBlockHeight } = this.latestBlockhash()
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports }),
    )
    tx.sign(payer)
    return this.send(tx.serialize(), { skipPreflight: false })
  }

  /** Runs the SVM, then empties the x87/MMX state its JIT may leave behind (see fpu-reset.c). */
  #execute<T>(run: () => T): T {
    try {
      return run()
    } finally {
      this.#resetFpu()
    }
  }

  #touchClock(): void {
    const clock = this.svm.getClock()
    clock.slot = BigInt(this.#slot)
    clock.unixTimestamp = BigInt(Math.floor(Date.now() / 1000))
    this.svm.setClock(clock)
  }

  #record(
    tx: VersionedTransaction,
    signature: string,
    accounts: ResolvedKeys | null,
    before: readonly (LedgerAccount | null)[],
    failure: TransactionFailure | null,
    meta: TransactionMetadata,
    fee: number | null,
  ): void {
    const resolved: ResolvedKeys = accounts ?? {
      keys: tx.message.staticAccountKeys,
      writable: tx.message.staticAccountKeys.map((_, i) => tx.message.isAccountWritable(i)),
      signer: tx.message.staticAccountKeys.map((_, i) => i < tx.message.header.numRequiredSignatures),
      staticCount: tx.message.staticAccountKeys.length,
      loaded: { writable: [], readonly: [] },
    }
    const after = resolved.keys.map((key) => this.getAccount(key))
    const balances = (list: readonly (LedgerAccount | null)[]): number[] =>
      resolved.keys.map((_, i) => Number(list[i]?.lamports ?? 0n))
    const tokenBalances = (list: readonly (LedgerAccount | null)[]): TokenBalanceJson[] =>
      resolved.keys.flatMap((_, i) => tokenBalance(i, list[i] ?? null, this.read) ?? [])
    const budget = computeBudget(tx.message)
    const slot = this.#slot
    const entry: LandedTransaction = {
      signature,
      slot,
      blockTime: Number(this.svm.getClock().unixTimestamp),
      transaction: tx,
      accounts: resolved,
      err: failure,
      fee: fee ?? this.feeForMessage(tx.message) ?? LAMPORTS_PER_SIGNATURE,
      preBalances: balances(before),
      postBalances: balances(after),
      preTokenBalances: tokenBalances(before),
      postTokenBalances: tokenBalances(after),
      logs: meta.logs(),
      innerInstructions: innerGroups(meta),
      unitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnDataOf(meta),
      computeUnitPrice: budget.price,
      memo: memoOf(tx.message),
    }
    this.#history.set(signature, entry)
    const touched = new Set<string>()
    resolved.keys.forEach((key, i) => {
      const address = key.toBase58()
      if (touched.has(address)) return
      touched.add(address)
      let list = this.#byAddress.get(address)
      if (!list) {
        list = []
        this.#byAddress.set(address, list)
      }
      list.push(signature)
      const state = parseTokenAccount(after[i] ?? null)
      if (state) this.#tokenAccounts.set(address, state.owner.toBase58())
      else this.#tokenAccounts.delete(address)
    })
    this.#blockFees.push({ slot, fee: budget.price, accounts: touched })
    if (this.#blockFees.length > BLOCKHASH_VALIDITY) this.#blockFees.shift()
    this.#closeBlock()
    for (const listener of this.events) listener.landed?.(entry)
  }

  #closeBlock(): void {
    this.#slot += 1
    this.svm.warpToSlot(BigInt(this.#slot))
    this.#touchClock()
    this.svm.expireBlockhash()
    this.#blockhash = this.svm.latestBlockhash()
    this.#blockhashes.set(this.#blockhash, this.blockHeight + BLOCKHASH_VALIDITY)
    for (const [hash, lastValid] of this.#blockhashes) {
      if (lastValid < this.blockHeight) this.#blockhashes.delete(hash)
    }
  }
}
