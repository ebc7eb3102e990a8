/**
 * The HTTP JSON-RPC methods of the local Solana network, in the shapes a validator answers (and
 * `@solana/web3.js` 1.x `Connection` checks). Commitment levels are accepted and ignored: every landed
 * transaction is final at once.
 */
import { type Keypair, PublicKey, VersionedMessage } from '@solana/web3.js'
import { z } from 'zod'
import {
  type AccountEncoding,
  type DataSlice,
  type LedgerAccount,
  parseMint,
  parseTokenAccount,
  TOKEN_PROGRAMS,
  tokenAmount,
  uiAccount,
} from './accounts.ts'
import { decodeBase58, decodeBase64, encodeBase58, encodeBase64 } from './codec.ts'
import { invalidParams, RPC_ERROR, RpcError } from './errors.ts'
import { parsedInstruction } from './instructions.ts'
import type { MethodHandler } from './jsonrpc.ts'
import { GENESIS_HASH } from './keys.ts'
import type { InnerInstructionGroup, LandedTransaction, Ledger, ResolvedKeys } from './ledger.ts'

/** Reported by getVersion (the Agave line litesvm 0.8 runs). */
export const SOLANA_CORE_VERSION = '2.3.0'
const FEATURE_SET = 3_294_202_862
const SLOTS_PER_EPOCH = 432_000
const MAX_MULTIPLE_ACCOUNTS = 100
const MAX_SIGNATURE_STATUSES = 256
const MAX_SIGNATURES_FOR_ADDRESS = 1_000
const MAX_PRIORITIZATION_FEE_ADDRESSES = 128
const MAX_BASE58_TRANSACTION = 1_683
const MAX_BASE64_TRANSACTION = 1_644

// ---- parameter schemas ---------------------------------------------------------------------------------

const address = z.string().transform((text, ctx) => {
  try {
    const key = new PublicKey(text)
    if (key.toBase58() === text) return key
  } catch {}
  ctx.addIssue({ code: 'custom', message: `Invalid public key: ${text}` })
  return z.NEVER
})

const signature = z.string().refine((text) => {
  try {
    return decodeBase58(text).length === 64
  } catch {
    return false
  }
}, 'Invalid signature')

const commitment = z.enum([
  'processed',
  'confirmed',
  'finalized',
  'recent',
  'single',
  'singleGossip',
  'root',
  'max',
])

const contextConfig = z
  .looseObject({
    commitment: commitment.optional(),
    minContextSlot: z.number().int().nonnegative().optional(),
  })
  .nullish()

const accountEncoding = z.enum(['binary', 'base58', 'base64', 'base64+zstd', 'jsonParsed'])

const accountConfig = z
  .looseObject({
    commitment: commitment.optional(),
    minContextSlot: z.number().int().nonnegative().optional(),
    encoding: accountEncoding.optional(),
    dataSlice: z
      .object({ offset: z.number().int().nonnegative(), length: z.number().int().nonnegative() })
      .optional(),
  })
  .nullish()

const transactionEncoding = z.enum(['base58', 'base64'])

/** Parses `params` (absent = []) or throws the validator's -32602. */
function parse<T>(schema: z.ZodType<T>, params: unknown): T {
  if (params !== undefined && !Array.isArray(params)) throw invalidParams('params must be an array')
  const result = schema.safeParse(params ?? [])
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const where = issue && issue.path.length > 0 ? `param ${issue.path.join('.')}: ` : ''
  throw invalidParams(`${where}${issue?.message ?? 'invalid'}`)
}

// ---- shapes -------------------------------------------------------------------------------------------

export interface RpcContext {
  readonly ledger: Ledger
  readonly faucet: Keypair
}

function context(ledger: Ledger): { slot: number; apiVersion: string } {
  return { slot: ledger.slot, apiVersion: SOLANA_CORE_VERSION }
}

function withContext(
  ledger: Ledger,
  value: unknown,
): { context: { slot: number; apiVersion: string }; value: unknown } {
  return { context: context(ledger), value }
}

function checkMinContextSlot(
  ledger: Ledger,
  config: { minContextSlot?: number | undefined } | null | undefined,
): void {
  if (config?.minContextSlot !== undefined && config.minContextSlot > ledger.slot) {
    throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: ledger.slot })
  }
}

function encodeAccount(
  ledger: Ledger,
  account: LedgerAccount | null,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
): Record<string, unknown> | null {
  if (!account) return null
  if (slice && encoding === 'jsonParsed') return uiAccount(account, 'base64', ledger.read, slice)
  return uiAccount(account, encoding, ledger.read, slice)
}

function statusJson(entry: LandedTransaction): Record<string, unknown> {
  const err = entry.err?.json ?? null
  return {
    slot: entry.slot,
    confirmations: null,
    err,
    status: err === null ? { Ok: null } : { Err: err },
    confirmationStatus: 'finalized',
  }
}

function decodeWire(text: string, encoding: 'base58' | 'base64'): Uint8Array {
  const max = encoding === 'base58' ? MAX_BASE58_TRANSACTION : MAX_BASE64_TRANSACTION
  if (text.length > max) {
    throw invalidParams(
      `${encoding} encoded transaction too large: ${text.length} bytes (max: encoded ${max})`,
    )
  }
  try {
    return encoding === 'base58' ? decodeBase58(text) : decodeBase64(text)
  } catch {
    throw invalidParams(`invalid ${encoding} encoding`)
  }
}

function innerInstructionsJson(
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

// ---- methods ------------------------------------------------------------------------------------------

type Methods = Record<string, MethodHandler<RpcContext>>

const noParams = z.tuple([contextConfig.optional()])

const methods: Methods = {
  getHealth: () => 'ok',

  getVersion: () => ({ 'solana-core': SOLANA_CORE_VERSION, 'feature-set': FEATURE_SET }),

  getGenesisHash: () => GENESIS_HASH,

  getIdentity: (_params, { faucet }) => ({ identity: faucet.publicKey.toBase58() }),

  getSlot: (params, { ledger }) => {
    checkMinContextSlot(ledger, parse(noParams, params)[0])
    return ledger.slot
  },

  getBlockHeight: (params, { ledger }) => {
    checkMinContextSlot(ledger, parse(noParams, params)[0])
    return ledger.blockHeight
  },

  getTransactionCount: (params, { ledger }) => {
    parse(noParams, params)
    return ledger.transactionCount
  },

  getFirstAvailableBlock: () => 0,

  minimumLedgerSlot: () => 0,

  getEpochInfo: (params, { ledger }) => {
    checkMinContextSlot(ledger, parse(noParams, params)[0])
    return {
      absoluteSlot: ledger.slot,
      blockHeight: ledger.blockHeight,
      epoch: Math.floor(ledger.slot / SLOTS_PER_EPOCH),
      slotIndex: ledger.slot % SLOTS_PER_EPOCH,
      slotsInEpoch: SLOTS_PER_EPOCH,
      transactionCount: ledger.transactionCount,
    }
  },

  getEpochSchedule: () => ({
    firstNormalEpoch: 0,
    firstNormalSlot: 0,
    leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
    slotsPerEpoch: SLOTS_PER_EPOCH,
    warmup: false,
  }),

  getLatestBlockhash: (params, { ledger }) => {
    checkMinContextSlot(ledger, parse(noParams, params)[0])
    return withContext(ledger, ledger.latestBlockhash())
  },

  isBlockhashValid: (params, { ledger }) => {
    const [blockhash, config] = parse(z.tuple([z.string(), contextConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    return withContext(ledger, ledger.isBlockhashValid(blockhash))
  },

  getFeeForMessage: (params, { ledger }) => {
    const [text, config] = parse(z.tuple([z.string(), contextConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    let message: VersionedMessage
    try {
      message = VersionedMessage.deserialize(decodeBase64(text))
    } catch (error) {
      throw invalidParams(`invalid message: ${error instanceof Error ? error.message : String(error)}`)
    }
    return withContext(ledger, ledger.feeForMessage(message))
  },

  getRecentPrioritizationFees: (params, { ledger }) => {
    const [addresses] = parse(z.tuple([z.array(address).nullish()]), params)
    if (addresses && addresses.length > MAX_PRIORITIZATION_FEE_ADDRESSES) {
      throw invalidParams(`Too many inputs provided; max ${MAX_PRIORITIZATION_FEE_ADDRESSES}`)
    }
    return ledger.recentPrioritizationFees((addresses ?? []).map((key) => key.toBase58()))
  },

  getMinimumBalanceForRentExemption: (params, { ledger }) => {
    const [length] = parse(
      z.tuple([
        z
          .number()
          .int()
          .nonnegative()
          .max(10 * 1024 * 1024),
        contextConfig.optional(),
      ]),
      params,
    )
    return Number(ledger.minimumBalanceForRentExemption(length))
  },

  getBalance: (params, { ledger }) => {
    const [key, config] = parse(z.tuple([address, contextConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    return withContext(ledger, Number(ledger.getAccount(key)?.lamports ?? 0n))
  },

  getAccountInfo: (params, { ledger }) => {
    const [key, config] = parse(z.tuple([address, accountConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    return withContext(
      ledger,
      encodeAccount(ledger, ledger.getAccount(key), config?.encoding ?? 'binary', config?.dataSlice),
    )
  },

  getMultipleAccounts: (params, { ledger }) => {
    const [keys, config] = parse(z.tuple([z.array(address), accountConfig.optional()]), params)
    if (keys.length > MAX_MULTIPLE_ACCOUNTS) {
      throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`)
    }
    checkMinContextSlot(ledger, config)
    const encoding = config?.encoding ?? 'base64'
    return withContext(
      ledger,
      keys.map((key) => encodeAccount(ledger, ledger.getAccount(key), encoding, config?.dataSlice)),
    )
  },

  getTokenAccountsByOwner: (params, { ledger }) => {
    const [owner, filter, config] = parse(
      z.tuple([
        address,
        z.union([z.object({ mint: address }), z.object({ programId: address })]),
        accountConfig.optional(),
      ]),
      params,
    )
    checkMinContextSlot(ledger, config)
    if ('mint' in filter) {
      if (!parseMint(ledger.getAccount(filter.mint))) throw invalidParams('could not find mint')
    } else if (!TOKEN_PROGRAMS.has(filter.programId.toBase58())) {
      throw invalidParams('unrecognized Token program id')
    }
    const encoding = config?.encoding ?? 'binary'
    return withContext(
      ledger,
      ledger.tokenAccountsByOwner(owner, filter).map(([key, account]) => ({
        pubkey: key.toBase58(),
        account: encodeAccount(ledger, account, encoding, config?.dataSlice),
      })),
    )
  },

  getTokenAccountBalance: (params, { ledger }) => {
    const [key, config] = parse(z.tuple([address, contextConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    const account = ledger.getAccount(key)
    if (!account) throw invalidParams('could not find account')
    const state = parseTokenAccount(account)
    const mint = state ? parseMint(ledger.getAccount(state.mint)) : null
    if (!state || !mint) throw invalidParams('not a Token account')
    return withContext(ledger, tokenAmount(state.amount, mint.decimals))
  },

  getTokenSupply: (params, { ledger }) => {
    const [key, config] = parse(z.tuple([address, contextConfig.optional()]), params)
    checkMinContextSlot(ledger, config)
    const mint = parseMint(ledger.getAccount(key))
    if (!mint) throw invalidParams('not a Token mint')
    return withContext(ledger, tokenAmount(mint.supply, mint.decimals))
  },

  sendTransaction: (params, { ledger }) => {
    const [text, config] = parse(
      z.tuple([
        z.string(),
        z
          .looseObject({
            encoding: transactionEncoding.optional(),
            skipPreflight: z.boolean().optional(),
            preflightCommitment: commitment.optional(),
            maxRetries: z.number().int().nonnegative().optional(),
            minContextSlot: z.number().int().nonnegative().optional(),
          })
          .nullish(),
      ]),
      params,
    )
    checkMinContextSlot(ledger, config)
    const wire = decodeWire(text, config?.encoding ?? 'base58')
    return ledger.send(wire, { skipPreflight: config?.skipPreflight ?? false })
  },

  simulateTransaction: (params, { ledger }) => {
    const [text, config] = parse(
      z.tuple([
        z.string(),
        z
          .looseObject({
            encoding: transactionEncoding.optional(),
            sigVerify: z.boolean().optional(),
            replaceRecentBlockhash: z.boolean().optional(),
            commitment: commitment.optional(),
            minContextSlot: z.number().int().nonnegative().optional(),
            innerInstructions: z.boolean().optional(),
            accounts: z
              .object({
                addresses: z.array(address),
                encoding: z.enum(['base64', 'base64+zstd', 'jsonParsed']).optional(),
              })
              .nullish(),
          })
          .nullish(),
      ]),
      params,
    )
    checkMinContextSlot(ledger, config)
    const sigVerify = config?.sigVerify ?? false
    const replaceRecentBlockhash = config?.replaceRecentBlockhash ?? false
    if (sigVerify && replaceRecentBlockhash) {
      throw invalidParams('sigVerify may not be used with replaceRecentBlockhash')
    }
    if (config?.accounts && config.accounts.addresses.length > MAX_MULTIPLE_ACCOUNTS) {
      throw invalidParams(`Too many accounts provided; max ${MAX_MULTIPLE_ACCOUNTS}`)
    }
    const wire = decodeWire(text, config?.encoding ?? 'base58')
    const simulation = ledger.simulate(wire, { sigVerify, replaceRecentBlockhash })
    if (simulation.err?.json === 'SignatureFailure') {
      throw new RpcError(
        RPC_ERROR.transactionSignatureVerificationFailure,
        'Transaction signature verification failure',
      )
    }
    const accountsEncoding = config?.accounts?.encoding ?? 'base64'
    const accounts = config?.accounts
      ? config.accounts.addresses.map((key) => {
          const text = key.toBase58()
          const account = simulation.postAccounts.has(text)
            ? (simulation.postAccounts.get(text) ?? null)
            : ledger.getAccount(key)
          return encodeAccount(ledger, account, accountsEncoding, undefined)
        })
      : null
    return withContext(ledger, {
      err: simulation.err?.json ?? null,
      logs: simulation.logs,
      accounts,
      unitsConsumed: simulation.unitsConsumed,
      returnData: simulation.returnData
        ? {
            programId: simulation.returnData.programId,
            data: [encodeBase64(simulation.returnData.data), 'base64'],
          }
        : null,
      innerInstructions:
        config?.innerInstructions && simulation.accounts
          ? innerInstructionsJson(simulation.innerInstructions, simulation.accounts, true)
          : null,
      replacementBlockhash: simulation.replacementBlockhash,
      fee: simulation.fee,
    })
  },

  getSignatureStatuses: (params, { ledger }) => {
    const [signatures] = parse(
      z.tuple([
        z.array(signature),
        z.looseObject({ searchTransactionHistory: z.boolean().optional() }).nullish(),
      ]),
      params,
    )
    if (signatures.length > MAX_SIGNATURE_STATUSES) {
      throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`)
    }
    return withContext(
      ledger,
      signatures.map((sig) => {
        const entry = ledger.transaction(sig)
        return entry ? statusJson(entry) : null
      }),
    )
  },

  getSignaturesForAddress: (params, { ledger }) => {
    const [key, config] = parse(
      z.tuple([
        address,
        z
          .looseObject({
            limit: z.number().int().positive().optional(),
            before: signature.optional(),
            until: signature.optional(),
            commitment: commitment.optional(),
            minContextSlot: z.number().int().nonnegative().optional(),
          })
          .nullish(),
      ]),
      params,
    )
    checkMinContextSlot(ledger, config)
    const limit = config?.limit ?? MAX_SIGNATURES_FOR_ADDRESS
    if (limit > MAX_SIGNATURES_FOR_ADDRESS)
      throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`)
    return ledger
      .signaturesFor(key, { limit, before: config?.before, until: config?.until })
      .map((entry) => ({
        signature: entry.signature,
        slot: entry.slot,
        err: entry.err?.json ?? null,
        memo: entry.memo,
        blockTime: entry.blockTime,
        confirmationStatus: 'finalized',
      }))
  },

  getTransaction: (params, { ledger }) => {
    const encodingEnum = z.enum(['json', 'jsonParsed', 'base58', 'base64'])
    const [sig, rawConfig] = parse(
      z.tuple([
        signature,
        z
          .union([
            encodingEnum,
            z.looseObject({
              encoding: encodingEnum.optional(),
              commitment: commitment.optional(),
              maxSupportedTransactionVersion: z.number().int().nonnegative().optional(),
            }),
          ])
          .nullish(),
      ]),
      params,
    )
    const config = typeof rawConfig === 'string' ? { encoding: rawConfig } : (rawConfig ?? {})
    if ('commitment' in config && config.commitment === 'processed') {
      throw invalidParams('Method does not support commitment below `confirmed`')
    }
    const entry = ledger.transaction(sig)
    if (!entry) return null
    const maxVersion =
      'maxSupportedTransactionVersion' in config ? config.maxSupportedTransactionVersion : undefined
    return transactionJson(entry, config.encoding ?? 'json', maxVersion)
  },

  requestAirdrop: (params, { ledger, faucet }) => {
    const [to, lamports] = parse(
      z.tuple([address, z.number().int().positive().max(Number.MAX_SAFE_INTEGER), contextConfig.optional()]),
      params,
    )
    try {
      return ledger.transfer(faucet, to, BigInt(lamports))
    } catch (error) {
      const detail = error instanceof RpcError ? error.message : String(error)
      throw new RpcError(RPC_ERROR.internalError, `airdrop request failed: ${detail}`)
    }
  },
}

/** The HTTP JSON-RPC method table. */
export const RPC_METHODS: ReadonlyMap<string, MethodHandler<RpcContext>> = new Map(Object.entries(methods))
