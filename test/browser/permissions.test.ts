import axe from 'axe-core'
import type { Connector } from '../../src/connectors/types.ts'
import { connect } from '../../src/core/actions/connect.ts'
import { open } from '../../src/core/actions/open.ts'
import type { Config } from '../../src/core/createConfig.ts'
import type { GrantedPermission } from '../../src/protocol/embedded/grantedPermissions.ts'
import { settled } from './axeSweep.ts'
import type { Mounted } from './helpers.ts'
import { assert, equal, mount, waitFor } from './helpers.ts'

// Account's list of the site's permissions (ERC-7715). No service or frame runs here, so the
// signed-in embedded wallet is a stand-in connector of type `embedded` whose provider answers
// `wallet_getGrantedExecutionPermissions` and records `wallet_revokePermissions`.

const DEAD_RPC = 'http://127.0.0.1:9/'
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const ROUTER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const HOUR = 3600

const permission = (
  context: string,
  state: GrantedPermission['state'],
  spent: string,
  calls: number,
  resetsAt?: number,
): GrantedPermission => ({
  context,
  chainId: '0x7a69',
  address: ACCOUNT,
  state,
  ...(resetsAt ? { resetsAt } : {}),
  allows: {
    action: 'grant',
    expiry: Math.floor(Date.now() / 1000) + 30 * 24 * HOUR,
    tokens: [
      { address: USDC, symbol: 'USDC', decimals: 6, amount: '10000000', period: 86_400, total: false },
    ],
    contracts: [{ address: ROUTER, functions: ['swap(uint256,address)'] }],
    valueCap: '0',
    callLimit: 0,
    maxGasCost: '10000000000000000',
  },
  used: { calls, tokens: [{ address: USDC, spent }] },
})

interface StandIn {
  connector: Connector
  requests: { method: string; params?: unknown }[]
  permissions: GrantedPermission[]
  /** When set, the list is refused with this error. */
  fail?: Error | undefined
  /** When set, a revoke is refused with this error. */
  failRevoke?: Error | undefined
}

/** A connector standing in for the signed-in embedded wallet, with the site's permissions. */
function embeddedStandIn(): StandIn {
  const standIn: StandIn = {
    requests: [],
    permissions: [
      permission('0xc0ffee01', 'active', '9000000', 3),
      permission('0xc0ffee02', 'allowanceUsed', '10000000', 5, Math.floor(Date.now() / 1000) + 6 * HOUR),
    ],
    connector: undefined as unknown as Connector,
  }
  const provider = {
    async request(args: { method: string; params?: unknown }) {
      standIn.requests.push(args)
      if (args.method === 'eth_accounts' || args.method === 'eth_requestAccounts') return [ACCOUNT]
      if (args.method === 'eth_chainId') return '0x7a69'
      if (args.method === 'wallet_getGrantedExecutionPermissions') {
        if (standIn.fail) throw standIn.fail
        return structuredClone(standIn.permissions)
      }
      if (args.method === 'wallet_revokePermissions') {
        if (standIn.failRevoke) throw standIn.failRevoke
        const [{ permissionsContext }] = args.params as [{ permissionsContext: string }]
        standIn.permissions = standIn.permissions.map((entry) =>
          entry.context === permissionsContext ? { ...entry, state: 'revoked' } : entry,
        )
        return null
      }
      throw Object.assign(new Error('unsupported'), { code: 4200 })
    },
  }
  standIn.connector = {
    id: 'embedded',
    name: 'E-mail',
    type: 'embedded',
    namespaces: ['eip155'],
    connect: async () => ({ namespace: 'eip155', accounts: [ACCOUNT], chainId: 'eip155:31337' as const }),
    reconnect: async () => undefined,
    disconnect: async () => {},
    switchNetwork: async () => {},
    getProvider: () => provider,
    subscribe: () => () => {},
  }
  return standIn
}

let page: Mounted | undefined

afterEach(() => {
  page?.cleanup()
  page = undefined
})

/** Mounts the modal, connects the stand-in and opens Account. */
async function openAccount(standIn: StandIn): Promise<{ modal: HTMLElement; config: Config }> {
  page = mount({ networks: 'eip155:31337', features: 'email', 'project-id': 'shop' })
  page.modal.config = { rpcUrls: { 'eip155:31337': DEAD_RPC } }
  const config = await waitFor(() => page?.modal.walletConfig, 'the config')
  config.internal.connectorsExtra.set([...config.internal.connectorsExtra.get(), standIn.connector])
  await connect(config, { connector: standIn.connector, namespace: 'eip155', keepOpen: true })
  await open(config)
  return { modal: page.modal, config }
}

const root = (modal: HTMLElement) => modal.shadowRoot as ShadowRoot
const items = (modal: HTMLElement) => [...root(modal).querySelectorAll<HTMLElement>('li[data-permission]')]
const item = (modal: HTMLElement, context: string) =>
  root(modal).querySelector<HTMLElement>(`li[data-permission="${context}"]`) ?? undefined

describe("Account: the site's permissions", () => {
  it('lists both in words: what each allows, until when, what it used, the stopped one with its reason', async () => {
    const standIn = embeddedStandIn()
    const { modal } = await openAccount(standIn)
    await waitFor(() => items(modal).length === 2, 'two permissions')
    const title = root(modal).querySelector('#permissions-title')
    equal(title?.textContent, 'Permissions')
    const active = item(modal, '0xc0ffee01')
    const stopped = item(modal, '0xc0ffee02')
    assert(active && stopped)
    const words = active.textContent ?? ''
    assert(words.includes('10.000 USDC a day'), `the allowance in words: ${words}`)
    assert(words.includes('Call swap on 0xe7f1…0512'), `the contract, shortened: ${words}`)
    assert(words.includes('Until '), `until when: ${words}`)
    assert(words.includes('Used 9.000 of 10.000 USDC this period · 3 actions'), `what it used: ${words}`)
    equal(active.querySelector('[data-permission-state]'), null, 'an active one has no stopped line')
    const reason = stopped.querySelector('[data-permission-state]')?.textContent ?? ''
    assert(
      reason.startsWith('Stopped: this period’s allowance is used up, until '),
      `the stopped one says why: ${reason}`,
    )
    assert(stopped.querySelector('[data-action="revoke-permission"]'), 'a stopped one can still be revoked')
    equal(
      standIn.requests.filter((request) => request.method === 'wallet_getGrantedExecutionPermissions')[0]
        ?.params,
      undefined,
      'asked without params',
    )
  })

  it('Revoke calls the provider with the context, is busy meanwhile, and the list reloads', async () => {
    const standIn = embeddedStandIn()
    const { modal } = await openAccount(standIn)
    await waitFor(() => items(modal).length === 2, 'two permissions')
    const loadsBefore = standIn.requests.filter(
      (request) => request.method === 'wallet_getGrantedExecutionPermissions',
    ).length
    const button = item(modal, '0xc0ffee01')?.querySelector<HTMLButtonElement>(
      '[data-action="revoke-permission"]',
    )
    assert(button)
    button.click()
    await waitFor(() => button.getAttribute('aria-busy') === 'true' || !button.isConnected, 'busy')
    const revoke = await waitFor(
      () => standIn.requests.find((request) => request.method === 'wallet_revokePermissions'),
      'the revoke request',
    )
    equal(JSON.stringify(revoke.params), JSON.stringify([{ permissionsContext: '0xc0ffee01' }]))
    await waitFor(() => item(modal, '0xc0ffee01')?.dataset.state === 'revoked', 'the list reloaded')
    const revoked = item(modal, '0xc0ffee01')
    assert(revoked)
    equal(revoked.querySelector('[data-permission-state]')?.textContent, 'Revoked')
    equal(revoked.querySelector('[data-action="revoke-permission"]'), null, 'no Revoke once revoked')
    assert(
      standIn.requests.filter((request) => request.method === 'wallet_getGrantedExecutionPermissions')
        .length > loadsBefore,
      'read again after the revoke',
    )
  })

  it('a refused revoke is said on its item, red and announced, and the permission stays', async () => {
    const standIn = embeddedStandIn()
    standIn.failRevoke = Object.assign(new Error('The bundler refused the operation'), { code: -32603 })
    const { modal } = await openAccount(standIn)
    await waitFor(() => items(modal).length === 2, 'two permissions')
    item(modal, '0xc0ffee02')?.querySelector<HTMLButtonElement>('[data-action="revoke-permission"]')?.click()
    const alert = await waitFor(
      () => item(modal, '0xc0ffee02')?.querySelector('[role="alert"] .error') ?? undefined,
      'the error on the item',
    )
    assert((alert.textContent ?? '').trim().length > 0, 'in words')
    equal(item(modal, '0xc0ffee02')?.dataset.state, 'allowanceUsed')
    equal(item(modal, '0xc0ffee01')?.querySelector('[role="alert"] .error'), null, 'only on its own item')
  })

  it('a failed load shows the error, red and announced, not a blank', async () => {
    const standIn = embeddedStandIn()
    standIn.fail = Object.assign(new Error('The wallet service is down'), { code: -32603 })
    const { modal } = await openAccount(standIn)
    const error = await waitFor(() => root(modal).querySelector('#permissions-error'), 'the error')
    assert(error.closest('[role="alert"]'), 'announced')
    assert((error.textContent ?? '').trim().length > 0, 'in words')
    equal(items(modal).length, 0)
  })

  it('axe finds nothing on Account with the list', async () => {
    const standIn = embeddedStandIn()
    const { modal } = await openAccount(standIn)
    await waitFor(() => items(modal).length === 2, 'two permissions')
    // The signed-in line points at the wallet frame (aria-owns), which no stand-in loads: left out.
    const found: string[] = []
    for (const theme of ['light', 'dark']) {
      modal.setAttribute('theme', theme)
      await settled(modal)
      const { violations } = await axe.run(modal, { resultTypes: ['violations'] })
      for (const violation of violations)
        for (const node of violation.nodes)
          if (!node.target.join(' > ').includes('.frame-identity'))
            found.push(`${theme}: ${violation.id} at ${node.target.join(' > ')}`)
    }
    equal(found.join('\n'), '', 'axe violations')
  })
})
