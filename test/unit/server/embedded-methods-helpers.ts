// A method context of real parts for the embedded wallet's methods, without HTTP: real keys, a scripted chain.
import { ed25519 } from '@noble/curves/ed25519.js'
import { type Address, type Hex, hexToBytes, keccak256 } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import type { CallBatch, CallBatches } from '../../../server/embedded/callBatches.ts'
import {
  approvalHandlers,
  executeSignedRequest,
  type MethodContext,
  previewRequest,
} from '../../../server/embedded/methods/index.ts'
import { planOf } from '../../../server/embedded/methods/plan.ts'
import type { SmartAccountActions } from '../../../server/embedded/methods/types.ts'
import type { EmbeddedNetwork } from '../../../server/embedded/networks.ts'
import type { ApprovalMethod } from '../../../src/protocol/embedded/index.ts'
import { curveOfRequest, signPlan } from '../../../src/protocol/embedded/signer.ts'
import { encodeBase58 } from '../../../src/protocol/siwx/base58.ts'

export const EVM = 'eip155:31337'
export const SOLANA = 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9'

const networks: EmbeddedNetwork[] = [
  { caipNetworkId: EVM, name: 'Local Chain', symbol: 'ETH', decimals: 18 },
  { caipNetworkId: SOLANA, name: 'Local Solana', symbol: 'SOL', decimals: 9 },
]

/** What the scripted chain answers: fees of a London chain, nonce 7, and what it was sent. */
export const chainFacts = {
  gas: '0x5208',
  baseFeePerGas: '0x3b9aca00',
  priorityFee: '0x77359400',
  nonce: 7,
  solanaFee: 5000,
}

/** A JSON-RPC upstream answering from {@link chainFacts}, keeping every call and every sent transaction. */
function scriptedUpstream() {
  const calls: { chainId: string; method: string; params: unknown }[] = []
  const sent: Hex[] = []
  const solanaSent: { transaction: string; options: unknown }[] = []
  const answers: Record<string, (params: unknown) => unknown> = {
    eth_estimateGas: () => chainFacts.gas,
    eth_getBlockByNumber: () => ({ baseFeePerGas: chainFacts.baseFeePerGas }),
    eth_maxPriorityFeePerGas: () => chainFacts.priorityFee,
    eth_getTransactionCount: () => `0x${chainFacts.nonce.toString(16)}`,
    eth_sendRawTransaction: (params) => {
      const [raw] = params as [Hex]
      sent.push(raw)
      return keccak256(raw)
    },
    eth_getTransactionReceipt: () => ({ status: '0x1' }),
    eth_getBalance: () => '0xde0b6b3a7640000',
    getFeeForMessage: () => ({ value: chainFacts.solanaFee }),
    sendTransaction: (params) => {
      const [transaction, options] = params as [string, unknown]
      solanaSent.push({ transaction, options })
      return 'sent-signature'
    },
  }
  return {
    calls,
    sent,
    solanaSent,
    async call(chainId: string, method: string, params: unknown) {
      calls.push({ chainId, method, params })
      const answer = answers[method]
      // eth_call (token metadata) and anything unscripted: the chain errs, as a node without the contract does.
      if (!answer) throw new Error(`${method} is not scripted`)
      return answer(params)
    },
  }
}

/** Batches in memory, as the database keeps them. */
function memoryBatches(): CallBatches & { stored: Map<string, CallBatch & { userId: string }> } {
  const stored = new Map<string, CallBatch & { userId: string }>()
  return {
    stored,
    async record(userId, batch) {
      const id = `0x${(stored.size + 1).toString(16).padStart(64, '0')}`
      stored.set(id, { ...batch, userId })
      return id
    },
    async find(userId, id) {
      const batch = stored.get(id)
      return batch?.userId === userId ? batch : undefined
    },
  }
}

const noSmartAccounts: SmartAccountActions = {
  supports: () => false,
  sponsors: async () => false,
  preference: async () => 'eoa',
  accountSignature: () => Promise.reject(new Error('no smart account in these tests')),
  prepareCalls: () => Promise.reject(new Error('no smart account in these tests')),
  prepareOperation: () => Promise.reject(new Error('no smart account in these tests')),
  sendSigned: () => Promise.reject(new Error('no smart account in these tests')),
  waitForReceipt: () => Promise.reject(new Error('no smart account in these tests')),
  receipt: () => Promise.reject(new Error('no smart account in these tests')),
}

/**
 * A person with a real secp256k1 key (and viem's local account over it, the reference signer) and a
 * real ed25519 key, on an EOA; `contextOn` gives the method context on a network.
 *
 * @example
 * const person = newPerson()
 * const { shown } = await personalSign.preview(person.contextOn(EVM), [message, person.evm.address])
 */
export function newPerson() {
  const evmKey = generatePrivateKey()
  const evm = privateKeyToAccount(evmKey)
  const solanaKey = ed25519.utils.randomPrivateKey()
  const solana = encodeBase58(ed25519.getPublicKey(solanaKey))
  const upstream = scriptedUpstream()
  const batches = memoryBatches()
  // Keys used by the frame's signer: a plan signs with exactly one, once per signature.
  const opened: string[] = []
  const contextOn = (chainId: string): MethodContext => {
    const ctx: MethodContext = {
      userId: 'person-1',
      projectId: 'dev-project',
      paymasterUrl: 'http://127.0.0.1:8787/paymaster/v1?projectId=dev-project',
      chainId,
      network: networks.find((network) => network.caipNetworkId === chainId) as EmbeddedNetwork,
      networks,
      own: { evm: evm.address, solana },
      evmAccount: async () => ({ address: evm.address, smart: false }),
      ownSmartAccounts: async () => [],
      upstream,
      smart: noSmartAccounts,
      batches,
      permissions: {
        record: () => Promise.reject(new Error('no permissions in these tests')),
        find: async () => undefined,
        revoked: () => Promise.reject(new Error('no permissions in these tests')),
        list: async () => [],
      },
      nowSeconds: () => Math.floor(Date.now() / 1000),
    }
    signers.set(ctx, { keys: { secp256k1: hexToBytes(evmKey), ed25519: solanaKey }, opened })
    return ctx
  }
  return { evm, evmKey, solana, solanaKey, upstream, batches, opened, contextOn }
}

/** The person's keys behind each context `contextOn` made, as the frame holds them. */
const signers = new WeakMap<
  MethodContext,
  { keys: { secp256k1: Uint8Array; ed25519: Uint8Array }; opened: string[] }
>()

/**
 * A stored, approved request signed as the frame signs it (the plan stored by the preview, the signing
 * rules checked, the person's keys), then relayed by the service's `executeSignedRequest`.
 *
 * @example
 * const result = await executeRequest(ctx, 'personal_sign', params, prepared)
 */
export async function executeRequest(ctx: MethodContext, method: string, params: unknown, prepared: unknown) {
  const signer = signers.get(ctx)
  if (!signer) throw new Error('Not a context of newPerson')
  const plan = planOf(prepared)
  const handler = Object.hasOwn(approvalHandlers, method)
    ? approvalHandlers[method as ApprovalMethod]
    : undefined
  const signatures = handler
    ? signPlan({
        method: handler.method,
        plan,
        keys: signer.keys,
        ownAccounts: (await ctx.ownSmartAccounts()) as Address[],
      })
    : []
  for (const request of plan) if (handler) signer.opened.push(curveOfRequest(request))
  return executeSignedRequest(ctx, method, params, prepared, signatures)
}

/**
 * A request as the service handles it: previewed, stored (params and what was prepared, as JSON in the
 * database), then signed by the frame from what was stored and relayed.
 */
export async function previewThenExecute(ctx: MethodContext, method: string, params: unknown) {
  const { shown, prepared } = await previewRequest(ctx, method, params)
  const stored = JSON.parse(JSON.stringify({ params, prepared })) as { params: unknown; prepared: unknown }
  const result = await executeRequest(ctx, method, stored.params, stored.prepared)
  return { shown, result }
}

/** An EIP-712 order of a shop on the local chain, as a page asks it signed (its EIP712Domain type included). */
export const shopOrder = {
  domain: {
    name: 'Shop',
    version: '1',
    chainId: 31337,
    verifyingContract: '0x0000000000000000000000000000000000000001',
  },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Order: [
      { name: 'item', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Order',
  message: { item: 'Coffee', amount: '3' },
} as const
