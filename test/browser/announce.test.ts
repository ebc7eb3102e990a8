import { isWalletAdapterCompatibleStandardWallet } from '@solana/wallet-adapter-base'
import { getWallets } from '@wallet-standard/app'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { createWalletClient, custom } from 'viem'
import { SITE_WALLET_RDNS } from '../../src/connectors/siteWallet.ts'
import type { Connector, Eip1193Provider, WalletInfo } from '../../src/connectors/types.ts'
import { connect } from '../../src/core/actions/connect.ts'
import { getProvider } from '../../src/core/actions/getProvider.ts'
import { signInMessage } from '../../src/core/announce.ts'
import type { Config } from '../../src/core/createConfig.ts'
import { decodeBase58, encodeBase58 } from '../../src/protocol/siwx/base58.ts'
import type { Mounted } from './helpers.ts'
import { assert, equal, installWallet, mount, sleep, waitFor } from './helpers.ts'

// The site's wallet announced to the page (core/announce.ts): EIP-6963 and the
// Wallet Standard, with the embedded wallet on. No service runs here, so the connected embedded
// state is a stand-in connector of type `embedded` (what the real one reports after a sign-in).

const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const DEAD_RPC = 'http://127.0.0.1:9/'
const EVM_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SOLANA_ADDRESS = encodeBase58(new Uint8Array(32).fill(7))
const SIGNATURE = encodeBase58(new Uint8Array(64).fill(9))

const EMBEDDED_ON = {
  networks: `eip155:31337,${DEVNET}`,
  features: 'email',
  'frame-url': 'http://127.0.0.1:9/frame',
  'project-id': 'shop',
}

type Announcement = { info: WalletInfo; provider: Eip1193Provider }

let page: Mounted | undefined
let wallet: ReturnType<typeof installWallet> | undefined
const announced: Announcement[] = []
const record = (event: Event) => announced.push((event as CustomEvent<Announcement>).detail)

beforeEach(() => window.addEventListener('eip6963:announceProvider', record))

afterEach(() => {
  window.removeEventListener('eip6963:announceProvider', record)
  announced.length = 0
  page?.cleanup()
  wallet?.remove()
  page = undefined
  wallet = undefined
})

const ours = () => announced.filter((detail) => detail.info.rdns === SITE_WALLET_RDNS)

/** The site's wallet in the Wallet Standard registry (the one this page's modal registered last). */
const siteWallet = () =>
  getWallets()
    .get()
    .filter((candidate) => candidate.name === `${location.hostname} Wallet`)
    .at(-1)

function mountEmbedded(): Mounted {
  const mounted = mount(EMBEDDED_ON)
  mounted.modal.config = { rpcUrls: { 'eip155:31337': DEAD_RPC, [DEVNET]: DEAD_RPC } }
  return mounted
}

/** A connector standing in for the signed-in embedded wallet: fixed accounts, answers a few requests. */
function embeddedStandIn(requests: { method: string; params?: unknown }[] = []): Connector {
  const providers = {
    eip155: {
      async request(args: { method: string; params?: unknown }) {
        requests.push(args)
        if (args.method === 'eth_accounts' || args.method === 'eth_requestAccounts') return [EVM_ADDRESS]
        if (args.method === 'eth_chainId') return '0x7a69'
        throw Object.assign(new Error('unsupported'), { code: 4200 })
      },
    },
    solana: {
      async request(args: { method: string; params?: unknown }) {
        requests.push(args)
        if (args.method === 'solana_signMessage') return { signature: SIGNATURE }
        if (args.method === 'solana_signTransaction')
          return { transaction: (args.params as { transaction: string }).transaction }
        if (args.method === 'solana_signAndSendTransaction') return { signature: SIGNATURE }
        throw Object.assign(new Error('unsupported'), { code: 4200 })
      },
    },
  }
  const state = (namespace: 'eip155' | 'solana') =>
    namespace === 'eip155'
      ? { namespace, accounts: [EVM_ADDRESS], chainId: 'eip155:31337' as const }
      : { namespace, accounts: [SOLANA_ADDRESS], chainId: DEVNET as `solana:${string}` }
  return {
    id: 'embedded',
    name: 'E-mail',
    type: 'embedded',
    namespaces: ['eip155', 'solana'],
    connect: async ({ namespace }) => state(namespace as 'eip155' | 'solana'),
    reconnect: async () => undefined,
    disconnect: async () => {},
    switchNetwork: async () => {},
    getProvider: (namespace) => providers[namespace as 'eip155' | 'solana'],
    subscribe: () => () => {},
  }
}

async function connectStandIn(config: Config, namespace: 'eip155' | 'solana', connector: Connector) {
  if (!config.internal.connectorsExtra.get().includes(connector))
    config.internal.connectorsExtra.set([...config.internal.connectorsExtra.get(), connector])
  await connect(config, { connector, namespace, keepOpen: true })
}

const feature = <T>(target: Wallet, name: string) => (target.features as Record<string, T>)[name] as T

describe('the site wallet announced to the page (EIP-6963, Wallet Standard)', () => {
  it('EIP-6963: announced once idle with name, data: icon, rdns and a v4 uuid; its provider is getProvider(eip155)', async () => {
    page = mountEmbedded()
    const [detail] = await waitFor(() => (ours().length > 0 ? ours() : undefined), 'the announcement')
    assert(detail)
    equal(detail.info.name, `${location.hostname} Wallet`)
    equal(detail.info.rdns, SITE_WALLET_RDNS)
    assert(detail.info.icon.startsWith('data:image/svg+xml;base64,'), 'icon is an SVG data: URI')
    assert(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(detail.info.uuid),
      'uuid v4',
    )
    assert(Object.isFrozen(detail) && Object.isFrozen(detail.info), 'the detail is frozen')
    equal(detail.provider, getProvider(page.modal.walletConfig, 'eip155'))
    // Re-announced on request, with the same uuid.
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    equal(ours().length, 2)
    equal(ours()[1]?.info.uuid, detail.info.uuid)
  })

  it('EIP-6963: a viem wallet client over the announced provider answers getAddresses and getChainId like getProvider', async () => {
    page = mountEmbedded()
    const config = page.modal.walletConfig
    const [detail] = await waitFor(() => (ours().length > 0 ? ours() : undefined), 'the announcement')
    assert(detail)
    await connectStandIn(config, 'eip155', embeddedStandIn())
    const fromAnnouncement = createWalletClient({ transport: custom(detail.provider) })
    const fromGetProvider = createWalletClient({ transport: custom(getProvider(config, 'eip155')) })
    const addresses = await fromAnnouncement.getAddresses()
    equal(addresses.join(), EVM_ADDRESS)
    equal(addresses.join(), (await fromGetProvider.getAddresses()).join())
    equal(await fromAnnouncement.getChainId(), 31337)
    equal(await fromAnnouncement.getChainId(), await fromGetProvider.getChainId())
  })

  it("EIP-6963: eth_requestAccounts with nothing connected opens the modal's sign-in and answers once connected", async () => {
    page = mountEmbedded()
    const config = page.modal.walletConfig
    const [detail] = await waitFor(() => (ours().length > 0 ? ours() : undefined), 'the announcement')
    assert(detail)
    const asked = detail.provider.request({ method: 'eth_requestAccounts' })
    await waitFor(() => config.$modal.get().open, 'the modal to open')
    equal(config.$modal.get().router.view, 'Connect')
    await connectStandIn(config, 'eip155', embeddedStandIn())
    equal(((await asked) as string[]).join(), EVM_ADDRESS)
  })

  it('EIP-6963: our own browser-wallet discovery does not list the announcement as a wallet', async () => {
    wallet = installWallet()
    page = mountEmbedded()
    const config = page.modal.walletConfig
    await waitFor(() => ours().length > 0, 'the announcement')
    await waitFor(() => config.$connectors.get().some((c) => c.name === 'Demo Wallet'), 'the Demo Wallet')
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    await sleep(50)
    const names = config.$connectors.get().map((connector) => connector.name)
    assert(!config.$connectors.get().some((c) => c.rdns === SITE_WALLET_RDNS), `listed: ${names.join()}`)
    assert(!names.includes(`${location.hostname} Wallet`), `listed: ${names.join()}`)
  })

  it('off: no announcement and no registration without the embedded wallet', async () => {
    wallet = installWallet()
    page = mount({ networks: `eip155:31337,${DEVNET}` })
    const config = page.modal.walletConfig
    // Discovery starts when the page is idle, as the announcement would.
    await waitFor(() => config.$connectors.get().some((c) => c.name === 'Demo Wallet'), 'idle discovery')
    await sleep(300)
    equal(ours().length, 0)
    equal(config.internal.requestAccounts, undefined)
    equal(siteWallet(), undefined)
  })

  it('off: announce="off" keeps the embedded wallet off the page\'s lists', async () => {
    wallet = installWallet()
    page = mount({ ...EMBEDDED_ON, announce: 'off' })
    const config = page.modal.walletConfig
    await waitFor(() => config.$connectors.get().some((c) => c.name === 'Demo Wallet'), 'idle discovery')
    await sleep(300)
    equal(ours().length, 0)
    equal(siteWallet(), undefined)
  })

  it('Wallet Standard: registered, wallet-adapter compatible, with the solana: chains and the listed features', async () => {
    page = mountEmbedded()
    const found = await waitFor(siteWallet, 'the Wallet Standard registration')
    assert(isWalletAdapterCompatibleStandardWallet(found), 'isWalletAdapterCompatibleStandardWallet')
    for (const name of [
      'standard:connect',
      'standard:events',
      'solana:signMessage',
      'solana:signTransaction',
      'solana:signAndSendTransaction',
      'solana:signIn',
    ])
      assert(name in found.features, `feature ${name}`)
    equal(found.chains.join(), `${DEVNET},solana:devnet`)
    assert(found.icon.startsWith('data:image/svg+xml;base64,'), 'icon is a base64 SVG data: URI')
    equal(found.accounts.length, 0)
  })

  it('Wallet Standard: our own Solana wallet discovery does not list the registration as a wallet', async () => {
    page = mountEmbedded()
    const config = page.modal.walletConfig
    await waitFor(siteWallet, 'the Wallet Standard registration')
    await sleep(50)
    const names = config.$connectors.get().map((connector) => connector.name)
    assert(!names.includes(`${location.hostname} Wallet`), `listed: ${names.join()}`)
    assert(!config.$connectors.get().some((c) => c.type === 'walletStandard'), `listed: ${names.join()}`)
  })

  it('Wallet Standard: connect opens the sign-in, then accounts, change events and the signing features answer', async () => {
    page = mountEmbedded()
    const config = page.modal.walletConfig
    const found = await waitFor(siteWallet, 'the Wallet Standard registration')
    const changes: (readonly WalletAccount[] | undefined)[] = []
    feature<{
      on(event: 'change', listener: (p: { accounts?: readonly WalletAccount[] }) => void): () => void
    }>(found, 'standard:events').on('change', ({ accounts }) => changes.push(accounts))
    const connecting = feature<{ connect(): Promise<{ accounts: readonly WalletAccount[] }> }>(
      found,
      'standard:connect',
    ).connect()
    await waitFor(() => config.$modal.get().open, 'the modal to open')
    const requests: { method: string; params?: unknown }[] = []
    await connectStandIn(config, 'solana', embeddedStandIn(requests))
    const { accounts } = await connecting
    const [account] = accounts
    assert(account)
    equal(account.address, SOLANA_ADDRESS)
    equal(encodeBase58(new Uint8Array(account.publicKey)), SOLANA_ADDRESS)
    equal(found.accounts[0], account)
    equal(changes.at(-1)?.[0]?.address, SOLANA_ADDRESS)

    const message = new TextEncoder().encode('hello')
    const [signed] = await feature<{
      signMessage(
        ...i: { account: WalletAccount; message: Uint8Array }[]
      ): Promise<{ signature: Uint8Array }[]>
    }>(found, 'solana:signMessage').signMessage({ account, message })
    equal(encodeBase58(signed?.signature ?? new Uint8Array()), SIGNATURE)
    equal(requests.at(-1)?.method, 'solana_signMessage')

    const transaction = new Uint8Array([1, 2, 3])
    const [signedTx] = await feature<{
      signTransaction(
        ...i: { account: WalletAccount; transaction: Uint8Array }[]
      ): Promise<{ signedTransaction: Uint8Array }[]>
    }>(found, 'solana:signTransaction').signTransaction({ account, transaction })
    equal([...(signedTx?.signedTransaction ?? [])].join(), '1,2,3')

    const [sent] = await feature<{
      signAndSendTransaction(
        ...i: { account: WalletAccount; transaction: Uint8Array; chain: string }[]
      ): Promise<{ signature: Uint8Array }[]>
    }>(found, 'solana:signAndSendTransaction').signAndSendTransaction({ account, transaction, chain: DEVNET })
    equal(encodeBase58(sent?.signature ?? new Uint8Array()), SIGNATURE)
    equal(requests.at(-1)?.method, 'solana_signAndSendTransaction')
    // The Wallet Standard's cluster name of the connected network is that network; another is refused.
    const signAndSend = feature<{
      signAndSendTransaction(
        ...i: { account: WalletAccount; transaction: Uint8Array; chain: string }[]
      ): Promise<{ signature: Uint8Array }[]>
    }>(found, 'solana:signAndSendTransaction')
    equal(
      (await signAndSend.signAndSendTransaction({ account, transaction, chain: 'solana:devnet' })).length,
      1,
    )
    const wrongChain = await signAndSend
      .signAndSendTransaction({ account, transaction, chain: 'solana:mainnet' })
      .then(
        () => undefined,
        (reason: { code?: number }) => reason,
      )
    equal(wrongChain?.code, 4901)

    const [signIn] = await feature<{
      signIn(
        ...i: { statement?: string; nonce?: string }[]
      ): Promise<{ account: WalletAccount; signedMessage: Uint8Array; signature: Uint8Array }[]>
    }>(found, 'solana:signIn').signIn({ statement: 'Welcome', nonce: 'abc12345' })
    equal(signIn?.account.address, SOLANA_ADDRESS)
    const text = new TextDecoder().decode(signIn?.signedMessage)
    equal(text, signInMessage({ statement: 'Welcome', nonce: 'abc12345' }, SOLANA_ADDRESS, window))
    assert(
      text.startsWith(`${location.host} wants you to sign in with your Solana account:\n${SOLANA_ADDRESS}`),
    )
    const params = requests.at(-1)?.params as { message: string }
    equal(new TextDecoder().decode(decodeBase58(params.message) ?? new Uint8Array()), text)
  })

  it('Wallet Standard: connect rejects with 4001 when the person closes the modal', async () => {
    page = mountEmbedded()
    const config = page.modal.walletConfig
    const found = await waitFor(siteWallet, 'the Wallet Standard registration')
    const connecting = feature<{ connect(): Promise<unknown> }>(found, 'standard:connect').connect()
    await waitFor(() => config.$modal.get().open, 'the modal to open')
    config.$modal.setKey('open', false)
    const error = await connecting.then(
      () => undefined,
      (reason: { code?: number }) => reason,
    )
    equal(error?.code, 4001)
  })
})
