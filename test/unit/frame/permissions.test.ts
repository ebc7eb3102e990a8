/**
 * The frame's side of permissions (src/frame/permissions.ts), each test written as the attack it stops: a
 * page naming its own key, a service answering a wider grant than the page asked (or showing one), another
 * site using a permission, a service answering other calls than the page's for a session to sign.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseUnits,
  recoverAddress,
  toFunctionSelector,
} from 'viem'
import type { SessionKeyEntry, SessionKeyStore } from '../../../src/frame/keys/sessionKeys.ts'
import {
  createFramePermissions,
  type FramePermissions,
  permissionPlanMessage,
} from '../../../src/frame/permissions.ts'
import type { ApprovalResponse } from '../../../src/protocol/embedded/index.ts'
import {
  grantOfRequest,
  permissionsPreviewOf,
  policyOfGrant,
} from '../../../src/protocol/embedded/permissions.ts'
import { evmDigestOf } from '../../../src/protocol/embedded/signer.ts'
import {
  encodeSessionCalls,
  encodeWalletAccountCalls,
  walletAccountSessionAbi,
} from '../../../src/protocol/embedded/walletAccountSessions.ts'

const SITE = 'https://game.example'
const ACCOUNT: Address = '0x1111111111111111111111111111111111111111'
const USDC: Address = '0x2222222222222222222222222222222222222222'
const ROUTER: Address = '0x3333333333333333333333333333333333333333'
const CHAIN = 'eip155:31337' as const

/** The page's request: 10 USDC a day and the router's swap, for an hour. */
const pageGrant = (extra: Record<string, unknown> = {}) => ({
  chainId: CHAIN,
  method: 'wallet_grantPermissions',
  params: [
    {
      chainId: '0x7a69',
      expiry: Math.floor(Date.now() / 1000) + 3600,
      permissions: [
        {
          type: 'erc20-token-periodic',
          data: { tokenAddress: USDC, periodAmount: '10000000', periodDuration: 86_400 },
        },
        { type: 'contract-call', data: { address: ROUTER, calls: ['swap(uint256)'] } },
      ],
      ...extra,
    },
  ],
})

/** A user operation of the person's account with `callData`, as the service's plan has it. */
const operation = (callData: Hex, extra: Record<string, string> = {}) => ({
  kind: 'evm-user-operation' as const,
  chainId: 31337,
  entryPoint: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
  userOperation: {
    sender: ACCOUNT,
    nonce: '1',
    callData,
    callGasLimit: '100000',
    verificationGasLimit: '100000',
    preVerificationGas: '50000',
    maxFeePerGas: '1000000000',
    maxPriorityFeePerGas: '1000000',
    ...extra,
  },
})

/** The service's answer to a stored request (with any preview and plan a test gives it). */
const answerOf = (plan: unknown[], preview: Record<string, unknown> = {}): ApprovalResponse =>
  ({
    id: 'request-1',
    preview: {
      method: 'wallet_grantPermissions',
      network: { caipNetworkId: CHAIN, name: 'Local', symbol: 'ETH', decimals: 18 },
      from: ACCOUNT,
      ...preview,
    },
    signing: { plan, ownAccounts: [ACCOUNT] },
  }) as ApprovalResponse

/** An in-memory session-key store, and the frame's permissions over a scripted service. */
function frameWith(site: string, service: (path: string, body: unknown) => unknown) {
  const kept = new Map<string, SessionKeyEntry>()
  const keys: SessionKeyStore = {
    async save(userId, key, entry) {
      kept.set(`${userId}:${key.toLowerCase()}`, { ...entry, secret: entry.secret.slice() })
    },
    async load(userId, key) {
      const entry = kept.get(`${userId}:${key.toLowerCase()}`)
      return entry ? { ...entry, secret: entry.secret.slice() } : undefined
    },
    async delete(userId, key) {
      kept.delete(`${userId}:${key.toLowerCase()}`)
    },
  }
  const calls: string[] = []
  const api = {
    async request(_method: string, path: string, _schema: unknown, body: unknown) {
      calls.push(path)
      return service(path, body)
    },
  }
  const session = {
    keys: { userId: 'person-1' },
    withSession: <T>(run: (token: string) => Promise<T>) => run('token'),
  }
  const permissions = createFramePermissions(
    session as never,
    { api, site } as never,
    keys,
  ) as FramePermissions
  return { permissions, keys, kept, calls }
}

/** The exact grant call a plan must hold for `params` (what the frame computes itself). */
function grantCallData(params: unknown, key: Address): Hex {
  const grant = grantOfRequest('wallet_grantPermissions', params, 0)
  const data = encodeFunctionData({
    abi: walletAccountSessionAbi,
    functionName: 'grantSession',
    args: [key, policyOfGrant(grant)],
  })
  return encodeWalletAccountCalls([{ to: ACCOUNT, value: 0n, data }])
}

describe('permissions in the frame', () => {
  it('attack: a page naming its own signer key is refused before the service is asked', () => {
    const { permissions, calls } = frameWith(SITE, () => ({}))
    assert.throws(
      () =>
        permissions.grant(
          'wallet_grantPermissions',
          pageGrant({ signer: { type: 'key', data: { id: ROUTER } } }),
        ),
      { message: /own session key only/ },
    )
    assert.deepEqual(calls, [])
  })

  it('default: the key is the frame’s own; the exact grant shows the page’s limits, whatever the service’s preview says', async () => {
    const { permissions, kept } = frameWith(SITE, () => ({}))
    const steps = permissions.grant('wallet_grantPermissions', pageGrant())
    const [sent] = steps.body.params as [{ signer: { type: string; data: { key: Address } } }]
    assert.equal(sent.signer.type, 'wallet')
    const key = sent.signer.data.key
    // The service claims 1 USDC in its preview; the frame shows what the page asked and it signs.
    const shown = steps.check(
      answerOf([operation(grantCallData(steps.body.params, key))], {
        permissions: {
          ...permissionsPreviewOf(grantOfRequest('wallet_grantPermissions', steps.body.params, 0), 'grant', {
            [USDC.toLowerCase()]: { symbol: 'USDC', decimals: 6 },
          }),
          tokens: [
            { address: USDC, symbol: 'USDC', decimals: 6, amount: '1000000', period: 86_400, total: false },
          ],
        },
      }),
    )
    assert.equal(shown.permissions?.tokens[0]?.amount, '10000000')
    assert.equal(shown.permissions?.tokens[0]?.symbol, 'USDC', 'names come from the service')
    await steps.keep()
    assert.equal(kept.size, 1)
    const [entry] = kept.values()
    assert.equal(entry?.site, SITE)
    await steps.settle(true)
    assert.equal(kept.size, 1, 'kept once the grant landed')
  })

  it('attack: a service answering a wider grant (100 USDC a day) or another key is refused; nothing is kept', async () => {
    const { permissions, kept } = frameWith(SITE, () => ({}))
    const steps = permissions.grant('wallet_grantPermissions', pageGrant())
    const [sent] = steps.body.params as [{ signer: { data: { key: Address } } }]
    const wider = pageGrant({}).params.map((entry) => ({
      ...entry,
      signer: sent.signer,
      permissions: [
        {
          type: 'erc20-token-periodic',
          data: { tokenAddress: USDC, periodAmount: '100000000', periodDuration: 86_400 },
        },
        entry.permissions[1],
      ],
    }))
    assert.throws(() => steps.check(answerOf([operation(grantCallData(wider, sent.signer.data.key))])), {
      message: permissionPlanMessage,
    })
    assert.throws(() => steps.check(answerOf([operation(grantCallData(steps.body.params, ROUTER))])), {
      message: permissionPlanMessage,
    })
    // Two operations, or one for another account, are not this grant either.
    const exact = operation(grantCallData(steps.body.params, sent.signer.data.key))
    assert.throws(() => steps.check(answerOf([exact, exact])), { message: permissionPlanMessage })
    assert.throws(
      () => steps.check(answerOf([{ ...exact, userOperation: { ...exact.userOperation, sender: ROUTER } }])),
      { message: permissionPlanMessage },
    )
    await steps.settle(false)
    assert.equal(kept.size, 0)
  })

  /** A frame that holds a granted key for `site`, with the service answering `plan` for the session send. */
  async function withGrantedKey(site: string, plan: (calls: Hex) => unknown[]) {
    let approved: { signatures: string[] } | undefined
    const swap = { to: ROUTER, data: `${toFunctionSelector('swap(uint256)')}${'0'.repeat(63)}1` as Hex }
    const approve = {
      to: USDC,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'approve',
        args: [ROUTER, parseUnits('3', 6)],
      }),
    }
    const frame = frameWith(site, (path, body) => {
      if (path === 'requests')
        return answerOf(plan(encodeSessionCalls([approve, swap])), { method: 'wallet_sendCalls' })
      approved = body as { signatures: string[] }
      return { result: { id: '0xbatch' } }
    })
    const steps = frame.permissions.grant('wallet_grantPermissions', pageGrant())
    const [sent] = steps.body.params as [{ signer: { data: { key: Address } } }]
    steps.check(answerOf([operation(grantCallData(steps.body.params, sent.signer.data.key))]))
    await steps.keep()
    const request = {
      chainId: CHAIN,
      method: 'wallet_sendCalls',
      params: [
        {
          calls: [approve, swap],
          capabilities: { permissions: { context: sent.signer.data.key.toLowerCase() } },
        },
      ],
    }
    return { ...frame, key: sent.signer.data.key, request, approved: () => approved }
  }

  it('default: a permission’s calls are signed with the session key, no prompt, when the plan is exactly them', async () => {
    let operationSigned: ReturnType<typeof operation> | undefined
    const frame = await withGrantedKey(SITE, (callData) => {
      operationSigned = operation(callData)
      return [operationSigned]
    })
    assert.ok(frame.permissions.usesPermission(frame.request))
    assert.deepEqual(await frame.permissions.sendWithSession(frame.request), { id: '0xbatch' })
    const [signature] = frame.approved()?.signatures ?? []
    const signer = await recoverAddress({
      hash: evmDigestOf(operationSigned as never),
      signature: signature as Hex,
    })
    assert.equal(signer, frame.key)
  })

  it('attack: another site using the permission’s context is refused without asking the service', async () => {
    const granted = await withGrantedKey(SITE, (callData) => [operation(callData)])
    // The same browser's frame, answering another site, finds the key but not for that site.
    const other = createFramePermissions(
      {
        keys: { userId: 'person-1' },
        withSession: (run: (token: string) => unknown) => run('token'),
      } as never,
      {
        api: {
          request: async () => {
            throw new Error('the service must not be asked')
          },
        },
        site: 'https://evil.example',
      } as never,
      granted.keys,
    )
    await assert.rejects(other.sendWithSession(granted.request), {
      message: 'This site holds no permission of that context here',
    })
  })

  it('attack: a service answering other calls (a transfer added), a factory or the unmetered form gets no session signature', async () => {
    const stranger: Address = '0x4444444444444444444444444444444444444444'
    const drain = {
      to: USDC,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: 'transfer',
        args: [stranger, parseUnits('10', 6)],
      }),
    }
    for (const plan of [
      () => [operation(encodeSessionCalls([drain]))],
      (callData: Hex) => [operation(callData, { factory: ROUTER, factoryData: '0x' })],
      // The page's own calls, but as the owner's `execute` (not run through the account's measure).
      (callData: Hex) => [operation(`0x${callData.slice(10)}` as Hex)],
    ]) {
      const frame = await withGrantedKey(SITE, plan)
      await assert.rejects(frame.permissions.sendWithSession(frame.request), {
        message: permissionPlanMessage,
      })
      assert.equal(frame.approved(), undefined, 'nothing signed, nothing approved')
    }
  })
})
