// The frame signs only what the page asked: a service (or anyone between the frame and it) that answers
// a request with another plan gets nothing signed, and the person is shown what the frame signs.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { type Address, createWalletClient, encodeFunctionData, http, parseAbi, parseEther, toHex } from 'viem'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { requestChangedMessage } from '../../../src/frame/pageRequest.ts'
import type { ApprovalPreview, ApprovalResponse } from '../../../src/protocol/embedded/index.ts'
import { codeIn, frameWallet } from './embedded-helpers.ts'
import { chain, EVM, SOLANA, startRequestsWallet, t } from './embedded-requests-helpers.ts'

startRequestsWallet()

type Tamper = (created: ApprovalResponse) => void

/** A fetch between the frame and the service that rewrites the stored request's answer on its way. */
function tamperingFetch(tamper: Tamper | undefined, asked: string[]): typeof fetch {
  return async (input, init) => {
    const url = String(input)
    asked.push(url)
    const answer = await fetch(input, init)
    if (!tamper || !/\/embedded\/v1\/requests\?/.test(url) || answer.status !== 200) return answer
    const body = (await answer.json()) as ApprovalResponse
    tamper(body)
    return new Response(JSON.stringify(body), { status: answer.status, headers: answer.headers })
  }
}

/** A person signed in through a frame whose service answers are rewritten by `tamper`. */
let listening: Promise<string> | undefined

async function personBehind(tamper: Tamper | undefined, decision: 'approve' | 'reject' = 'approve') {
  listening ??= t.app.listen({ host: '127.0.0.1', port: 0 })
  const base = await listening
  const asked: string[] = []
  const shown: ApprovalPreview[] = []
  const frame = frameWallet(t, base, {
    fetch: tamperingFetch(tamper, asked),
    shown: shown as never,
    decision,
  })
  const email = `frame-signs-page.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`
  await frame.ask('CONNECT_EMAIL', { email })
  await frame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
  const evm = ((await frame.ask('GET_USER', { chainId: EVM })).payload as { address: Address }).address
  const solana = ((await frame.ask('GET_USER', { chainId: SOLANA })).payload as { address: string }).address
  return { frame, asked, shown, evm, solana }
}

/** The request's first signing request, to rewrite. */
const first = (created: ApprovalResponse) =>
  created.signing.plan[0] as Record<string, unknown> & {
    transaction: Record<string, unknown>
  }

/** Asserts the frame refused: the page hears why, nothing was shown, signed or approved, and the service forgot it. */
function assertRefused(answer: unknown, person: { asked: string[]; shown: ApprovalPreview[] }, what: string) {
  const { type, payload } = answer as { type: string; payload: { message: string; code: unknown } }
  assert.equal(type, 'RPC_REQUEST_ERROR', what)
  assert.equal(payload.message, requestChangedMessage, what)
  assert.equal(payload.code, 'REQUEST_CHANGED', what)
  assert.equal(person.shown.length, 0, `${what}: nothing was shown`)
  assert.ok(!person.asked.some((url) => /keys\/auth-share/.test(url)), `${what}: the keys were not opened`)
  assert.ok(!person.asked.some((url) => /\/approve\?/.test(url)), `${what}: nothing was sent to approve`)
  assert.ok(
    person.asked.some((url) => /\/reject\?/.test(url)),
    `${what}: the request is rejected on the service`,
  )
}

async function fund(to: Address, ether: string) {
  const client = createWalletClient({ account: devAccount(0), transport: http(chain.url) })
  await client.sendTransaction({ to, value: parseEther(ether), chain: null })
}

const attacker = devAccount(7).address
const receiver = devAccount(8).address
const erc20 = parseAbi(['function transfer(address to, uint256 value)'])

describe('the frame signs only what the page asked', () => {
  test('attack: the service shows the page’s text and plans another message: personal_sign signs nothing', async () => {
    const person = await personBehind((created) => {
      first(created).message = toHex('Transfer everything to the attacker')
    })
    const answer = await person.frame.ask('RPC_REQUEST', {
      chainId: EVM,
      method: 'personal_sign',
      params: [toHex('Sign in to example.com'), person.evm],
    })
    assertRefused(answer, person, 'another message')
  })

  test('attack: the service plans other typed data (a higher amount, another spender): nothing is signed', async () => {
    const typed = {
      domain: { name: 'Token', version: '1', chainId: 31337, verifyingContract: receiver },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
    }
    for (const [what, change] of [
      ['value', (message: Record<string, unknown>) => (message.value = '1000000000000')],
      ['spender', (message: Record<string, unknown>) => (message.spender = attacker)],
    ] as const) {
      const person = await personBehind((created) => {
        const typedData = first(created).typedData as { message: Record<string, unknown> }
        change(typedData.message)
      })
      const message = { owner: person.evm, spender: receiver, value: '1', nonce: '0', deadline: '1' }
      const answer = await person.frame.ask('RPC_REQUEST', {
        chainId: EVM,
        method: 'eth_signTypedData_v4',
        params: [person.evm, JSON.stringify({ ...typed, message })],
      })
      assertRefused(answer, person, what)
    }
  })

  test('attack: the service plans another recipient, amount, call data or chain for a transaction: nothing is signed or sent', async () => {
    const changes: Record<string, (tx: Record<string, unknown>) => void> = {
      recipient: (tx) => {
        tx.to = attacker
      },
      amount: (tx) => {
        tx.value = parseEther('0.9').toString()
      },
      'call data': (tx) => {
        tx.data = encodeFunctionData({ abi: erc20, functionName: 'transfer', args: [attacker, 10n ** 24n] })
      },
      chain: (tx) => {
        tx.chainId = 1
      },
    }
    for (const [what, change] of Object.entries(changes)) {
      const person = await personBehind((created) => change(first(created).transaction))
      await fund(person.evm, '1')
      const answer = await person.frame.ask('RPC_REQUEST', {
        chainId: EVM,
        method: 'eth_sendTransaction',
        params: [{ from: person.evm, to: receiver, value: '0x1' }],
      })
      assertRefused(answer, person, what)
    }
  })

  test('attack: the service plans a fee far above the one it shows: the person is shown the plan’s own fee, not the service’s', async () => {
    let planned: { gas: string; maxFeePerGas: string } | undefined
    const person = await personBehind((created) => {
      const tx = first(created).transaction as { gas: string; maxFeePerGas: string }
      tx.gas = (BigInt(tx.gas) * 1000n).toString()
      planned = tx
    }, 'reject')
    await fund(person.evm, '1')
    const answer = await person.frame.ask('RPC_REQUEST', {
      chainId: EVM,
      method: 'eth_sendTransaction',
      params: [{ from: person.evm, to: receiver, value: '0x1' }],
    })
    assert.equal((answer as { type: string }).type, 'RPC_REQUEST_ERROR')
    const [preview] = person.shown
    assert.ok(preview && planned, 'the request was shown')
    assert.equal(preview.fee, (BigInt(planned.gas) * BigInt(planned.maxFeePerGas)).toString())
    assert.equal(preview.feeUsd, undefined, 'the service’s dollar value of another fee is not shown')
    assert.equal(preview.transfers?.[0]?.to.toLowerCase(), receiver.toLowerCase())
  })

  test('attack: the service plans other Solana bytes: solana_signTransaction signs nothing', async () => {
    const person = await personBehind((created) => {
      const other = new Transaction({
        feePayer: new PublicKey(person.solana),
        recentBlockhash: Keypair.generate().publicKey.toBase58(),
      }).add(
        SystemProgram.transfer({
          fromPubkey: new PublicKey(person.solana),
          toPubkey: Keypair.generate().publicKey,
          lamports: 9_000_000_000,
        }),
      )
      first(created).message = other.serializeMessage().toString('base64')
    })
    const transaction = new Transaction({
      feePayer: new PublicKey(person.solana),
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
    })
      .add(
        SystemProgram.transfer({
          fromPubkey: new PublicKey(person.solana),
          toPubkey: Keypair.generate().publicKey,
          lamports: 1_000,
        }),
      )
      .serialize({ requireAllSignatures: false, verifySignatures: false })
      .toString('base64')
    const answer = await person.frame.ask('RPC_REQUEST', {
      chainId: SOLANA,
      method: 'solana_signTransaction',
      params: { transaction },
    })
    assertRefused(answer, person, 'other Solana bytes')
  })

  test('attack: approvals that hide (an approve inside the token’s multicall, increaseAllowance, Permit2’s approve) are shown as approvals naming the spender', async () => {
    const abi = parseAbi([
      'function approve(address spender, uint256 value)',
      'function increaseAllowance(address spender, uint256 added)',
      'function multicall(bytes[] data)',
      'function approve(address token, address spender, uint160 amount, uint48 expiration)',
    ])
    const max = 2n ** 256n - 1n
    const token = devAccount(9).address
    const permit2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
    const approve = encodeFunctionData({ abi, functionName: 'approve', args: [attacker, max] })
    const hidden = [
      {
        what: 'multicall',
        to: token,
        data: encodeFunctionData({ abi, functionName: 'multicall', args: [[approve]] }),
        via: ['multicall'],
      },
      {
        what: 'increaseAllowance',
        to: token,
        data: encodeFunctionData({ abi, functionName: 'increaseAllowance', args: [attacker, max] }),
        via: [],
      },
      {
        what: 'Permit2 approve',
        to: permit2,
        data: encodeFunctionData({
          abi,
          functionName: 'approve',
          args: [token, attacker, 2n ** 160n - 1n, 2 ** 40],
        }),
        via: [],
      },
    ]
    for (const { what, to, data, via } of hidden) {
      const person = await personBehind(undefined, 'reject')
      await fund(person.evm, '1')
      await person.frame.ask('RPC_REQUEST', {
        chainId: EVM,
        method: 'eth_sendTransaction',
        params: [{ from: person.evm, to, data }],
      })
      const [preview] = person.shown
      const [approval] = preview?.approvals ?? []
      assert.equal(approval?.spender.toLowerCase(), attacker.toLowerCase(), `${what}: the spender is named`)
      assert.equal(approval?.token.toLowerCase(), token.toLowerCase(), `${what}: the token is named`)
      assert.equal(approval?.unlimited, true, `${what}: unlimited`)
      assert.deepEqual(approval?.via, via, what)
      assert.equal(preview?.transfers?.[0]?.unreadable, false, `${what}: not warned of as unreadable data`)
    }
  })

  test('behavior: an honest service: the preview is the frame’s own, of the page’s message, and the signature is answered', async () => {
    const person = await personBehind(undefined)
    const answer = await person.frame.ask('RPC_REQUEST', {
      chainId: EVM,
      method: 'personal_sign',
      params: [toHex('Sign in to example.com'), person.evm],
    })
    assert.equal((answer as { type: string }).type, 'RPC_REQUEST_SUCCESS', JSON.stringify(answer))
    assert.deepEqual(person.shown[0]?.message, { text: 'Sign in to example.com' })
    assert.equal(person.shown[0]?.from.toLowerCase(), person.evm.toLowerCase())
  })
})
