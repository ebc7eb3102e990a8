// EIP-5792 through getProvider('eip155'): a wallet that has it answers; one that lacks it
// gets the fallback, one transaction after another on the real local chain, with EIP-5792's refusals.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createPublicClient, http, parseEther } from 'viem'
import { getProvider } from '../../../src/core/actions/getProvider.ts'
import { BOB, chain, connected, setup, useLocalChains } from './actions-helpers.ts'

const LACKS_5792 = /^wallet_(sendCalls|getCallsStatus|getCapabilities|showCallsStatus)$/

describe('EIP-5792 through getProvider', () => {
  useLocalChains()
  const balanceOfBob = () => createPublicClient({ transport: http(chain.url) }).getBalance({ address: BOB })

  it('fallback: a wallet without EIP-5792 sends the calls one after another, and their status reads from the chain', async () => {
    const harness = setup({ lacks: LACKS_5792 })
    await connected(harness)
    const provider = getProvider(harness.config, 'eip155')
    assert.deepEqual(await provider.request({ method: 'wallet_getCapabilities', params: [] }), {
      '0x7a69': { atomic: { status: 'unsupported' } },
      '0x7a6a': { atomic: { status: 'unsupported' } },
    })
    const before = await balanceOfBob()
    harness.calls.length = 0
    const { id } = (await provider.request({
      method: 'wallet_sendCalls',
      params: [
        {
          version: '2.0.0',
          chainId: '0x7a69',
          atomicRequired: false,
          calls: [
            { to: BOB, value: `0x${parseEther('0.001').toString(16)}` },
            { to: BOB, value: `0x${parseEther('0.002').toString(16)}` },
          ],
          capabilities: { paymasterService: { url: 'https://paymaster.example', optional: true } },
        },
      ],
    })) as { id: string }
    assert.match(id, /^0x[0-9a-f]{64}$/)
    assert.deepEqual(
      harness.calls.filter((call) => call.startsWith('wallet_') || call.startsWith('eth_send')),
      ['wallet_sendCalls 4200', 'eth_sendTransaction ok', 'eth_sendTransaction ok'],
    )
    let status: { status: number; atomic: boolean; receipts: unknown[]; version: string; chainId: string }
    for (;;) {
      status = (await provider.request({ method: 'wallet_getCallsStatus', params: [id] })) as typeof status
      if (status.status !== 100) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.equal(status.version, '2.0.0')
    assert.equal(status.chainId, '0x7a69')
    assert.equal(status.status, 200, 'both confirmed')
    assert.equal(status.atomic, false)
    assert.equal(status.receipts.length, 2)
    assert.equal((await balanceOfBob()) - before, parseEther('0.003'), 'both transfers landed')
  })

  it('error: atomicity required, a capability not marked optional, another chain and an unknown id are refused, and nothing is sent', async () => {
    const harness = setup({ lacks: LACKS_5792 })
    await connected(harness)
    const provider = getProvider(harness.config, 'eip155')
    const batch = { version: '2.0.0', chainId: '0x7a69', calls: [{ to: BOB, value: '0x1' }] }
    const send = (changes: Record<string, unknown>) =>
      provider.request({ method: 'wallet_sendCalls', params: [{ ...batch, ...changes }] })
    harness.calls.length = 0
    await assert.rejects(send({ atomicRequired: true }), { code: 5760 })
    await assert.rejects(send({ capabilities: { paymasterService: { url: 'https://paymaster.example' } } }), {
      code: 5700,
      message: /Unsupported non-optional capability: paymasterService/,
    })
    await assert.rejects(send({ chainId: '0x1' }), { code: 5710 })
    await assert.rejects(send({ calls: [] }), { code: -32602 })
    assert.ok(!harness.calls.some((call) => call.startsWith('eth_sendTransaction')), 'nothing sent')
    await assert.rejects(
      provider.request({ method: 'wallet_getCallsStatus', params: [`0x${'ab'.repeat(32)}`] }),
      {
        code: 5730,
      },
    )
  })

  it('behavior: a wallet with EIP-5792 (the Demo Wallet) answers itself; the page adds nothing', async () => {
    const harness = setup()
    await connected(harness)
    const provider = getProvider(harness.config, 'eip155')
    harness.calls.length = 0
    const { id } = (await provider.request({
      method: 'wallet_sendCalls',
      params: [{ version: '2.0.0', chainId: '0x7a69', calls: [{ to: BOB, value: '0x1' }] }],
    })) as { id: string }
    const status = (await provider.request({ method: 'wallet_getCallsStatus', params: [id] })) as {
      id: string
    }
    assert.equal(status.id, id)
    assert.deepEqual(
      harness.calls.filter((call) => call.startsWith('wallet_')),
      ['wallet_sendCalls ok', 'wallet_getCallsStatus ok'],
    )
  })
})
