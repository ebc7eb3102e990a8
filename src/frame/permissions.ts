// Permissions in the frame (ERC-7715): the session key made and kept here, grants and revocations checked before the owner signs, and a permission's calls signed without a prompt.
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { type Address, encodeFunctionData, getAddress, type Hex, isAddressEqual } from 'viem'
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { ApprovalPreview, ApprovalResponse } from '../protocol/embedded/index.ts'
import { approvalResponse, walletRpcResponse } from '../protocol/embedded/index.ts'
import {
  type GrantMethod,
  grantOfRequest,
  permissionsPreviewOf,
  policyOfGrant,
  readPermissionRequest,
  revokedKey,
  type SessionGrant,
  sessionOfCalls,
} from '../protocol/embedded/permissions.ts'
import { evmAddressOf, evmDigestOf, signHash } from '../protocol/embedded/signer.ts'
import type { SignRequest } from '../protocol/embedded/signing.ts'
import {
  encodeSessionCalls,
  encodeWalletAccountCalls,
  walletAccountSessionAbi,
} from '../protocol/embedded/walletAccountSessions.ts'
import { CallListSchema } from '../protocol/rules.ts'
import { FrameFailure } from './failure.ts'
import type { SessionKeyStore } from './keys/sessionKeys.ts'
import type { FrameSession } from './session.ts'
import type { FrameWalletDependencies } from './walletTypes.ts'

/** A request of the page, as the frame sends it to the service. */
export interface PageRequest {
  chainId: CaipNetworkId
  method: string
  params?: unknown
}

/** What the frame does around one permission request: the body it sends, its checks, its key. */
export interface PermissionSteps {
  body: PageRequest
  /** Checks the plan against the page's request and answers the preview to show (drawn from the request). */
  check(created: ApprovalResponse): ApprovalPreview
  /** At Approve, before the owner signs: the key is kept (a grant). */
  keep(): Promise<void>
  /** The request ended: forgets what it made when it failed, or the key when a revocation landed. */
  settle(succeeded: boolean): Promise<void>
}

const invalid = (message: string) => new FrameFailure({ message, code: -32602 })
const unauthorized = (message: string) => new FrameFailure({ message, code: 4100 })

/** The words of a plan that is not what the page asked: nothing is signed. */
export const permissionPlanMessage = 'The service answered a plan that is not this permission request'

/** The one UserOperation of a plan, from `account` (one of the person's own), or the refusal. */
function onlyOperation(created: ApprovalResponse, account?: Address) {
  const [request, ...more] = created.signing.plan as SignRequest[]
  if (!request || more.length > 0 || request.kind !== 'evm-user-operation')
    throw invalid(permissionPlanMessage)
  const sender = getAddress(request.userOperation.sender)
  const own = created.signing.ownAccounts.some((mine) => isAddressEqual(mine as Address, sender))
  if (!own || (account && !isAddressEqual(account, sender))) throw invalid(permissionPlanMessage)
  return { request, sender }
}

const sameHex = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** The token names the service read, by lower-case address (only names: the amounts are the frame's). */
const namesOf = (preview: ApprovalPreview) =>
  Object.fromEntries(
    (preview.permissions?.tokens ?? []).map((token) => [
      token.address.toLowerCase(),
      { symbol: token.symbol, decimals: token.decimals },
    ]),
  )

/**
 * The frame's side of permissions.
 *
 * @example
 * const permissions = createFramePermissions(session, deps, keys)
 * const steps = permissions.grant('wallet_grantPermissions', body)
 */
export function createFramePermissions(
  session: Pick<FrameSession, 'keys' | 'withSession'>,
  deps: Pick<FrameWalletDependencies, 'api' | 'site'>,
  keys: SessionKeyStore | undefined,
) {
  const store = () => {
    if (!keys)
      throw new FrameFailure({ message: 'This browser blocks the storage a permission needs', code: 4200 })
    return keys
  }
  const userId = () => {
    const id = session.keys?.userId
    if (!id) throw new FrameFailure({ message: 'Action not allowed', code: 'FORBIDDEN' })
    return id
  }
  const nowSeconds = () => Math.floor(Date.now() / 1000)
  const grantOf = (method: GrantMethod, params: unknown): SessionGrant =>
    readPermissionRequest(() => grantOfRequest(method, params, nowSeconds()), invalid)

  /** A grant: a new key made here, named in the request as the wallet's signer; kept at Approve. */
  function grant(method: GrantMethod, body: PageRequest): PermissionSteps {
    const given = Array.isArray(body.params) ? body.params : []
    const secret = secp256k1.utils.randomPrivateKey()
    const key = evmAddressOf(secret)
    // The page's signer is replaced (any it named is refused first): the key is only ever the frame's.
    for (const entry of given) {
      const signer = (entry as { signer?: { type?: unknown } } | null)?.signer
      if (signer !== undefined && signer?.type !== 'wallet')
        throw invalid('This wallet grants permissions to its own session key only (signer type "wallet")')
    }
    const params = given.map((entry) => ({ ...(entry as object), signer: { type: 'wallet', data: { key } } }))
    const asked = grantOf(method, params)
    let kept = false
    let account: Address | undefined
    return {
      body: { ...body, params },
      check(created) {
        const { request, sender } = onlyOperation(created, asked.account)
        const data = encodeFunctionData({
          abi: walletAccountSessionAbi,
          functionName: 'grantSession',
          args: [key, policyOfGrant(asked)],
        })
        const expected = encodeWalletAccountCalls([{ to: sender, value: 0n, data }])
        if (!sameHex(request.userOperation.callData, expected)) throw invalid(permissionPlanMessage)
        account = sender
        return {
          ...created.preview,
          permissions: permissionsPreviewOf(asked, 'grant', namesOf(created.preview)),
        }
      },
      async keep() {
        await store().save(userId(), key, {
          site: deps.site,
          chainId: body.chainId,
          account: account as Address,
          method,
          params,
          secret: secret.slice(),
        })
        kept = true
      },
      async settle(succeeded) {
        secret.fill(0)
        if (!succeeded && kept)
          await store()
            .delete(userId(), key)
            .catch(() => {})
      },
    }
  }

  /** A revocation: the plan must be exactly `revokeSession(key)` of the person's account. */
  function revoke(body: PageRequest): PermissionSteps {
    const key = readPermissionRequest(() => revokedKey(body.params), invalid)
    return {
      body,
      check(created) {
        const { request, sender } = onlyOperation(created)
        const data = encodeFunctionData({
          abi: walletAccountSessionAbi,
          functionName: 'revokeSession',
          args: [key],
        })
        const expected = encodeWalletAccountCalls([{ to: sender, value: 0n, data }])
        if (!sameHex(request.userOperation.callData, expected)) throw invalid(permissionPlanMessage)
        return created.preview
      },
      async keep() {},
      async settle(succeeded) {
        if (succeeded && keys) await keys.delete(userId(), key).catch(() => {})
      },
    }
  }

  /**
   * A permission's calls (`wallet_sendCalls` with `capabilities.permissions.context`): signed here with the
   * session key, without a prompt, once the service's UserOperation is exactly the calls the page asked
   * for, from the account the permission was granted on, for the site that asked for it.
   */
  async function sendWithSession(body: PageRequest): Promise<unknown> {
    const [batch] = (Array.isArray(body.params) ? body.params : []) as {
      calls?: unknown
      capabilities?: Record<string, unknown>
    }[]
    const key = readPermissionRequest(() => sessionOfCalls(batch?.capabilities), invalid)
    const calls = CallListSchema.safeParse(batch?.calls)
    if (!key || !calls.success) throw invalid('Expected wallet_sendCalls with the permissions capability')
    const entry = await store().load(userId(), key)
    if (!entry || entry.site !== deps.site || entry.chainId !== body.chainId) {
      entry?.secret.fill(0)
      throw unauthorized('This site holds no permission of that context here')
    }
    try {
      const created = await session.withSession((current) =>
        deps.api.request('POST', 'requests', approvalResponse, body, current),
      )
      const { request } = onlyOperation(created, getAddress(entry.account))
      // A session op runs through the account's `executeUserOp`, which measures what leaves the account.
      const expected = encodeSessionCalls(
        calls.data.map((call) => ({
          to: getAddress(call.to),
          value: call.value === undefined ? 0n : BigInt(call.value),
          data: (call.data ?? '0x') as Hex,
        })),
      )
      const { factory, callData } = request.userOperation as { factory?: string; callData: string }
      if (!sameHex(callData, expected) || factory) throw invalid(permissionPlanMessage)
      const signature = signHash(evmDigestOf(request), entry.secret)
      const answer = await session.withSession((current) =>
        deps.api.request(
          'POST',
          `requests/${created.id}/approve`,
          walletRpcResponse,
          { signatures: [signature] },
          current,
        ),
      )
      return answer.result
    } finally {
      entry.secret.fill(0)
    }
  }

  return {
    grant,
    revoke,
    sendWithSession,
    /** Whether a request is a permission's calls (sent without a prompt). */
    usesPermission(request: PageRequest): boolean {
      if (request.method !== 'wallet_sendCalls' || !Array.isArray(request.params)) return false
      const capabilities = (request.params[0] as { capabilities?: Record<string, unknown> } | undefined)
        ?.capabilities
      return capabilities?.permissions !== undefined
    },
  }
}

export type FramePermissions = ReturnType<typeof createFramePermissions>
