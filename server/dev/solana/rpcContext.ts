// What every Solana JSON-RPC method runs with (the ledger, the faucet) and the context it answers in.
import type { Keypair } from '@solana/web3.js'
import { RpcError } from './errors.ts'
import type { MethodHandler } from './jsonrpc.ts'
import type { Ledger } from './ledger.ts'

/** Reported by getVersion (the Agave line litesvm 0.8 runs). */
export const SOLANA_CORE_VERSION = '2.3.0'

export interface RpcContext {
  readonly ledger: Ledger
  readonly faucet: Keypair
}

/** A group of methods by name. */
export type RpcMethods = Record<string, MethodHandler<RpcContext>>

function context(ledger: Ledger): { slot: number; apiVersion: string } {
  return { slot: ledger.slot, apiVersion: SOLANA_CORE_VERSION }
}

/** A value with the context (`slot`, `apiVersion`) the validator wraps it in. */
export function withContext(
  ledger: Ledger,
  value: unknown,
): { context: { slot: number; apiVersion: string }; value: unknown } {
  return { context: context(ledger), value }
}

/** Refuses a request whose `minContextSlot` is ahead of the ledger (-32016). */
export function checkMinContextSlot(
  ledger: Ledger,
  config: { minContextSlot?: number | undefined } | null | undefined,
): void {
  if (config?.minContextSlot !== undefined && config.minContextSlot > ledger.slot) {
    throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: ledger.slot })
  }
}
