import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import { createPublicClient, createWalletClient, defineChain, http, parseEther } from 'viem'
import { DEV_MNEMONIC, devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { freePort } from '../../support/net.ts'

async function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once('error', () => resolve(false))
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

describe('dev chain', { timeout: 60_000 }, () => {
  let chain: LocalChain
  let port: number
  const chainId = 31_338

  before(async () => {
    port = await freePort()
    chain = await startChain({ port, chainId })
  })
  after(async () => {
    await chain?.stop()
  })

  const localChain = () =>
    defineChain({
      id: chainId,
      name: 'Local test chain',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.url] } },
    })

  test('default: answers on loopback with the requested chain id', async () => {
    assert.equal(chain.url, `http://127.0.0.1:${port}`)
    assert.equal(chain.chainId, chainId)
    const client = createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })
    assert.equal(await client.getChainId(), chainId)
  })

  test('default: dev accounts come from the test mnemonic and hold 10000 ETH', async () => {
    assert.equal(DEV_MNEMONIC, 'test test test test test test test test test test test junk')
    assert.equal(devAccount(0).address, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    assert.equal(devAccount(1).address, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    const client = createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })
    assert.equal(await client.getBalance({ address: devAccount(9).address }), parseEther('10000'))
    assert.equal(await client.getBalance({ address: devAccount(10).address }), 0n)
  })

  test('behavior: a signed transfer is mined at once and moves the balances', async () => {
    const from = devAccount(2)
    const to = devAccount(3).address
    const transport = http(chain.url, { retryCount: 0 })
    const client = createPublicClient({ chain: localChain(), transport })
    const wallet = createWalletClient({ account: from, chain: localChain(), transport })
    const [fromBefore, toBefore] = await Promise.all([
      client.getBalance({ address: from.address }),
      client.getBalance({ address: to }),
    ])

    const hash = await wallet.sendTransaction({ to, value: parseEther('1.5') })
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 10_000 })
    assert.equal(receipt.status, 'success')

    const [fromAfter, toAfter] = await Promise.all([
      client.getBalance({ address: from.address }),
      client.getBalance({ address: to }),
    ])
    assert.equal(toAfter - toBefore, parseEther('1.5'))
    const fee = receipt.gasUsed * receipt.effectiveGasPrice
    assert.equal(fromBefore - fromAfter, parseEther('1.5') + fee)
  })

  test('error: a taken port fails fast with a clear message', async () => {
    const started = Date.now()
    await assert.rejects(startChain({ port, chainId: 31_337 }), (error: Error) => {
      assert.match(error.message, new RegExp(`port ${port} .*already in use`))
      return true
    })
    assert.ok(Date.now() - started < 2_000, 'should not wait for hardhat')
  })

  test('behavior: stop() ends the node and frees the port; a second stop() is a no-op', async () => {
    const ownPort = await freePort()
    const own = await startChain({ port: ownPort, chainId: 31_337 })
    assert.equal(await canListen(ownPort), false)
    await own.stop()
    await own.stop()
    assert.equal(await canListen(ownPort), true)
    await assert.rejects(fetch(own.url, { method: 'POST', body: '{}' }))
  })
})
