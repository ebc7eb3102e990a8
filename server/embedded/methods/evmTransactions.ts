/** EVM transactions from the person's EOA: their params, the gas, fees and nonce they will use, their signing request, sending. */
import { type Address, type Hex, parseSignature, serializeTransaction } from 'viem'
import * as z from 'zod/mini'
import { transactionOf } from '../../../src/protocol/embedded/signer.ts'
import type { SignPlan, SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { actionNotAllowed } from '../errors.ts'
import { address, evmChainId, hex, quantity } from './params.ts'
import type { MethodContext } from './types.ts'

/** `eth_sendTransaction`'s params: one transaction. */
export const transactionParams = z.tuple([
  z.object({
    from: address,
    to: z.optional(z.nullable(address)),
    value: z.optional(quantity),
    data: z.optional(hex),
    input: z.optional(hex),
    gas: z.optional(quantity),
    gasPrice: z.optional(quantity),
    maxFeePerGas: z.optional(quantity),
    maxPriorityFeePerGas: z.optional(quantity),
  }),
])
export type TransactionParams = z.infer<typeof transactionParams>[0]

/** Gas and fees a transaction will use, fixed at the preview (stored with the request). */
export type PreparedTransaction =
  | { gas: string; gasPrice: string }
  | { gas: string; maxFeePerGas: string; maxPriorityFeePerGas: string }

/** The call data of a transaction: `data`, or `input` as some libraries name it. */
export const dataOf = (tx: TransactionParams) => tx.data ?? tx.input

/** A call of a batch as one transaction from the EOA (value as a hex quantity). */
export function callAsTransaction(
  from: Address,
  call: { to: string; value?: string | bigint | undefined; data?: string | undefined },
): TransactionParams {
  return {
    from,
    to: call.to,
    ...(call.value === undefined ? {} : { value: `0x${BigInt(call.value).toString(16)}` }),
    ...(call.data === undefined ? {} : { data: call.data }),
  }
}

/** Gas and fees a transaction will use: what the page gave, else estimated on the network. */
export async function prepareTransaction(
  ctx: MethodContext,
  from: Address,
  tx: TransactionParams,
): Promise<PreparedTransaction> {
  const { upstream, chainId } = ctx
  const data = dataOf(tx)
  const call = {
    from,
    ...(tx.to ? { to: tx.to } : {}),
    ...(tx.value ? { value: tx.value } : {}),
    ...(data ? { data } : {}),
  }
  const gas = tx.gas ?? ((await upstream.call(chainId, 'eth_estimateGas', [call])) as string)
  if (tx.gasPrice) return { gas, gasPrice: tx.gasPrice }
  const block = (await upstream.call(chainId, 'eth_getBlockByNumber', ['latest', false])) as {
    baseFeePerGas?: string
  } | null
  if (!block?.baseFeePerGas) {
    return { gas, gasPrice: (await upstream.call(chainId, 'eth_gasPrice', [])) as string }
  }
  const priority =
    tx.maxPriorityFeePerGas ??
    ((await upstream.call(chainId, 'eth_maxPriorityFeePerGas', []).catch(() => '0x3b9aca00')) as string)
  // Room for the base fee to double before the transaction is included.
  const maxFee = tx.maxFeePerGas ?? `0x${(BigInt(block.baseFeePerGas) * 2n + BigInt(priority)).toString(16)}`
  return { gas, maxFeePerGas: maxFee, maxPriorityFeePerGas: priority }
}

/** The most a prepared transaction can cost in fees, in base units. */
export const maxFeeOf = (prepared: PreparedTransaction) =>
  BigInt(prepared.gas) * BigInt('gasPrice' in prepared ? prepared.gasPrice : prepared.maxFeePerGas)

/** The next nonce of an account, counting its pending transactions. */
export async function pendingNonce(ctx: MethodContext, from: Address): Promise<number> {
  return Number(await ctx.upstream.call(ctx.chainId, 'eth_getTransactionCount', [from, 'pending']))
}

/**
 * The signing request of one prepared transaction from the EOA: everything that is signed, the nonce
 * included, fixed at the preview.
 */
export function plannedTransaction(
  ctx: MethodContext,
  tx: TransactionParams,
  prepared: PreparedTransaction,
  nonce: number,
): SignRequest {
  const data = dataOf(tx)
  const common = {
    chainId: evmChainId(ctx.chainId),
    nonce,
    gas: BigInt(prepared.gas).toString(),
    ...(tx.to ? { to: tx.to } : {}),
    value: BigInt(tx.value ?? 0).toString(),
    ...(data ? { data } : {}),
  }
  const transaction =
    'gasPrice' in prepared
      ? { ...common, type: 'legacy' as const, gasPrice: BigInt(prepared.gasPrice).toString() }
      : {
          ...common,
          type: 'eip1559' as const,
          maxFeePerGas: BigInt(prepared.maxFeePerGas).toString(),
          maxPriorityFeePerGas: BigInt(prepared.maxPriorityFeePerGas).toString(),
        }
  return { kind: 'evm-transaction', transaction }
}

/** The nonces of a plan's EOA transactions, in the plan's order. */
export const planNonces = (plan: SignPlan): number[] =>
  plan.flatMap((request) => (request.kind === 'evm-transaction' ? [request.transaction.nonce] : []))

/** The plan with every EOA transaction's nonce moved by `shift` (their order and gaps kept). */
const shiftedNonces = (plan: SignPlan, shift: number): SignPlan =>
  shift === 0
    ? plan
    : plan.map((request) =>
        request.kind === 'evm-transaction'
          ? { ...request, transaction: { ...request.transaction, nonce: request.transaction.nonce + shift } }
          : request,
      )

/**
 * The plan with its EVM transactions numbered after `taken` (the nonces of the person's requests still
 * waiting for an answer): two transactions asked at once get consecutive nonces in their previews.
 *
 * @example
 * const plan = afterNonces(planOf(prepared), [7]) // a transaction prepared with nonce 7 gets 8
 */
export function afterNonces(plan: SignPlan, taken: readonly number[]): SignPlan {
  const nonces = planNonces(plan)
  if (nonces.length === 0 || taken.length === 0) return plan
  const shift = Math.max(...taken) + 1 - Math.min(...nonces)
  return shift > 0 ? shiftedNonces(plan, shift) : plan
}

/**
 * The plan with its EVM transactions numbered from `first` (the first nonce free at approval), in the
 * same order: a request planned after one that was then rejected or expired takes the nonce it left.
 *
 * @example
 * const plan = numberedFrom(planOf(prepared), 7) // a plan of nonces 8 and 9 gets 7 and 8
 */
export function numberedFrom(plan: SignPlan, first: number): SignPlan {
  const nonces = planNonces(plan)
  return nonces.length === 0 ? plan : shiftedNonces(plan, first - Math.min(...nonces))
}

/** Sends a planned transaction with its (checked) signature, answering its hash. */
export async function sendSigned(ctx: MethodContext, request: SignRequest, signature: Hex): Promise<Hex> {
  if (request.kind !== 'evm-transaction') throw actionNotAllowed()
  const signed = serializeTransaction(transactionOf(request.transaction), parseSignature(signature))
  return (await ctx.upstream.call(ctx.chainId, 'eth_sendRawTransaction', [signed])) as Hex
}
