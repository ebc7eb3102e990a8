// The Solana JSON-RPC methods about transactions: send, simulate, statuses, history and the airdrop.
import { z } from 'zod'
import { encodeBase64 } from './codec.ts'
import { invalidParams, RPC_ERROR, RpcError } from './errors.ts'
import { checkMinContextSlot, type RpcMethods, withContext } from './rpcContext.ts'
import { encodeAccount, innerInstructionsJson, statusJson, transactionJson } from './rpcJson.ts'
import {
  address,
  commitment,
  contextConfig,
  decodeWire,
  MAX_MULTIPLE_ACCOUNTS,
  parse,
  signature,
  transactionEncoding,
} from './rpcParams.ts'

const MAX_SIGNATURE_STATUSES = 256
const MAX_SIGNATURES_FOR_ADDRESS = 1_000

/** sendTransaction, simulateTransaction, getSignatureStatuses, getSignaturesForAddress, getTransaction, requestAirdrop. */
export const transactionMethods: RpcMethods = {
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
