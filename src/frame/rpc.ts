// An RPC request of the page in the frame: answered here, forwarded, approved, or refused (SPEC 6).
import { getAddress } from 'viem'
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { ApprovalMethod, ApprovalResponse, SigningPlanResponse } from '../protocol/embedded/index.ts'
import {
  approvalResponse,
  classifyRequest,
  signingPlanResponse,
  walletRpcResponse,
} from '../protocol/embedded/index.ts'
import type { FrameAccounts } from './account.ts'
import { FrameFailure, notAvailable, rpcNotAllowed } from './failure.ts'
import { checkedFinalSigning, hasEoaTransactions } from './finalPlan.ts'
import type { Keyring } from './keyring.ts'
import type { OwnAccounts } from './pageRequest.ts'
import type { FramePermissions, PermissionSteps } from './permissions.ts'
import type { FrameSession } from './session.ts'
import type { FrameWalletDependencies } from './walletTypes.ts'

/**
 * The frame's RPC: wallet methods answered from the session, requests to approve stored on the service
 * and shown in the approval view, the rest forwarded through the service.
 *
 * @example
 * const rpc = createFrameRpc(session, accounts, deps, keyring)
 * await rpc({ chainId: 'eip155:1', method: 'eth_chainId' }) // '0x1'
 */
export function createFrameRpc(
  session: FrameSession,
  accounts: Pick<FrameAccounts, 'frameUserOf'>,
  deps: Pick<FrameWalletDependencies, 'api' | 'approvals'>,
  keyring: Pick<Keyring, 'sign' | 'bitcoinReady' | 'addresses'>,
  permissions: Pick<FramePermissions, 'grant' | 'revoke' | 'sendWithSession' | 'usesPermission'>,
) {
  const { api } = deps

  /** Answered in the frame from the session: the accounts and the network (else undefined: forwarded). */
  async function walletMethod(request: { chainId: CaipNetworkId; method: string; params?: unknown }) {
    const own = await session.currentUser()
    switch (request.method) {
      case 'eth_accounts':
      case 'eth_requestAccounts':
        // The account requests on this network use: the smart account when the person prefers it.
        return [(await accounts.frameUserOf(own, request.chainId)).address]
      case 'solana_getAccounts':
      case 'solana_requestAccounts':
        return [{ pubkey: own.accounts.solana.address }]
      case 'eth_chainId':
        return `0x${Number(session.chainId.split(':')[1]).toString(16)}`
      case 'wallet_switchEthereumChain': {
        const [{ chainId: hex } = { chainId: '' }] = (request.params ?? []) as { chainId: string }[]
        await session.switchNetwork(`eip155:${Number(hex)}`)
        return null
      }
    }
    return undefined
  }

  /**
   * The person's own accounts for checking a plan: the EOA and Solana account of the frame's own keys,
   * the smart accounts the plan names as the key's, and on a Bitcoin network the frame's Bitcoin keys.
   */
  async function ownAccounts(chainId: CaipNetworkId, smartAccounts: readonly string[]): Promise<OwnAccounts> {
    const addresses = await keyring.addresses()
    return {
      evm: getAddress(addresses.eip155),
      smartAccounts: smartAccounts.map((account) => getAddress(account)),
      solana: addresses.solana,
      bitcoin: chainId.startsWith('bip122:') ? await keyring.bitcoinReady() : undefined,
    }
  }

  /** Reads a contract on the request's network (token names for the preview), through the service. */
  const readContract = (chainId: CaipNetworkId) => async (to: string, data: string) => {
    const answer = await session.withSession((current) =>
      api.request(
        'POST',
        'rpc',
        walletRpcResponse,
        { chainId, method: 'eth_call', params: [{ to, data }, 'latest'] },
        current,
      ),
    )
    return answer.result
  }

  /**
   * The plan's check and the preview's decoders (calls, typed data, approvals, Solana instructions,
   * PSBTs): loaded with the first approval, not with the frame every page opens.
   */
  const previewing = () =>
    Promise.all([
      import('./pageRequest.ts'),
      import('./framePreview.ts'),
      import('../protocol/embedded/preview/calls.ts'),
    ])

  /**
   * What to sign once the person approved: the previewed plan, or where it holds EOA transactions the
   * service's final plan (numbered from the nonces free now), refused unless only the nonces moved.
   */
  async function signingAtApprove(created: ApprovalResponse): Promise<SigningPlanResponse> {
    if (!hasEoaTransactions(created.signing.plan)) return created.signing
    const final = await session.withSession((current) =>
      api.request('POST', `requests/${created.id}/plan`, signingPlanResponse, {}, current),
    )
    return checkedFinalSigning(created.signing, final)
  }

  /**
   * Stored on the service and shown for approval; once the person approved (here, or in the approval
   * window), the frame signs the plan as previewed (its final nonces aside), and the service checks
   * and relays the signatures.
   */
  async function approved(
    body: { chainId: CaipNetworkId; method: ApprovalMethod; params?: unknown },
    steps?: PermissionSteps,
  ) {
    const created = await session.withSession((current) =>
      api.request('POST', 'requests', approvalResponse, steps?.body ?? body, current),
    )
    // The plan is checked against the page's request before anything is shown, and the preview is
    // built here from that plan (a permission request's by its own steps).
    let preview = created.preview
    try {
      if (steps) preview = steps.check(created)
      else {
        const [{ checkPlanOfPage }, { framePreview }, { cachedReader }] = await previewing()
        const own = await ownAccounts(body.chainId, created.signing.ownAccounts)
        checkPlanOfPage(body, created.signing.plan, own)
        preview = await framePreview(
          body,
          created.signing.plan,
          created.preview,
          own,
          cachedReader(readContract(body.chainId)),
        )
      }
    } catch (error) {
      await session
        .withSession((current) =>
          api.request('POST', `requests/${created.id}/reject`, undefined, {}, current),
        )
        .catch(() => {})
      throw error
    }
    return deps.approvals
      .show(preview, async () => {
        await steps?.keep()
        const signatures = await keyring.sign(body.method, await signingAtApprove(created))
        const answer = await session.withSession((current) =>
          api.request('POST', `requests/${created.id}/approve`, walletRpcResponse, { signatures }, current),
        )
        return answer.result
      })
      .then(
        async (result) => {
          await steps?.settle(true)
          return result
        },
        async (error: unknown) => {
          await steps?.settle(false)
          throw error
        },
      )
      .catch(async (error: unknown) => {
        // Rejected in the frame (or the app closed its view), or a plan the frame refused to sign: the
        // service forgets the request.
        if (error instanceof FrameFailure && [4001, 'PLAN_CHANGED'].includes(error.payload.code ?? '')) {
          await session
            .withSession((current) =>
              api.request('POST', `requests/${created.id}/reject`, undefined, {}, current),
            )
            .catch(() => {})
        }
        throw error
      })
  }

  return async function rpc(request: {
    chainId: CaipNetworkId
    method: string
    params?: unknown
  }): Promise<unknown> {
    const namespace = request.chainId.split(':')[0] ?? ''
    const kind = classifyRequest(namespace, request.method)
    if (kind === 'refused') throw rpcNotAllowed(request.method)
    if (kind === 'notAvailable') throw notAvailable()
    const body = { chainId: request.chainId, method: request.method, params: request.params }
    // The Bitcoin account: the service learns its public keys before its first request.
    if (namespace === 'bip122') await keyring.bitcoinReady()
    if (kind === 'wallet') {
      const answer = await walletMethod(request)
      if (answer !== undefined) return answer
    }
    // Classified as an approval: one of the approval methods.
    if (kind === 'approval') {
      const method = request.method as ApprovalMethod
      // A permission's calls are signed with its session key here, without a prompt.
      if (permissions.usesPermission(body)) return permissions.sendWithSession(body)
      if (method === 'wallet_grantPermissions' || method === 'wallet_requestExecutionPermissions')
        return approved({ ...body, method }, permissions.grant(method, body))
      if (method === 'wallet_revokePermissions')
        return approved({ ...body, method }, permissions.revoke(body))
      return approved({ ...body, method })
    }
    const answer = await session.withSession((current) =>
      api.request('POST', 'rpc', walletRpcResponse, body, current),
    )
    return answer.result
  }
}
