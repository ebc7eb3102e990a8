// EOA nonces taken at Approve: the final plan, and the frame's check of it.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type Address, createPublicClient, createWalletClient, type Hex, http, parseEther } from 'viem'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { foreignSignatureMessage } from '../../../server/embedded/methods/plan.ts'
import { planChangedMessage } from '../../../src/frame/finalPlan.ts'
import {
  type ApprovalResponse,
  approvalResponse,
  type SigningPlanResponse,
  signingPlanResponse,
} from '../../../src/protocol/embedded/index.ts'
import type { SignRequest } from '../../../src/protocol/embedded/signing.ts'
import { codeIn, frameWallet } from './embedded-helpers.ts'
import { signAndApprove } from './embedded-keys-helpers.ts'
import {
  chain,
  EVM,
  errorOf,
  evmAddress,
  other,
  session,
  startRequestsWallet,
  t,
} from './embedded-requests-helpers.ts'

startRequestsWallet()

const publicClient = () => createPublicClient({ transport: http(chain.url) })

/** Sends `ether` from a funded dev account to `to`, mined. */
async function fund(to: Address, ether: string) {
  const client = createWalletClient({ account: devAccount(0), transport: http(chain.url) })
  await publicClient().waitForTransactionReceipt({
    hash: await client.sendTransaction({ to, value: parseEther(ether), chain: null }),
  })
}

/** Asks the person to send `value` to `to`, as the page would: stored with its preview and plan. */
async function ask(to: Address, value: bigint): Promise<ApprovalResponse> {
  const created = await t.call(
    '/embedded/v1/requests',
    {
      chainId: EVM,
      method: 'eth_sendTransaction',
      params: [{ from: evmAddress(), to, value: `0x${value.toString(16)}` }],
    },
    { token: session.token },
  )
  assert.equal(created.status, 200, JSON.stringify(created.body))
  return approvalResponse.parse(created.body)
}

/** The final plan the frame asks for when the person clicks Approve. */
async function finalPlan(id: string): Promise<SigningPlanResponse> {
  const answer = await t.call(`/embedded/v1/requests/${id}/plan`, {}, { token: session.token })
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  return signingPlanResponse.parse(answer.body)
}

const nonceOf = (plan: readonly SignRequest[]) => {
  const [request] = plan
  assert.ok(request?.kind === 'evm-transaction')
  return request.transaction.nonce
}

const pendingNonce = (address: Address) =>
  publicClient().getTransactionCount({ address, blockTag: 'pending' })

describe('EOA nonces at Approve (the final plan)', () => {
  test('behavior: two sends asked together, the first rejected: the second takes the nonce it left, mines, and the recipient is paid', async () => {
    await fund(evmAddress(), '1')
    const receiver = devAccount(8).address
    const before = await publicClient().getBalance({ address: receiver })
    const free = await pendingNonce(evmAddress())
    const first = await ask(receiver, parseEther('0.1'))
    const second = await ask(receiver, parseEther('0.2'))
    // As previewed, the second comes after the first: rejecting the first leaves a gap.
    assert.equal(nonceOf(second.signing.plan), free + 1)
    const rejected = await t.call(`/embedded/v1/requests/${first.id}/reject`, {}, { token: session.token })
    assert.equal(rejected.status, 204)

    const final = await finalPlan(second.id)
    assert.equal(nonceOf(final.plan), free)
    const answer = await signAndApprove(t, session, { ...second, signing: final })
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const receipt = await publicClient().waitForTransactionReceipt({ hash: answer.body.result as Hex })
    assert.equal(receipt.status, 'success')
    assert.equal(await publicClient().getBalance({ address: receiver }), before + parseEther('0.2'))
    assert.equal(await pendingNonce(evmAddress()), free + 1)
  })

  test('behavior: two final plans handed out before either is relayed get consecutive nonces; both mine', async () => {
    await fund(evmAddress(), '1')
    const receiver = devAccount(9).address
    const before = await publicClient().getBalance({ address: receiver })
    const free = await pendingNonce(evmAddress())
    const requests = [await ask(receiver, parseEther('0.01')), await ask(receiver, parseEther('0.02'))]
    const finals = [await finalPlan(requests[0]?.id ?? ''), await finalPlan(requests[1]?.id ?? '')]
    assert.deepEqual(
      finals.map((final) => nonceOf(final.plan)),
      [free, free + 1],
    )
    for (const [index, created] of requests.entries()) {
      const answer = await signAndApprove(t, session, {
        ...created,
        signing: finals[index] as SigningPlanResponse,
      })
      assert.equal(answer.status, 200, JSON.stringify(answer.body))
      const receipt = await publicClient().waitForTransactionReceipt({ hash: answer.body.result as Hex })
      assert.equal(receipt.status, 'success')
    }
    assert.equal(await publicClient().getBalance({ address: receiver }), before + parseEther('0.03'))
  })

  test('attack: signatures of the plan as previewed, once the final plan was handed out, are refused: the service relays only the plan it handed out last', async () => {
    await fund(evmAddress(), '1')
    const receiver = devAccount(8).address
    const first = await ask(receiver, parseEther('0.1'))
    const second = await ask(receiver, parseEther('0.1'))
    await t.call(`/embedded/v1/requests/${first.id}/reject`, {}, { token: session.token })
    const final = await finalPlan(second.id)
    assert.notEqual(nonceOf(final.plan), nonceOf(second.signing.plan))
    const stale = await signAndApprove(t, session, second)
    assert.equal(stale.status, 403)
    assert.equal(errorOf(stale.body).message, foreignSignatureMessage(0))
  })

  test('error: the final plan of a request already answered, or of another person, is refused: Action not allowed', async () => {
    const created = await ask(devAccount(8).address, 1n)
    const foreign = await t.call(`/embedded/v1/requests/${created.id}/plan`, {}, { token: other.token })
    assert.equal(foreign.status, 403)
    assert.equal(errorOf(foreign.body).message, 'Action not allowed')
    await t.call(`/embedded/v1/requests/${created.id}/reject`, {}, { token: session.token })
    const answered = await t.call(`/embedded/v1/requests/${created.id}/plan`, {}, { token: session.token })
    assert.equal(answered.status, 403)
    assert.equal(errorOf(answered.body).message, 'Action not allowed')
  })
})

describe('the frame’s check of the final plan', () => {
  test('attack: a service that answers a final plan with another recipient, amount or call data: the frame signs nothing, the page hears why, and nothing leaves the account', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 })
    const attacker = devAccount(7).address
    const changes: Record<string, (tx: Record<string, unknown>) => void> = {
      to: (tx) => {
        tx.to = attacker
      },
      value: (tx) => {
        tx.value = parseEther('0.9').toString()
      },
      data: (tx) => {
        tx.data = '0xa9059cbb'
      },
    }
    for (const [field, change] of Object.entries(changes)) {
      const asked: string[] = []
      // Between the frame and the service: the final plan is rewritten on its way to the frame.
      const tampering: typeof fetch = async (input, init) => {
        const url = String(input)
        asked.push(url)
        const answer = await fetch(input, init)
        if (!/\/requests\/[^/]+\/plan\?/.test(url)) return answer
        const body = (await answer.json()) as { plan: { transaction: Record<string, unknown> }[] }
        change(body.plan[0]?.transaction ?? {})
        return new Response(JSON.stringify(body), { status: answer.status, headers: answer.headers })
      }
      const frame = frameWallet(t, base, { fetch: tampering })
      const email = `final-plan-${field}.${Date.now()}@example.com`
      await frame.ask('CONNECT_EMAIL', { email })
      await frame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
      const user = (await frame.ask('GET_USER', { chainId: EVM })).payload as { address: Address }
      await fund(user.address, '1')
      const balance = await publicClient().getBalance({ address: user.address })
      const answer = await frame.ask('RPC_REQUEST', {
        chainId: EVM,
        method: 'eth_sendTransaction',
        params: [{ from: user.address, to: devAccount(8).address, value: '0x1' }],
      })
      assert.deepEqual(
        answer,
        { type: 'RPC_REQUEST_ERROR', payload: { message: planChangedMessage, code: 'PLAN_CHANGED' } },
        field,
      )
      assert.ok(
        asked.some((url) => /\/plan\?/.test(url)),
        `${field}: the final plan was asked`,
      )
      const after = asked.slice(asked.findIndex((url) => /\/plan\?/.test(url)))
      assert.ok(!after.some((url) => /keys\/auth-share/.test(url)), `${field}: the keys were not opened`)
      assert.ok(!asked.some((url) => /\/approve\?/.test(url)), `${field}: nothing was sent to approve`)
      assert.ok(
        asked.some((url) => /\/reject\?/.test(url)),
        `${field}: the request is rejected on the service`,
      )
      assert.equal(await publicClient().getBalance({ address: user.address }), balance, field)
      assert.equal(await pendingNonce(user.address), 0, field)
    }
  })
})
