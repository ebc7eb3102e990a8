// The Solana JSON-RPC methods about the cluster: health, version, slots, epochs, blockhashes and fees.
import { VersionedMessage } from '@solana/web3.js'
import { z } from 'zod'
import { decodeBase64 } from './codec.ts'
import { invalidParams } from './errors.ts'
import { GENESIS_HASH } from './keys.ts'
import { checkMinContextSlot, type RpcMethods, SOLANA_CORE_VERSION, withContext } from './rpcContext.ts'
import { address, contextConfig, noParams, parse } from './rpcParams.ts'

const FEATURE_SET = 3_294_202_862
const SLOTS_PER_EPOCH = 432_000
const MAX_PRIORITIZATION_FEE_ADDRESSES = 128

/** getHealth, getVersion, getSlot, getEpochInfo, getLatestBlockhash, getFeeForMessage and the like. */
export const clusterMethods: RpcMethods = {
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
}
