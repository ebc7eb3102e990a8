// The Demo Wallet's logic without a browser (no document: prompts are answered by autoApprove).
// The browser side (EIP-6963, prompts, localStorage, real chains) is covered by test/e2e/stack.test.ts.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type Hex, toHex, verifyMessage } from 'viem'
import { type CreateDemoWalletParameters, createDemoWallet } from '../../../demo/wallets/demo-wallet.ts'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { MemoryStorage } from '../memoryStorage.ts'

const origin = 'http://127.0.0.1:5173'

function wallet(parameters: Partial<CreateDemoWalletParameters> = {}) {
  return createDemoWallet({ origin, storage: new MemoryStorage(), ...parameters })
}

async function rpcError(promise: Promise<unknown>): Promise<{ code: unknown; message: unknown }> {
  try {
    await promise
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown }
    return { code, message }
  }
  throw new Error('expected a rejection')
}

describe('demo wallet (no browser)', () => {
  test('default: chain 31337, dev account 0, not connected', async () => {
    const { provider, controls } = wallet()
    assert.equal(await provider.request({ method: 'eth_chainId' }), '0x7a69')
    assert.equal(await provider.request({ method: 'net_version' }), '31337')
    assert.deepEqual(await provider.request({ method: 'eth_accounts' }), [])
    assert.equal(controls.address, devAccount(0).address)
    assert.equal(controls.info.rdns, 'dev.wallet-elements.demo')
    assert.equal(Object.isFrozen(controls.info), true)
  })

  test('error: without approval, connect rejects 4001 and signing 4100', async () => {
    const { provider } = wallet()
    assert.deepEqual(await rpcError(provider.request({ method: 'eth_requestAccounts' })), {
      code: 4001,
      message: 'User rejected the request.',
    })
    assert.equal(
      (await rpcError(provider.request({ method: 'personal_sign', params: ['0x00', origin] }))).code,
      4100,
    )
    assert.equal((await rpcError(provider.request({ method: 'eth_sign', params: [] }))).code, 4200)
    assert.equal((await rpcError(provider.request({ method: 'wallet_unknownThing' }))).code, 4200)
  })

  test('behavior: authorization persists in storage for the origin; revoke forgets it', async () => {
    const storage = new MemoryStorage()
    const first = wallet({ storage, autoApprove: true })
    const changes: unknown[] = []
    first.provider.on('accountsChanged', (accounts) => changes.push(accounts))
    assert.deepEqual(await first.provider.request({ method: 'eth_requestAccounts' }), [devAccount(0).address])
    assert.ok(storage.getItem('demo-wallet/authorized')?.includes(origin))

    const second = wallet({ storage })
    assert.deepEqual(await second.provider.request({ method: 'eth_accounts' }), [devAccount(0).address])
    const permissions = (await second.provider.request({ method: 'wallet_getPermissions' })) as unknown[]
    assert.equal(permissions.length, 1)
    await first.provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] })
    assert.deepEqual(await second.provider.request({ method: 'eth_accounts' }), [])
    assert.deepEqual(changes, [[devAccount(0).address], []])
  })

  test('behavior: personal_sign signs hex-encoded text with the dev key', async () => {
    const { provider } = wallet({ autoApprove: true, accountIndex: 3 })
    await provider.request({ method: 'eth_requestAccounts' })
    const { address } = devAccount(3)
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [toHex('gm'), address],
    })) as Hex
    assert.equal(await verifyMessage({ address, message: 'gm', signature }), true)
    const other = devAccount(4).address
    assert.equal(
      (await rpcError(provider.request({ method: 'personal_sign', params: ['0x00', other] }))).code,
      4100,
    )
  })

  test('behavior: switching chains, from the page (4902 if unknown) and from the wallet', async () => {
    const { provider, controls } = wallet()
    const chains: unknown[] = []
    provider.on('chainChanged', (chainId) => chains.push(chainId))
    const unknown = await rpcError(
      provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }),
    )
    assert.equal(unknown.code, 4902)
    controls.switchChain(1)
    assert.equal(await provider.request({ method: 'eth_chainId' }), '0x1')
    const read = await rpcError(provider.request({ method: 'eth_blockNumber' }))
    assert.equal(read.code, -32603)
    assert.equal(
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] }),
      null,
    )
    assert.deepEqual(chains, ['0x1', '0x7a69'])
    assert.equal(
      (await rpcError(provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: 5 }] })))
        .code,
      -32602,
    )
  })

  test('behavior: switchAccount and disconnect emit to a connected page', async () => {
    const { provider, controls } = wallet({ autoApprove: true })
    await provider.request({ method: 'eth_requestAccounts' })
    const events: unknown[] = []
    provider.on('accountsChanged', (accounts) => events.push(['accountsChanged', accounts]))
    provider.on('disconnect', (error: { code: number }) => events.push(['disconnect', error.code]))
    controls.switchAccount(2)
    controls.disconnect()
    assert.deepEqual(events, [
      ['accountsChanged', [devAccount(2).address]],
      ['disconnect', 4900],
      ['accountsChanged', []],
    ])
    assert.equal(controls.authorized, false)
  })

  test('behavior: throw, garbage and hang', async () => {
    const { provider, controls } = wallet({ behavior: 'throw' })
    assert.deepEqual(await rpcError(provider.request({ method: 'eth_chainId' })), {
      code: -32603,
      message: 'Demo Wallet internal error',
    })
    controls.setBehavior('garbage')
    assert.deepEqual(await provider.request({ method: 'eth_accounts' }), { foo: 1 })
    assert.equal(await provider.request({ method: 'eth_chainId' }), 'not-a-chain')
    controls.setBehavior('hang')
    const outcome = await Promise.race([
      provider.request({ method: 'eth_chainId' }).then(() => 'settled'),
      new Promise((resolve) => setTimeout(resolve, 50, 'pending')),
    ])
    assert.equal(outcome, 'pending')
    assert.throws(() => controls.setBehavior('weird' as never), /Unknown behavior/)
  })
})
