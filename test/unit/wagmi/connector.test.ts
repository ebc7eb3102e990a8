/**
 * `wallet-elements/wagmi` under `@wagmi/core` itself (no browser): wagmi's actions against a config
 * with the Demo Wallet behind the injected connector, on the local chains. The person's choices in
 * the modal are the core actions the views call.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  createConfig as createWagmiConfig,
  getAccount,
  signMessage,
  switchChain,
  connect as wagmiConnect,
  disconnect as wagmiDisconnect,
  reconnect as wagmiReconnect,
} from '@wagmi/core'
import { defineChain, http, UserRejectedRequestError, verifyMessage } from 'viem'
import { close } from '../../../src/core/actions/close.ts'
import { connect } from '../../../src/core/actions/connect.ts'
import { disconnect } from '../../../src/core/actions/disconnect.ts'
import { switchNetwork } from '../../../src/core/actions/switchNetwork.ts'
import type { Config } from '../../../src/core/createConfig.ts'
import { walletElements } from '../../../src/wagmi/index.ts'
import {
  ALICE,
  chain,
  chain2,
  connector as demoWallet,
  setup,
  until,
  useLocalChains,
} from '../core/actions-helpers.ts'

const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }

/** A wagmi config whose one connector drives `config`'s modal. */
function wagmiFor(config: Config) {
  const local = defineChain({
    id: 31337,
    name: 'Local Chain',
    nativeCurrency: ether,
    rpcUrls: { default: { http: [chain.url] } },
  })
  const local2 = defineChain({
    id: 31338,
    name: 'Local Chain 2',
    nativeCurrency: ether,
    rpcUrls: { default: { http: [chain2.url] } },
  })
  const wagmi = createWagmiConfig({
    chains: [local, local2],
    connectors: [walletElements({ config })],
    transports: { [local.id]: http(chain.url), [local2.id]: http(chain2.url) },
    multiInjectedProviderDiscovery: false,
    storage: null,
  })
  const [connector] = wagmi.connectors
  assert.ok(connector)
  return { wagmi, connector }
}

const isOpen = (config: Config) => config.$modal.get().open

describe('the wagmi connector', () => {
  useLocalChains()

  test('behavior: connect opens Connect and resolves with the account the person connects; closing the modal first is UserRejectedRequestError', async () => {
    const { config } = setup()
    const { wagmi, connector } = wagmiFor(config)
    assert.equal(connector.name, 'Wallet Elements')

    const closed = wagmiConnect(wagmi, { connector })
    await until(() => isOpen(config), 'the modal opens')
    assert.equal(config.$modal.get().router.view, 'Connect')
    await close(config)
    await assert.rejects(closed, (error) => error instanceof UserRejectedRequestError && error.code === 4001)
    assert.equal(getAccount(wagmi).status, 'disconnected')

    const connecting = wagmiConnect(wagmi, { connector })
    await until(() => isOpen(config), 'the modal opens again')
    await connect(config, { connector: demoWallet(config) })
    const result = await connecting
    assert.deepEqual(result, { accounts: [ALICE], chainId: 31337 })
    assert.equal(getAccount(wagmi).address, ALICE)
    assert.equal(getAccount(wagmi).status, 'connected')

    // Requests go to the modal's provider: the Demo Wallet signs.
    const signature = await signMessage(wagmi, { message: 'hello' })
    assert.ok(await verifyMessage({ address: ALICE, message: 'hello', signature }))
  })

  test('behavior: a network switch, a disconnect and a connection made in the modal reach wagmi; wagmi switches and disconnects through the modal', async () => {
    const { config } = setup()
    const { wagmi, connector } = wagmiFor(config)
    const connecting = wagmiConnect(wagmi, { connector, chainId: 31337 })
    await until(() => isOpen(config), 'the modal opens')
    await connect(config, { connector: demoWallet(config) })
    await connecting

    await switchNetwork(config, { caipNetworkId: 'eip155:31338' })
    await until(() => getAccount(wagmi).chainId === 31338, "wagmi's chain follows the modal")

    const chainSwitched = await switchChain(wagmi, { chainId: 31337 })
    assert.equal(chainSwitched.id, 31337)
    assert.equal(config.$network.get()?.caipNetworkId, 'eip155:31337')
    assert.equal(getAccount(wagmi).chainId, 31337)

    await disconnect(config)
    await until(() => getAccount(wagmi).status === 'disconnected', 'wagmi sees the disconnect')

    // Connected from <wallet-button>, not through wagmi.
    await connect(config, { connector: demoWallet(config) })
    await until(() => getAccount(wagmi).status === 'connected', 'wagmi sees the connection')
    assert.equal(getAccount(wagmi).address, ALICE)
    assert.equal(isOpen(config), false)

    await wagmiDisconnect(wagmi)
    assert.equal(config.$connections.get().eip155?.status, 'disconnected')
    assert.equal(getAccount(wagmi).status, 'disconnected')
  })

  test('behavior: after a reload the remembered connection is authorized and restored without opening the modal', async () => {
    const first = setup()
    await connect(first.config, { connector: demoWallet(first.config) })
    const again = setup({ items: first.items, wallet: first.wallet })
    const { wagmi, connector } = wagmiFor(again.config)
    assert.equal(await connector.isAuthorized(), true)
    await wagmiReconnect(wagmi)
    assert.equal(getAccount(wagmi).status, 'connected')
    assert.equal(getAccount(wagmi).address, ALICE)
    assert.equal(isOpen(again.config), false)

    const fresh = setup()
    assert.equal(await wagmiFor(fresh.config).connector.isAuthorized(), false)
  })
})
