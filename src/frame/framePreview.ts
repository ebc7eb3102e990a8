/**
 * The preview the person reads, built in the frame from exactly what it will sign (the plan, once
 * checked against the page's request: pageRequest.ts). The service's own preview lends only words the
 * frame cannot read from the bytes: the network's name and currency (for the network the page asked),
 * and the fee's value in dollars when its fee is the one the frame computed. Token symbols and decimals
 * are read from the token contracts through the service's RPC, as any wallet reads them from its node.
 */
import { type Hex, hexToBytes } from 'viem'
import type * as z from 'zod/mini'
import { fromBase64 } from '../protocol/base64.ts'
import { approvalsInCall, approvalsInTypedData, type NamedApproval } from '../protocol/embedded/approvals.ts'
import { bitcoinAccountOf, bitcoinNetworkOf } from '../protocol/embedded/bitcoin.ts'
import { previewPsbt } from '../protocol/embedded/bitcoinSigner.ts'
import type { ApprovalMethod } from '../protocol/embedded/methods.ts'
import { callsPreview, type PreviewedCall } from '../protocol/embedded/preview/calls.ts'
import {
  type ContractReader,
  decodeEvmCall,
  isErc721,
  readTokenInfo,
} from '../protocol/embedded/preview/evmCalls.ts'
import { messagePreview } from '../protocol/embedded/preview/messages.ts'
import { solanaInstructionsPreview } from '../protocol/embedded/preview/solanaInstructions.ts'
import { TypedDataRefusedError, typedDataRows } from '../protocol/embedded/preview/typedData.ts'
import type { ApprovalPreview, PreviewApproval } from '../protocol/embedded/preview.ts'
import type { SignPlan, SignRequest, signUserOperationShape } from '../protocol/embedded/signing.ts'
import { walletAccountCalls } from '../protocol/embedded/signingRules.ts'
import { readSolanaTransactionMessage } from '../protocol/embedded/solanaWire.ts'
import { FrameFailure } from './failure.ts'
import { type OwnAccounts, requestChanged } from './pageRequest.ts'

type UserOperation = z.infer<typeof signUserOperationShape>

/**
 * The most a UserOperation can cost its account: every gas limit at the highest fee per gas; nothing
 * when a paymaster pays.
 */
export function userOperationMaxCost(op: UserOperation): bigint {
  const gas =
    BigInt(op.callGasLimit) +
    BigInt(op.verificationGasLimit) +
    BigInt(op.preVerificationGas) +
    BigInt(op.paymasterVerificationGasLimit ?? 0) +
    BigInt(op.paymasterPostOpGasLimit ?? 0)
  return gas * BigInt(op.maxFeePerGas)
}

/** The most an EOA transaction can cost in fees: its gas at its highest fee per gas. */
const transactionMaxFee = (request: Extract<SignRequest, { kind: 'evm-transaction' }>) =>
  BigInt(request.transaction.gas) *
  BigInt(
    request.transaction.type === 'legacy' ? request.transaction.gasPrice : request.transaction.maxFeePerGas,
  )

/**
 * An approval as the preview names it, with its token's symbol and decimals read from the chain. An
 * `approve` of a contract that has no decimals and says it is ERC-721 gives one token (its id), any
 * other an amount of an ERC-20.
 */
async function namedApproval(
  read: ContractReader,
  approval: NamedApproval,
  call?: number,
): Promise<PreviewApproval> {
  const { amount, unlimited, increase, all, expiration, deadline, owner, canonicalPermit2 } = approval
  const info = await readTokenInfo(read, approval.token)
  const nft =
    approval.name === 'approve' &&
    approval.standard.includes('ERC-721') &&
    info.decimals === undefined &&
    (await isErc721(read, approval.token))
  const standard =
    approval.name === 'approve' && approval.standard.includes('ERC-721')
      ? nft
        ? 'ERC-721'
        : 'ERC-20'
      : approval.standard
  return {
    standard,
    name: approval.name,
    token: approval.token,
    ...(info.symbol === undefined ? {} : { symbol: info.symbol }),
    ...(info.decimals === undefined ? {} : { decimals: info.decimals }),
    spender: approval.spender,
    ...(owner === undefined ? {} : { owner }),
    ...(nft
      ? { tokenId: (amount ?? 0n).toString() }
      : {
          ...(amount === undefined ? {} : { amount: amount.toString() }),
          ...(unlimited ? { unlimited: true } : {}),
        }),
    ...(increase ? { increase: true } : {}),
    ...(all ? { all: true } : {}),
    ...(expiration === undefined ? {} : { expiration }),
    ...(deadline === undefined ? {} : { deadline }),
    ...(canonicalPermit2 === undefined ? {} : { canonicalPermit2 }),
    ...(call === undefined ? {} : { call }),
    via: approval.via,
  }
}

/**
 * The calls' rows and the approvals they hold, wherever they hide (a token's `multicall`, Multicall3,
 * the smart account's `executeBatch`): an approval is named, and a call's data is warned of as
 * unreadable only when some call inside it is neither an approval, a wrapper, nor a call the decoder
 * reads. A call that is itself an approval is shown once, as the approval.
 */
async function callsWithApprovals(
  read: ContractReader,
  calls: readonly PreviewedCall[],
): Promise<Pick<ApprovalPreview, 'transfers' | 'approvals'>> {
  const transfers = await callsPreview(read, calls)
  const approvals: PreviewApproval[] = []
  for (const [index, call] of calls.entries()) {
    if (!call.to || !call.data) continue
    const found = approvalsInCall({ to: call.to as `0x${string}`, data: call.data as Hex })
    const row = transfers[index]
    if (!row || (found.approvals.length === 0 && found.unread.length <= 1)) continue
    for (const approval of found.approvals) approvals.push(await namedApproval(read, approval, index))
    const readable = await Promise.all(
      found.unread.map(async (inner) => (await decodeEvmCall(read, inner.to, inner.data)) !== undefined),
    )
    row.unreadable = readable.includes(false)
    if (found.approvals.some((approval) => approval.via.length === 0)) delete row.action
  }
  return { transfers, ...(approvals.length ? { approvals } : {}) }
}

/** The approvals typed data gives (EIP-2612 and DAI permits, Permit2's), named like a call's. */
async function typedDataApprovals(
  read: ContractReader,
  typedData: Parameters<typeof approvalsInTypedData>[0],
): Promise<Pick<ApprovalPreview, 'approvals'>> {
  const found = approvalsInTypedData(typedData)
  if (found.length === 0) return {}
  return { approvals: await Promise.all(found.map((approval) => namedApproval(read, approval))) }
}

/** Typed data the frame cannot show whole is never signed: the service's own words for why. */
function typedDataPreview(
  typedData: Parameters<typeof typedDataRows>[0],
  chainId: number,
  own: OwnAccounts,
): ApprovalPreview['typedData'] {
  try {
    return typedDataRows(typedData, { chainId, ownAccounts: own.smartAccounts })
  } catch (error) {
    if (error instanceof TypedDataRefusedError)
      throw new FrameFailure({ message: error.message, code: error.reserved ? 4100 : -32602 })
    throw error
  }
}

/** The parts of the preview an EVM plan describes: who signs, the message, typed data or calls, the fee. */
async function evmParts(
  plan: SignPlan,
  chainId: string,
  own: OwnAccounts,
  read: ContractReader,
): Promise<Omit<ApprovalPreview, 'method' | 'network'>> {
  const chain = Number(chainId.split(':')[1])
  const [first] = plan
  switch (first?.kind) {
    case 'evm-message':
      return { from: own.evm, message: messagePreview(hexToBytes(first.message as Hex)) }
    case 'evm-account-message':
      return { from: first.account, message: messagePreview(hexToBytes(first.message as Hex)) }
    case 'evm-typed-data':
      return {
        from: own.evm,
        typedData: typedDataPreview(first.typedData, chain, own),
        ...(await typedDataApprovals(read, first.typedData)),
      }
    case 'evm-account-typed-data':
      return {
        from: first.account,
        typedData: typedDataPreview(first.typedData, chain, own),
        ...(await typedDataApprovals(read, first.typedData)),
      }
    case 'evm-user-operation': {
      const op = first.userOperation
      const calls: PreviewedCall[] = walletAccountCalls(op.callData as Hex) ?? [
        { to: op.sender, value: 0n, data: op.callData },
      ]
      return {
        from: op.sender,
        ...(await callsWithApprovals(read, calls)),
        ...(op.paymaster ? { sponsored: true as const } : { fee: userOperationMaxCost(op).toString() }),
      }
    }
    case 'evm-transaction': {
      const transactions = plan.filter(
        (request): request is Extract<SignRequest, { kind: 'evm-transaction' }> =>
          request.kind === 'evm-transaction',
      )
      return {
        from: own.evm,
        ...(await callsWithApprovals(
          read,
          transactions.map(({ transaction }) => ({
            to: transaction.to,
            value: BigInt(transaction.value),
            data: transaction.data,
          })),
        )),
        fee: transactions.reduce((sum, request) => sum + transactionMaxFee(request), 0n).toString(),
      }
    }
  }
  throw requestChanged('nothing the frame can show')
}

/**
 * The approval's preview, from the plan the frame will sign (already checked against the page's
 * request) and the page's own request; `served` is the service's preview, whose network and fee value
 * are used only where they agree with the request and the plan.
 *
 * @example
 * const preview = await framePreview({ chainId, method }, created.signing.plan, created.preview, own, read)
 */
export async function framePreview(
  page: { chainId: string; method: ApprovalMethod },
  plan: SignPlan,
  served: ApprovalPreview,
  own: OwnAccounts,
  read: ContractReader,
): Promise<ApprovalPreview> {
  if (served.network.caipNetworkId !== page.chainId) throw requestChanged('another network')
  const head = { method: page.method, network: served.network }
  // Nothing will be signed (the service could not prepare the plan): its description is all there is,
  // and Approve answers its reason.
  if (plan.length === 0) return { ...served, method: page.method }
  const [first] = plan
  let parts: Omit<ApprovalPreview, 'method' | 'network'>
  if (first?.kind === 'solana-message')
    parts = { from: own.solana, message: messagePreview(fromBase64(first.message)) }
  else if (first?.kind === 'solana-transaction') {
    const message = readSolanaTransactionMessage(fromBase64(first.message))
    // The network fee of a Solana transaction is the network's answer (the service's estimate).
    parts = {
      from: own.solana,
      ...solanaInstructionsPreview(message),
      ...(served.fee === undefined ? {} : { fee: served.fee }),
    }
  } else if (first?.kind === 'bip122-message' || first?.kind === 'bip122-psbt') {
    const network = bitcoinNetworkOf(page.chainId)
    const account = own.bitcoin && bitcoinAccountOf(own.bitcoin, page.chainId)
    if (!network || !account) throw requestChanged('not this wallet’s Bitcoin network')
    if (first.kind === 'bip122-message')
      parts = { from: account.address, message: messagePreview(fromBase64(first.message)) }
    else {
      const read = previewPsbt(first.psbt, hexToBytes(`0x${account.publicKey}`), network)
      parts = {
        from: account.address,
        bitcoin: { inputs: read.inputs, outputs: read.outputs },
        fee: read.fee,
      }
    }
  } else parts = await evmParts(plan, page.chainId, own, read)
  // The dollar value is the service's; kept only for the very fee the frame shows.
  const feeUsd =
    parts.fee !== undefined && served.fee === parts.fee && served.feeUsd !== undefined
      ? { feeUsd: served.feeUsd }
      : {}
  return { ...head, ...parts, ...feeUsd }
}
