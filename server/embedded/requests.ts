/**
 * The embedded wallet's requests (SPEC 6): their lifecycle. Reads go to the RPC upstream; the wallet's own
 * methods (call status, capabilities, assets) are answered here; signing is two steps: the frame stores
 * the request and gets its preview in plain words with the exact signatures to make (the plan), the
 * person approves it in the frame, which signs the plan with the person's keys (the service
 * holds no key); the service checks each signature against what it stored and relays. Each method is its own file in
 * `methods/` (its params, preview and execute), found through a table by its name. Anything else is
 * refused with `Requested RPC call is not allowed`.
 */
import { and, eq, gt, inArray } from 'drizzle-orm'
import type {
  AccountTypeResponse,
  ApprovalPreview,
  ApprovalResponse,
  SigningPlanResponse,
  WalletRpcRequest,
} from '../../src/protocol/embedded/index.ts'
import { classifyRequest, embeddedLimits } from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletRequests } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import { createCallBatches } from './callBatches.ts'
import type { Custody } from './custody.ts'
import { actionNotAllowed, EmbeddedError, notAvailable, requestRefused } from './errors.ts'
import type { WalletSession } from './login.ts'
import type { ContextParts } from './methods/context.ts'
import { afterNonces, numberedFrom, pendingNonce, planNonces } from './methods/evmTransactions.ts'
import {
  answerWalletMethod,
  approvalHandlers,
  createMethodContexts,
  executeSignedRequest,
  previewRequest,
} from './methods/index.ts'
import { invalidParams } from './methods/params.ts'
import { checkPlan, isFinal, planOf } from './methods/plan.ts'
import type { EmbeddedNetwork } from './networks.ts'
import { createPermissionIndex } from './permissionIndex.ts'
import { feeInUsd, type NativeUsdPrice } from './preview/fiat.ts'
import { newId } from './secrets.ts'
import { type SmartAccounts, smartAccountsUnsupportedMessage } from './smartAccounts.ts'
import type { Upstream } from './upstream.ts'

export { transactionAsMessageMessage } from './methods/solanaSignMessage.ts'

interface RequestDependencies {
  db: Db
  custody: Custody
  upstream: Upstream
  networks: ReadonlyMap<string, EmbeddedNetwork>
  /** Smart accounts on the networks with a bundler. */
  smart: SmartAccounts
  /** `PAYMASTER_PUBLIC_URL` (the service's paymaster route, for `wallet_sendCalls`' `paymasterService`). */
  paymasterPublicUrl: string
  /** The native currency's USD price, for the fee's value in the preview; none: the fee alone. */
  nativeUsdPrice?: NativeUsdPrice
  /** The person's Bitcoin keys and the bip122 networks' nodes. */
  bitcoin?: ContextParts['bitcoin']
  now?: () => number
  logger?: ServiceLogger
}

/**
 * The request service.
 *
 * @example
 * const requests = createRequestService({ db, custody, upstream, networks })
 * const { id, preview, signing } = await requests.create(session, { chainId, method: 'personal_sign', params })
 * const result = await requests.approve(session, id, signaturesOf(signing.plan))
 */
export function createRequestService(deps: RequestDependencies) {
  const { db, upstream, networks, smart } = deps
  const now = deps.now ?? Date.now

  /**
   * The EVM nonces of the person's requests on a network that still wait for an answer or a relay
   * (`final`: only those whose final plan was handed out; `except`: leaving one request out).
   */
  async function waitingNonces(
    userId: string,
    chainId: string,
    only: { final?: boolean; except?: string } = {},
  ): Promise<number[]> {
    const rows = await db
      .select({ id: walletRequests.id, prepared: walletRequests.prepared })
      .from(walletRequests)
      .where(
        and(
          eq(walletRequests.userId, userId),
          eq(walletRequests.chainId, chainId),
          inArray(walletRequests.status, ['pending', 'approved']),
          gt(walletRequests.expiresAt, new Date(now())),
        ),
      )
    return rows
      .filter((row) => row.id !== only.except && (!only.final || isFinal(row.prepared)))
      .flatMap((row) => planNonces(planOf(row.prepared)))
  }

  /** The request `id` of this session, still waiting for the person's answer at `time`. */
  const stillWaiting = (session: WalletSession, id: string, time: Date) =>
    and(
      eq(walletRequests.id, id),
      eq(walletRequests.userId, session.userId),
      eq(walletRequests.sessionId, session.id),
      eq(walletRequests.status, 'pending'),
      gt(walletRequests.expiresAt, time),
    )

  /** A request of this session still waiting for the person's answer, or `Action not allowed`. */
  async function waitingRequest(session: WalletSession, id: string) {
    const [row] = await db
      .select()
      .from(walletRequests)
      .where(stillWaiting(session, id, new Date(now())))
    if (!row) throw actionNotAllowed()
    return row
  }

  const contexts = createMethodContexts({
    custody: deps.custody,
    upstream,
    smart,
    networks,
    batches: createCallBatches(db, now),
    permissions: createPermissionIndex(db),
    now,
    paymasterPublicUrl: deps.paymasterPublicUrl,
    ...(deps.bitcoin ? { bitcoin: deps.bitcoin } : {}),
  })

  return {
    /** The networks the wallet serves. */
    networks: () => [...networks.values()],

    /** `POST /rpc`: a read, or one of the wallet's own methods. */
    async rpc(session: WalletSession, request: WalletRpcRequest): Promise<unknown> {
      contexts.network(request.chainId)
      const namespace = request.chainId.split(':')[0] ?? ''
      const kind = classifyRequest(namespace, request.method)
      if (kind === 'read') return upstream.call(request.chainId, request.method, request.params ?? [])
      if (kind === 'notAvailable') throw notAvailable()
      if (kind !== 'wallet') throw requestRefused(request.method)
      const ctx = await contexts.forRequest(session.userId, request.chainId, session.projectId)
      return answerWalletMethod(ctx, request.method, request.params)
    },

    /**
     * `POST /account-type`: sets the preferred account type when given (a smart account needs a network
     * with a bundler: SPEC 4's fallback to the EOA otherwise), and answers the account `chainId` uses.
     */
    async accountType(
      session: WalletSession,
      body: {
        chainId: string
        type?: 'eoa' | 'smartAccount' | undefined
        preview?: 'eoa' | 'smartAccount' | undefined
      },
    ): Promise<AccountTypeResponse> {
      const network = contexts.network(body.chainId)
      if (!network.caipNetworkId.startsWith('eip155:'))
        throw invalidParams('Account types are for EVM networks')
      if ((body.type === 'smartAccount' || body.preview === 'smartAccount') && !smart.supports(body.chainId))
        throw new EmbeddedError(400, 'NOT_AVAILABLE', smartAccountsUnsupportedMessage, { field: 'chainId' })
      if (body.type) await smart.setPreference(session.userId, body.type)
      const preferredAccountType = await smart.preference(session.userId)
      const ctx = await contexts.forRequest(session.userId, body.chainId, session.projectId)
      const evm = await ctx.evmAccount()
      // What a switch would use, for the frame's approval view: never set here.
      const preview =
        body.preview === undefined
          ? undefined
          : body.preview === 'smartAccount'
            ? { address: await smart.address(session.userId, body.chainId), type: body.preview }
            : { address: ctx.own.evm, type: body.preview }
      return {
        ...(preview ? { preview } : {}),
        preferredAccountType,
        account: evm.smart
          ? {
              address: evm.address,
              type: 'smartAccount',
              smartAccountDeployed: await smart.deployed(body.chainId, evm.address),
            }
          : { address: evm.address, type: 'eoa' },
      }
    },

    /**
     * `POST /requests`: stores a signing request and answers its preview and its plan; a plan the signing
     * rules refuse is refused here, before the person is asked.
     */
    async create(session: WalletSession, request: WalletRpcRequest): Promise<ApprovalResponse> {
      const namespace = request.chainId.split(':')[0] ?? ''
      const kind = classifyRequest(namespace, request.method)
      if (kind === 'notAvailable') throw notAvailable()
      if (kind !== 'approval') throw requestRefused(request.method)
      const ctx = await contexts.forRequest(session.userId, request.chainId, session.projectId)
      const built = await previewRequest(ctx, request.method, request.params)
      const plan = afterNonces(planOf(built.prepared), await waitingNonces(session.userId, request.chainId))
      const prepared = built.prepared === null ? null : { ...(built.prepared as object), plan }
      const ownAccounts = await ctx.ownSmartAccounts()
      checkPlan(approvalHandlers[request.method as keyof typeof approvalHandlers].method, plan, ownAccounts)
      const shown = { method: request.method, network: ctx.network, ...built.shown } as ApprovalPreview
      // The fee's value in USD where a price is known (so the fee's size reads at a glance), from the
      // Account view's source.
      const feeUsd =
        shown.fee === undefined || !deps.nativeUsdPrice
          ? undefined
          : feeInUsd(BigInt(shown.fee), shown.network.decimals, await deps.nativeUsdPrice(request.chainId))
      const id = newId()
      const time = now()
      await db.insert(walletRequests).values({
        id,
        userId: session.userId,
        sessionId: session.id,
        chainId: request.chainId,
        method: request.method,
        params: request.params ?? null,
        // What the method prepared (gas and fees, the account that signs), kept as JSON for execute.
        prepared: prepared as Record<string, unknown> | null,
        createdAt: new Date(time),
        expiresAt: new Date(time + embeddedLimits.approvalTtlMs),
      })
      return {
        id,
        preview: feeUsd === undefined ? shown : { ...shown, feeUsd },
        signing: { plan, ownAccounts },
      }
    },

    /**
     * `POST /requests/:id/plan`: the plan to sign now that the person clicked Approve. A plan with EOA
     * transactions is numbered again from the first nonce free now (the chain's pending nonce, after
     * the final plans of the person's other waiting requests), so a request asked after one that was
     * rejected or expired takes the nonce it left; nothing else changes (the frame checks that). The
     * plan handed out last is the one approve checks the signatures against.
     */
    async finalPlan(session: WalletSession, id: string): Promise<SigningPlanResponse> {
      const row = await waitingRequest(session, id)
      const ctx = await contexts.forRequest(session.userId, row.chainId, session.projectId)
      const ownAccounts = await ctx.ownSmartAccounts()
      const stored = planOf(row.prepared)
      if (planNonces(stored).length === 0) return { plan: stored, ownAccounts }
      const taken = await waitingNonces(session.userId, row.chainId, { final: true, except: id })
      const first = Math.max(await pendingNonce(ctx, ctx.own.evm), ...taken.map((nonce) => nonce + 1))
      const plan = numberedFrom(stored, first)
      const [updated] = await db
        .update(walletRequests)
        .set({ prepared: { ...(row.prepared as object), plan, final: true } })
        .where(and(eq(walletRequests.id, id), eq(walletRequests.status, 'pending')))
        .returning({ id: walletRequests.id })
      if (!updated) throw actionNotAllowed()
      return { plan, ownAccounts }
    },

    /**
     * `POST /requests/:id/approve`: the person approved in the frame, which signed the plan; each
     * signature is checked against the stored plan, then relayed.
     */
    async approve(session: WalletSession, id: string, signatures: readonly string[]): Promise<unknown> {
      const time = new Date(now())
      const [row] = await db
        .update(walletRequests)
        .set({ status: 'approved', decidedAt: time })
        .where(stillWaiting(session, id, time))
        .returning()
      if (!row) throw actionNotAllowed()
      try {
        const ctx = await contexts.forRequest(session.userId, row.chainId, session.projectId)
        const result = await executeSignedRequest(ctx, row.method, row.params, row.prepared, signatures)
        await db.update(walletRequests).set({ status: 'done' }).where(eq(walletRequests.id, id))
        deps.logger?.info({ method: row.method, chainId: row.chainId }, 'Embedded wallet relayed')
        return result
      } catch (error) {
        await db.update(walletRequests).set({ status: 'failed' }).where(eq(walletRequests.id, id))
        throw error
      }
    },

    /** `POST /requests/:id/reject`. */
    async reject(session: WalletSession, id: string): Promise<void> {
      await db
        .update(walletRequests)
        .set({ status: 'rejected', decidedAt: new Date(now()) })
        .where(
          and(
            eq(walletRequests.id, id),
            eq(walletRequests.userId, session.userId),
            eq(walletRequests.status, 'pending'),
          ),
        )
    },
  }
}

export type RequestService = ReturnType<typeof createRequestService>
