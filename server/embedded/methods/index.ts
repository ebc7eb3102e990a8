/** The wallet's request methods, one file each, and the tables the request service dispatches through. */
import type { ApprovalMethod, WalletMethod } from '../../../src/protocol/embedded/index.ts'
import { requestRefused } from '../errors.ts'
import { ethAccounts, ethRequestAccounts, solanaGetAccounts, solanaRequestAccounts } from './accounts.ts'
import { getAccountAddresses } from './bitcoinAccounts.ts'
import { bitcoinSendTransfer } from './bitcoinSendTransfer.ts'
import { bitcoinSignMessage } from './bitcoinSignMessage.ts'
import { bitcoinSignPsbt } from './bitcoinSignPsbt.ts'
import { getAssets } from './getAssets.ts'
import { getCallsStatus } from './getCallsStatus.ts'
import { getCapabilities } from './getCapabilities.ts'
import { getGrantedPermissions } from './getGrantedPermissions.ts'
import { paramsOf } from './params.ts'
import { grantPermissions, requestExecutionPermissions, revokePermissions } from './permissions.ts'
import { personalSign } from './personalSign.ts'
import { sendCalls } from './sendCalls.ts'
import { sendTransaction } from './sendTransaction.ts'
import { sendUserOperation } from './sendUserOperation.ts'
import { signTypedData } from './signTypedData.ts'
import { solanaSignAndSendTransaction } from './solanaSignAndSendTransaction.ts'
import { solanaSignMessage } from './solanaSignMessage.ts'
import { solanaSignTransaction } from './solanaSignTransaction.ts'
import type { ApprovalHandler, Built, MethodContext, WalletHandler } from './types.ts'

export { createMethodContexts, type MethodContexts } from './context.ts'
export type { ApprovalHandler, MethodContext, MethodPreview, WalletHandler } from './types.ts'

/** Every approval method of SPEC 6 (`approvalMethods` in the protocol) and its handler. */
export const approvalHandlers: Readonly<Record<ApprovalMethod, ApprovalHandler>> = {
  personal_sign: personalSign,
  eth_signTypedData_v4: signTypedData,
  eth_sendTransaction: sendTransaction,
  wallet_sendCalls: sendCalls,
  eth_sendUserOperation: sendUserOperation,
  wallet_grantPermissions: grantPermissions,
  wallet_requestExecutionPermissions: requestExecutionPermissions,
  wallet_revokePermissions: revokePermissions,
  solana_signMessage: solanaSignMessage,
  solana_signTransaction: solanaSignTransaction,
  solana_signAndSendTransaction: solanaSignAndSendTransaction,
  signMessage: bitcoinSignMessage,
  signPsbt: bitcoinSignPsbt,
  sendTransfer: bitcoinSendTransfer,
}

/**
 * The wallet methods the service answers. `eth_chainId` and `wallet_switchEthereumChain` are the
 * frame's (it knows the network); asked here they are refused like any method without a handler.
 */
export const walletHandlers: Readonly<Partial<Record<WalletMethod, WalletHandler>>> = {
  eth_accounts: ethAccounts,
  eth_requestAccounts: ethRequestAccounts,
  solana_getAccounts: solanaGetAccounts,
  solana_requestAccounts: solanaRequestAccounts,
  wallet_getCallsStatus: getCallsStatus,
  wallet_getCapabilities: getCapabilities,
  wallet_getAssets: getAssets,
  wallet_getGrantedExecutionPermissions: getGrantedPermissions,
  getAccountAddresses,
}

/** A table's handler of a method, or `Requested RPC call is not allowed`. */
function handlerOf<T>(table: Readonly<Partial<Record<string, T>>>, method: string): T {
  const handler = Object.hasOwn(table, method) ? table[method] : undefined
  if (!handler) throw requestRefused(method)
  return handler
}

/**
 * An approval request's preview and what signing it will need, from its method's handler.
 *
 * @example
 * const { shown, prepared } = await previewRequest(ctx, 'personal_sign', [message, address])
 */
export async function previewRequest(
  ctx: MethodContext,
  method: string,
  params: unknown,
): Promise<Built<unknown>> {
  const handler = handlerOf(approvalHandlers, method)
  return handler.preview(ctx, paramsOf(handler.params, params, method))
}

/**
 * Relays a stored, approved request with the signatures of its plan: its params checked again, each
 * signature checked against the request of the plan it stands for (whoever made it).
 *
 * @example
 * const result = await executeSignedRequest(ctx, row.method, row.params, row.prepared, signatures)
 */
export async function executeSignedRequest(
  ctx: MethodContext,
  method: string,
  params: unknown,
  prepared: unknown,
  signatures: readonly string[],
): Promise<unknown> {
  const handler = handlerOf(approvalHandlers, method)
  return handler.execute(ctx, paramsOf(handler.params, params, method), prepared, signatures)
}

/**
 * Answers one of the wallet's own methods (on its namespace only).
 *
 * @example
 * const accounts = await answerWalletMethod(ctx, 'eth_accounts', [])
 */
export async function answerWalletMethod(
  ctx: MethodContext,
  method: string,
  params: unknown,
): Promise<unknown> {
  const handler = handlerOf(walletHandlers, method)
  if (handler.namespace !== undefined && !ctx.chainId.startsWith(`${handler.namespace}:`))
    throw requestRefused(method)
  return handler.answer(ctx, paramsOf(handler.params, params, method))
}
