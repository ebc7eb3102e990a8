// EIP-5792 (wallet_sendCalls 2.0.0) for a browser or WalletConnect wallet that lacks it: the documented
// fallback of `getProvider('eip155')`, one transaction after another (docs/API.md, "EIP-5792").
import * as z from 'zod/mini'
import type { Eip1193Provider } from '../../connectors/types.ts'
import { RpcRequestError, toBaseError } from '../../errors/index.ts'
import { CallListSchema, callsStatusOf, unhonouredCapability } from '../../protocol/rules.ts'
import type { Config, SentCallBatch as SentBatch } from '../config.ts'

/** The EIP-5792 methods this module answers when the wallet does not. */
export const CALLS_METHODS = new Set([
  'wallet_sendCalls',
  'wallet_getCallsStatus',
  'wallet_getCapabilities',
  'wallet_showCallsStatus',
])

/** EIP-5792's version of the requests and answers. */
const VERSION = '2.0.0'

/** EIP-5792's error codes. */
const UNSUPPORTED_CAPABILITY = 5700
const UNSUPPORTED_CHAIN = 5710
const UNKNOWN_BUNDLE = 5730
const ATOMICITY_NOT_SUPPORTED = 5760
const INVALID_PARAMS = -32602

/**
 * What a wallet answers to a method it does not have: EIP-1193's 4200, JSON-RPC's -32601, and
 * WalletConnect's 5101 (a wallet that approved the method in the session without answering it).
 */
const UNSUPPORTED_CODES = new Set([4200, -32601, 5101])

const hexQuantity = z.string().check(z.regex(/^0x[0-9a-fA-F]+$/))
const sendCallsRequest = z.object({
  version: z.optional(z.string()),
  chainId: hexQuantity,
  from: z.optional(z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))),
  atomicRequired: z.optional(z.boolean()),
  calls: CallListSchema.check(z.minLength(1)),
  capabilities: z.optional(z.record(z.string(), z.unknown())),
})

const failure = (code: number, message: string) => new RpcRequestError({ code, message })

/**
 * Whether `error` is a wallet saying it has no such method.
 *
 * @example
 * if (isUnsupportedMethod(error)) return fallback()
 */
export function isUnsupportedMethod(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'number' && UNSUPPORTED_CODES.has(code)
}

/**
 * Answers an EIP-5792 request for `wallet`: the wallet's own answer when it has the method, else the
 * fallback: `wallet_sendCalls` sends the calls one after another with `eth_sendTransaction` (each
 * approved in the wallet; refused when the dapp requires atomicity or a capability it did not mark
 * optional), `wallet_getCallsStatus` reads their receipts, `wallet_getCapabilities` says `atomic` is
 * unsupported on the site's EVM networks, and `wallet_showCallsStatus` opens Account (its Activity
 * lists the transactions).
 *
 * @example
 * const { id } = await answerCalls(config, wallet, { method: 'wallet_sendCalls', params: [batch] })
 */
export async function answerCalls(
  config: Config,
  wallet: Eip1193Provider,
  args: { method: string; params?: unknown },
  walletHasIt = true,
): Promise<unknown> {
  // getProvider sends every method whose name has `Call` or `Cap` here: only EIP-5792's are answered.
  if (!CALLS_METHODS.has(args.method)) return wallet.request(args)
  const params = Array.isArray(args.params) ? (args.params as unknown[]) : []
  const batches = config.internal.callBatches
  const ownId = (value: unknown) => (typeof value === 'string' ? batches.get(value.toLowerCase()) : undefined)
  // A batch sent here is answered here, whatever the wallet knows.
  if (args.method === 'wallet_getCallsStatus' && ownId(params[0]))
    return statusOfBatch(wallet, String(params[0]), ownId(params[0]) as SentBatch)
  if (args.method === 'wallet_showCallsStatus' && ownId(params[0])) return showActivity(config)
  if (walletHasIt) {
    try {
      return await wallet.request(args)
    } catch (error) {
      if (!isUnsupportedMethod(error)) throw toBaseError(error, { method: args.method })
    }
  }
  switch (args.method) {
    case 'wallet_sendCalls':
      return sendOneByOne(wallet, batches, params[0])
    case 'wallet_getCapabilities':
      return capabilitiesOf(config, params[1])
    case 'wallet_getCallsStatus':
    case 'wallet_showCallsStatus':
      throw failure(UNKNOWN_BUNDLE, 'Unknown bundle id')
    default:
      throw failure(4200, `The wallet does not support ${args.method}`)
  }
}

async function sendOneByOne(
  wallet: Eip1193Provider,
  batches: Map<string, SentBatch>,
  raw: unknown,
): Promise<{ id: string }> {
  const parsed = sendCallsRequest.safeParse(raw)
  if (!parsed.success) throw failure(INVALID_PARAMS, 'wallet_sendCalls needs a chainId and 1 or more calls')
  const batch = parsed.data
  if (batch.atomicRequired)
    throw failure(ATOMICITY_NOT_SUPPORTED, 'This wallet cannot send the calls atomically')
  const unhonoured = unhonouredCapability(batch.capabilities, new Set())
  if (unhonoured) throw failure(UNSUPPORTED_CAPABILITY, `Unsupported non-optional capability: ${unhonoured}`)
  const current = String(await wallet.request({ method: 'eth_chainId' }))
  if (BigInt(current) !== BigInt(batch.chainId))
    throw failure(UNSUPPORTED_CHAIN, `The wallet is on chain ${current}, not ${batch.chainId}`)
  const from = batch.from ?? ((await wallet.request({ method: 'eth_accounts' })) as string[] | undefined)?.[0]
  const hashes: string[] = []
  for (const call of batch.calls) {
    const transaction = {
      ...(from ? { from } : {}),
      ...(call.to ? { to: call.to } : {}),
      ...(call.data ? { data: call.data } : {}),
      ...(call.value ? { value: call.value } : {}),
    }
    hashes.push(String(await wallet.request({ method: 'eth_sendTransaction', params: [transaction] })))
  }
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  const id = `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
  batches.set(id, { chainId: `0x${BigInt(batch.chainId).toString(16)}`, hashes })
  return { id }
}

async function statusOfBatch(wallet: Eip1193Provider, id: string, batch: SentBatch) {
  const receipts = (await Promise.all(
    batch.hashes.map((hash) => wallet.request({ method: 'eth_getTransactionReceipt', params: [hash] })),
  )) as ({ status?: unknown } | null)[]
  return {
    version: VERSION,
    id,
    chainId: batch.chainId,
    status: callsStatusOf(receipts),
    atomic: false,
    receipts: receipts.filter((receipt) => receipt !== null),
  }
}

function capabilitiesOf(config: Config, asked: unknown): Record<string, { atomic: { status: string } }> {
  const site = config.$options
    .get()
    .networks.filter((id) => id.startsWith('eip155:'))
    .map((id) => `0x${BigInt(id.slice('eip155:'.length)).toString(16)}`)
  const chains = Array.isArray(asked)
    ? asked.filter((id): id is string => typeof id === 'string' && site.includes(id.toLowerCase()))
    : site
  return Object.fromEntries(chains.map((id) => [id, { atomic: { status: 'unsupported' } }]))
}

async function showActivity(config: Config): Promise<null> {
  const { open } = await import('../actions/open.ts')
  await open(config, { view: 'Account' })
  return null
}
