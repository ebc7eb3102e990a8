/**
 * What the page asked, as the frame reads it from the page's own request, and the check that the
 * service's plan signs exactly that. The service stores each request and prepares its plan; it may add
 * only what the frame cannot know (an EOA transaction's nonce, gas and fees; a UserOperation's nonce,
 * gas, fees, factory and paymaster fields; the coins and change of a Bitcoin transfer). Every other
 * byte that is signed (a message, typed data, a call's receiver, value and data, the chain, a Solana
 * transaction's message, a PSBT) must be the page's own, or nothing is signed.
 */
import { type Address, bytesToHex, type Hex, hexToBytes, isAddress, isAddressEqual, isHex } from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import * as z from 'zod/mini'
import { fromBase64, toBase64 } from '../protocol/base64.ts'
import { type BitcoinPublicKeys, bitcoinAccountOf, bitcoinNetworkOf } from '../protocol/embedded/bitcoin.ts'
import { previewPsbt } from '../protocol/embedded/bitcoinSigner.ts'
import type { ApprovalMethod } from '../protocol/embedded/methods.ts'
import type { SignPlan, SignRequest } from '../protocol/embedded/signing.ts'
import { walletAccountCalls } from '../protocol/embedded/signingRules.ts'
import { readSolanaTransaction } from '../protocol/embedded/solanaWire.ts'
import { decodeBase58 } from '../protocol/siwx/base58.ts'
import { FrameFailure } from './failure.ts'
import { canonical } from './finalPlan.ts'

/** Why nothing was signed: the service's plan is not what the page asked. */
export const requestChangedMessage =
  'The wallet service answered with something other than what the site asked: nothing was signed.'

/** The failure of a plan that signs something the page did not ask. */
export const requestChanged = (why: string) =>
  new FrameFailure({ message: requestChangedMessage, code: 'REQUEST_CHANGED', data: { why } })

/** The person's own accounts, as the frame knows them from its keys (and the smart accounts they own). */
export interface OwnAccounts {
  /** The EOA of the person's key. */
  evm: Address
  /** The smart accounts the key owns (their address is the same on every network with the factory). */
  smartAccounts: readonly Address[]
  solana: string
  /** The Bitcoin public keys, on a bip122 request. */
  bitcoin?: BitcoinPublicKeys | undefined
}

/** One call as a page asks it: `eth_sendTransaction`'s transaction, a call of `wallet_sendCalls`. */
export interface AskedCall {
  to?: Address | undefined
  value: bigint
  data: Hex
}

const quantity = z.string().check(z.regex(/^0x[0-9a-fA-F]{1,64}$/))
const hexData = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/))
const addressText = z.string().check(z.refine((value) => isAddress(value, { strict: false })))
const callShape = z.object({
  to: z.optional(z.nullable(addressText)),
  value: z.optional(z.union([quantity, z.bigint()])),
  data: z.optional(hexData),
  input: z.optional(hexData),
  gas: z.optional(quantity),
  gasPrice: z.optional(quantity),
  maxFeePerGas: z.optional(quantity),
  maxPriorityFeePerGas: z.optional(quantity),
})

/** The page's params of a method, read with a schema; unreadable params are never signed. */
function read<T extends z.ZodMiniType>(schema: T, params: unknown): z.output<T> {
  const parsed = z.safeParse(schema, params)
  if (!parsed.success) throw requestChanged('the page’s params cannot be read')
  return parsed.data
}

const askedCall = (call: z.output<typeof callShape>): AskedCall => ({
  ...(call.to ? { to: call.to as Address } : {}),
  value: BigInt(call.value ?? 0),
  data: ((call.data ?? call.input ?? '0x') as Hex).toLowerCase() as Hex,
})

/** The message of `personal_sign`: wallets take [message, address]; a few libraries send [address, message]. */
function personalMessage([first, second]: readonly [string, string]): Hex {
  const message =
    isAddress(first, { strict: false }) && !isAddress(second, { strict: false }) ? second : first
  return (isHex(message) ? message : bytesToHex(new TextEncoder().encode(message))).toLowerCase() as Hex
}

/** Typed data as viem signs it: without an `EIP712Domain` type (it is derived from the domain). */
function typedDataOf(raw: unknown): unknown {
  let typed = raw
  if (typeof raw === 'string') {
    try {
      typed = JSON.parse(raw)
    } catch {
      throw requestChanged('the page’s typed data is not JSON')
    }
  }
  const shape = read(
    z.object({
      domain: z.optional(z.record(z.string(), z.unknown())),
      types: z.record(z.string(), z.unknown()),
      primaryType: z.string(),
      message: z.record(z.string(), z.unknown()),
    }),
    typed,
  )
  const { EIP712Domain: _domain, ...types } = shape.types
  return {
    ...(shape.domain ? { domain: shape.domain } : {}),
    types,
    primaryType: shape.primaryType,
    message: shape.message,
  }
}

const sameCall = (asked: AskedCall, sent: AskedCall) =>
  (asked.to === undefined
    ? sent.to === undefined
    : sent.to !== undefined && isAddressEqual(asked.to, sent.to)) &&
  asked.value === sent.value &&
  asked.data.toLowerCase() === sent.data.toLowerCase()

/** The EVM chain id of a CAIP-2 id. */
const evmChainOf = (chainId: string) => Number(chainId.split(':')[1])

const isOwn = (own: OwnAccounts, address: string) =>
  isAddress(address, { strict: false }) &&
  [own.evm, ...own.smartAccounts].some((mine) => isAddressEqual(mine, address as Address))

const ownSmart = (own: OwnAccounts, address: string) =>
  isAddress(address, { strict: false }) &&
  own.smartAccounts.some((mine) => isAddressEqual(mine, address as Address))

/** The one request of a plan of one. */
function only(plan: SignPlan): SignRequest {
  const [request, ...more] = plan
  if (!request || more.length > 0) throw requestChanged('the plan signs another number of things')
  return request
}

/** A plan that signs `calls`: EOA transactions one per call, or one UserOperation of the smart account. */
function checkCalls(
  chainId: string,
  calls: readonly AskedCall[],
  plan: SignPlan,
  own: OwnAccounts,
  fixed: readonly {
    gas?: string | undefined
    fee?: string | undefined
    priority?: string | undefined
  }[] = [],
): void {
  const chain = evmChainOf(chainId)
  const [first] = plan
  if (first?.kind === 'evm-user-operation') {
    const request = only(plan) as Extract<SignRequest, { kind: 'evm-user-operation' }>
    if (request.chainId !== chain) throw requestChanged('another chain')
    if (!isAddressEqual(request.entryPoint as Address, entryPoint08Address))
      throw requestChanged('another EntryPoint')
    if (!ownSmart(own, request.userOperation.sender)) throw requestChanged('another account')
    const sent = walletAccountCalls(request.userOperation.callData as Hex)
    if (
      !sent ||
      sent.length !== calls.length ||
      calls.some((call, index) => !sameCall(call, sent[index] as AskedCall))
    )
      throw requestChanged('other calls')
    return
  }
  if (plan.length !== calls.length) throw requestChanged('another number of transactions')
  for (const [index, call] of calls.entries()) {
    const request = plan[index] as SignRequest
    if (request.kind !== 'evm-transaction') throw requestChanged('not a transaction')
    const tx = request.transaction
    if (tx.chainId !== chain) throw requestChanged('another chain')
    const sent: AskedCall = {
      ...(tx.to ? { to: tx.to as Address } : {}),
      value: BigInt(tx.value),
      data: (tx.data ?? '0x') as Hex,
    }
    if (!sameCall(call, sent)) throw requestChanged('another receiver, amount or call data')
    // Gas and fees the page chose itself are the ones signed.
    const asked = fixed[index]
    const maxFee = tx.type === 'legacy' ? tx.gasPrice : tx.maxFeePerGas
    if (asked?.gas !== undefined && BigInt(asked.gas) !== BigInt(tx.gas)) throw requestChanged('other gas')
    if (asked?.fee !== undefined && BigInt(asked.fee) !== BigInt(maxFee)) throw requestChanged('another fee')
    if (
      asked?.priority !== undefined &&
      (tx.type !== 'eip1559' || BigInt(asked.priority) !== BigInt(tx.maxPriorityFeePerGas))
    )
      throw requestChanged('another priority fee')
  }
}

const solanaTransactionParams = z.object({ transaction: z.string() })
const bitcoinAccount = z.optional(z.string())

/** The message bytes of a Solana transaction the page gave (base64), as the plan carries them. */
function solanaMessageOf(encoded: string): string {
  try {
    return toBase64(readSolanaTransaction(fromBase64(encoded)).message)
  } catch {
    throw requestChanged('the page’s transaction cannot be read')
  }
}

/** The person's Bitcoin key of a bip122 network, from the frame's own public keys. */
function bitcoinKeyOf(own: OwnAccounts, chainId: string) {
  const network = bitcoinNetworkOf(chainId)
  const account = own.bitcoin && bitcoinAccountOf(own.bitcoin, chainId)
  if (!network || !account) throw requestChanged('not this wallet’s Bitcoin network')
  return { network, address: account.address, publicKey: hexToBytes(`0x${account.publicKey}`) }
}

/**
 * Refuses a plan that signs anything the page did not ask (see the module's comment); answers nothing
 * when the plan is the page's request with only what the service may add.
 *
 * @example
 * checkPlanOfPage({ chainId, method: 'personal_sign', params: ['0x68', address] }, created.signing.plan, own)
 */
export function checkPlanOfPage(
  page: { chainId: string; method: ApprovalMethod; params?: unknown },
  plan: SignPlan,
  own: OwnAccounts,
): void {
  const { chainId, method, params } = page
  // A plan that signs nothing (the service could not prepare the UserOperation: its bundler is down)
  // has nothing to check; Approve then hears the service's reason.
  if (plan.length === 0) return
  switch (method) {
    case 'personal_sign': {
      const message = personalMessage(read(z.tuple([z.string(), z.string()]), params))
      const request = only(plan)
      if (request.kind === 'evm-message' && request.message.toLowerCase() === message) return
      if (
        request.kind === 'evm-account-message' &&
        request.message.toLowerCase() === message &&
        request.chainId === evmChainOf(chainId) &&
        ownSmart(own, request.account)
      )
        return
      throw requestChanged('another message')
    }
    case 'eth_signTypedData_v4': {
      const [, raw] = read(z.tuple([z.string(), z.unknown()]), params)
      const asked = canonical(typedDataOf(raw))
      const request = only(plan)
      if (request.kind === 'evm-typed-data' && canonical(typedDataOf(request.typedData)) === asked) return
      if (
        request.kind === 'evm-account-typed-data' &&
        canonical(typedDataOf(request.typedData)) === asked &&
        request.chainId === evmChainOf(chainId) &&
        ownSmart(own, request.account)
      )
        return
      throw requestChanged('other typed data')
    }
    case 'eth_sendTransaction': {
      const [tx] = read(z.tuple([callShape]), params)
      checkCalls(chainId, [askedCall(tx)], plan, own, [
        { gas: tx.gas, fee: tx.gasPrice ?? tx.maxFeePerGas, priority: tx.maxPriorityFeePerGas },
      ])
      return
    }
    case 'wallet_sendCalls': {
      const [batch] = read(
        z.tuple([z.object({ chainId: z.optional(quantity), calls: z.array(callShape) })]),
        params,
      )
      if (batch.chainId !== undefined && Number(batch.chainId) !== evmChainOf(chainId))
        throw requestChanged('another chain')
      checkCalls(chainId, batch.calls.map(askedCall), plan, own)
      return
    }
    case 'eth_sendUserOperation': {
      const [operation] = read(
        z.tuple([z.looseObject({ sender: addressText, callData: hexData })], z.unknown()),
        params,
      )
      const request = only(plan)
      if (request.kind !== 'evm-user-operation') throw requestChanged('not a UserOperation')
      if (request.chainId !== evmChainOf(chainId)) throw requestChanged('another chain')
      if (!isAddressEqual(request.entryPoint as Address, entryPoint08Address))
        throw requestChanged('another EntryPoint')
      const signed = request.userOperation
      if (
        !isAddressEqual(signed.sender as Address, operation.sender as Address) ||
        !ownSmart(own, signed.sender)
      )
        throw requestChanged('another account')
      if (signed.callData.toLowerCase() !== operation.callData.toLowerCase())
        throw requestChanged('other calls')
      // Every quantity the page chose itself is the one signed.
      for (const field of [
        'nonce',
        'callGasLimit',
        'verificationGasLimit',
        'preVerificationGas',
        'maxFeePerGas',
        'maxPriorityFeePerGas',
      ] as const) {
        const asked = (operation as Record<string, unknown>)[field]
        if (typeof asked === 'string' && isHex(asked) && BigInt(asked) !== BigInt(signed[field]))
          throw requestChanged(`another ${field}`)
      }
      return
    }
    case 'wallet_grantPermissions':
    case 'wallet_requestExecutionPermissions':
    case 'wallet_revokePermissions':
      // Checked against the page's request by the permission steps (permissions.ts).
      return
    case 'solana_signMessage': {
      const { message } = read(z.object({ message: z.string() }), params)
      const bytes = decodeBase58(message)
      const request = only(plan)
      if (!bytes || request.kind !== 'solana-message' || request.message !== toBase64(bytes))
        throw requestChanged('another message')
      return
    }
    case 'solana_signTransaction':
    case 'solana_signAndSendTransaction': {
      const { transaction } = read(solanaTransactionParams, params)
      const request = only(plan)
      if (request.kind !== 'solana-transaction' || request.message !== solanaMessageOf(transaction))
        throw requestChanged('another transaction')
      return
    }
    case 'signMessage': {
      const asked = read(
        z.object({
          account: bitcoinAccount,
          message: z.string(),
          protocol: z.optional(z.enum(['ecdsa', 'bip322'])),
        }),
        params,
      )
      const { network } = bitcoinKeyOf(own, chainId)
      const request = only(plan)
      if (
        request.kind !== 'bip122-message' ||
        request.key !== network.key ||
        request.protocol !== (asked.protocol ?? 'ecdsa') ||
        request.message !== toBase64(new TextEncoder().encode(asked.message))
      )
        throw requestChanged('another message')
      return
    }
    case 'signPsbt': {
      const asked = read(
        z.object({
          psbt: z.string(),
          signInputs: z.optional(z.array(z.object({ index: z.number() }))),
        }),
        params,
      )
      const { network } = bitcoinKeyOf(own, chainId)
      const request = only(plan)
      if (request.kind !== 'bip122-psbt' || request.key !== network.key || request.psbt !== asked.psbt)
        throw requestChanged('another PSBT')
      const allowed = asked.signInputs?.map((input) => input.index)
      if (allowed && request.inputs.some((index) => !allowed.includes(index)))
        throw requestChanged('inputs the page did not ask signed')
      return
    }
    case 'sendTransfer': {
      const asked = read(z.object({ recipientAddress: z.string(), amount: z.string() }), params)
      const { network, address, publicKey } = bitcoinKeyOf(own, chainId)
      const request = only(plan)
      if (request.kind !== 'bip122-psbt' || request.key !== network.key) throw requestChanged('another PSBT')
      let psbt: ReturnType<typeof previewPsbt>
      try {
        psbt = previewPsbt(request.psbt, publicKey, network)
      } catch {
        throw requestChanged('a PSBT that cannot be read')
      }
      // The service chooses the coins (the person's own) and the change (back to the person): one
      // output pays the recipient the amount, every other goes back to the person's address or is a memo.
      if (psbt.inputs.some((input) => !input.own)) throw requestChanged('coins that are not the person’s')
      const paid = psbt.outputs.filter(
        (output) => output.address === asked.recipientAddress && output.amount === asked.amount,
      )
      const others = psbt.outputs.filter((output) => !paid.includes(output))
      if (
        paid.length !== 1 ||
        others.some(
          (output) =>
            !(output.own || output.address === address) &&
            !(output.amount === '0' && output.address.startsWith('script:6a')),
        )
      )
        throw requestChanged('another recipient or amount')
      return
    }
  }
  throw requestChanged('a method the frame does not sign')
}

/** Whether a page's `from` (or signer) is one of the person's own accounts. */
export const ownsAddress = isOwn
