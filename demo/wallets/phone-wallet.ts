/**
 * The Demo Phone Wallet: a page that plays a phone wallet over WalletConnect, the wallet side of
 * `@walletconnect/sign-client`. Open `/wallets/phone.html`, paste a `wc:` URI (or open
 * `/wallets/phone.html?uri=wc:…`), approve or reject the dapp's proposal, then each of its requests.
 * It signs with a dev account of the test mnemonic and sends transactions to the local chains.
 *
 * Page URL parameters (read once at load):
 * - `uri=wc:…`: pair at load (removed from the address bar afterwards, so a reload does not pair again)
 * - `account=N`: index of the dev account (default 0)
 *
 * Build-time settings (`import.meta.env`, set by `npm start` and the test stack): `VITE_PROJECT_ID`,
 * `VITE_RELAY_URL`, `VITE_LOCAL_RPC_URL` (chain 31337), `VITE_LOCAL2_RPC_URL` (chain 31338).
 *
 * The client keeps pairings, proposals, sessions and unanswered requests in the browser's storage
 * (prefix `demo-phone-wallet`), so they survive a reload.
 * Test controls are on `window.phoneWallet` ({@link PhoneWalletControls}).
 *
 * Answers:
 * - `personal_sign`, `eth_signTypedData_v4`: the signature
 * - `eth_sendTransaction`: the hash (nonce, gas and fees filled from the chain, signed here, sent raw)
 * - `wallet_switchEthereumChain`: `null`, after the `chainChanged` session event (data: the chain id as
 *   a number, event chainId: `eip155:<id>`); a chain outside the session is added to it first
 * - `wallet_addEthereumChain`: `null` (its first http(s) RPC URL is remembered for transactions)
 * - Reject: `getSdkError('USER_REJECTED')` (code 5000); other methods: `getSdkError('UNSUPPORTED_METHODS')`
 */
import { SignClient } from '@walletconnect/sign-client'
import type { ProposalTypes, SessionTypes, SignClientTypes } from '@walletconnect/types'
import { getSdkError } from '@walletconnect/utils'
import { type Address, formatEther, hexToBigInt, hexToBytes, isAddress, isAddressEqual, isHex } from 'viem'
import { type HDAccount, mnemonicToAccount } from 'viem/accounts'
import { mountPhoneUi } from './phone-ui.ts'
import { signAndSend } from './transactions.ts'

/** The publicly known test mnemonic; the same keys the local chains fund. */
const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/** Chains this wallet can send transactions on out of the box (more come from wallet_addEthereumChain). */
const LOCAL_CHAINS = [31337, 31338] as const
/** Events the wallet always offers, because it emits them. */
const WALLET_EVENTS = ['chainChanged', 'accountsChanged'] as const
/** Methods offered when a dapp proposes an eip155 session without naming any. */
const SUPPORTED_METHODS = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
] as const

export type Client = Awaited<ReturnType<typeof SignClient.init>>
/** A proposal as the client emits it, or as restored from its store after a reload (no Verify context). */
type ProposalEvent = Omit<SignClientTypes.EventArguments['session_proposal'], 'verifyContext'> & {
  verifyContext?: SignClientTypes.EventArguments['session_proposal']['verifyContext']
}
type RequestEvent = SignClientTypes.EventArguments['session_request']

/** One labelled line of what a proposal or request asks for. */
export type SummaryLine = { label: string; value: string }

export type ProposalView = {
  id: number
  dappName: string
  dappUrl: string
  /** Requested CAIP-2 chains, required and optional. */
  chains: string[]
  methods: string[]
  events: string[]
  /** Optional namespaces this wallet leaves out (for example `solana`). */
  leftOut: string[]
  /** Origin the Verify API reported, when it differs from the dapp's URL (unverified offline). */
  verifiedOrigin?: string
}

export type RequestView = {
  id: number
  topic: string
  dappName: string
  /** CAIP-2 chain the request is for. */
  chainId: string
  method: string
  summary: SummaryLine[]
}

export type SessionView = {
  topic: string
  dappName: string
  dappUrl: string
  /** CAIP-10 accounts. */
  accounts: string[]
  /** The chain this wallet last switched the session to (the first approved chain at first). */
  chainId: string
  /** Expiry, seconds since the epoch. */
  expiry: number
}

export type PhoneWalletState = {
  ready: boolean
  autoApprove: boolean
  /** Proposals waiting for an answer, oldest first (the UI shows the first). */
  proposals: ProposalView[]
  requests: RequestView[]
  sessions: SessionView[]
}

export type StatusLine = { text: string; kind: 'info' | 'success' | 'error' }

/** The wallet's logic, for the UI and the test controls. Methods without an id act on the oldest item. */
export type PhoneWallet = {
  readonly address: Address
  state(): PhoneWalletState
  /** Called after every change of {@link state}; returns the unsubscribe function. */
  onChange(listener: () => void): () => void
  /** Called for each status line (pairing, approvals, answers, errors). */
  onStatus(listener: (line: StatusLine) => void): () => void
  pair(uri: string): Promise<void>
  approveProposal(id?: number): Promise<SessionView>
  rejectProposal(id?: number): Promise<void>
  /** Runs the request and answers it; resolves with the result sent. */
  approveRequest(id?: number): Promise<unknown>
  rejectRequest(id?: number): Promise<void>
  disconnect(topic: string): Promise<void>
  disconnectAll(): Promise<void>
  setAutoApprove(on: boolean): void
}

/**
 * Test controls, on `window.phoneWallet` once the client is connected.
 *
 * @example
 * await page.waitForFunction(() => window.phoneWallet !== undefined)
 * await page.evaluate((uri) => window.phoneWallet?.pair(uri), uri)
 * await page.evaluate(() => window.phoneWallet?.approveProposal())
 */
export type PhoneWalletControls = {
  /** Address of the dev account. */
  readonly address: Address
  pair(uri: string): Promise<void>
  /** Approves the oldest pending proposal; resolves with the new session. */
  approveProposal(): Promise<SessionView>
  rejectProposal(): Promise<void>
  /** Approves the oldest pending request; resolves with the result sent to the dapp. */
  approveRequest(): Promise<unknown>
  rejectRequest(): Promise<void>
  disconnectAll(): Promise<void>
  sessions(): { topic: string; accounts: string[]; dappName: string; chainId: string }[]
  pendingRequests(): RequestView[]
  pendingProposals(): ProposalView[]
  /** While on, proposals and requests (those waiting too) are approved as they arrive. */
  autoApprove(on: boolean): void
}

declare global {
  interface Window {
    /** The Demo Phone Wallet's test controls (its page only). */
    phoneWallet?: PhoneWalletControls
  }
}

/** A JSON-RPC error to answer a request with. */
export class WalletRpcError extends Error {
  override name = 'WalletRpcError'
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

const INVALID_PARAMS = -32602
const INTERNAL_ERROR = -32603
const UNAUTHORIZED = 4100

// ---------------------------------------------------------------------------------------------------
// Namespaces

type NamespacesOutcome =
  | { ok: true; namespaces: SessionTypes.Namespaces; leftOut: string[] }
  | { ok: false; reason: { code: number; message: string } }

const isEip155Key = (key: string): boolean => key === 'eip155' || /^eip155:\d+$/.test(key)
const isEip155Chain = (chain: string): boolean => /^eip155:[1-9]\d*$/.test(chain)

/**
 * The session namespaces this wallet approves for a proposal: one `eip155` namespace with every EVM
 * chain requested (required or optional; 31337 and 31338 when none is named), the dev address on each,
 * the requested methods and events plus `chainChanged` and `accountsChanged`. Other optional
 * namespaces are left out; another required namespace, or nothing this wallet serves, fails with the
 * SDK's error.
 *
 * @example
 * const outcome = buildNamespaces(proposal, account.address)
 * if (outcome.ok) await client.approve({ id: proposal.id, namespaces: outcome.namespaces })
 * else await client.reject({ id: proposal.id, reason: outcome.reason })
 */
export function buildNamespaces(
  proposal: Pick<ProposalTypes.Struct, 'requiredNamespaces' | 'optionalNamespaces'>,
  address: Address,
): NamespacesOutcome {
  const required = proposal.requiredNamespaces ?? {}
  const optional = proposal.optionalNamespaces ?? {}
  const unsupported = Object.keys(required).filter((key) => !isEip155Key(key))
  if (unsupported.length > 0) {
    return { ok: false, reason: getSdkError('UNSUPPORTED_NAMESPACE_KEY', unsupported.join(', ')) }
  }
  const badChains = Object.entries(required).flatMap(([key, namespace]) =>
    chainsOf(key, namespace).filter((chain) => !isEip155Chain(chain)),
  )
  if (badChains.length > 0) {
    return { ok: false, reason: getSdkError('UNSUPPORTED_CHAINS', badChains.join(', ')) }
  }

  const chains = new Set<string>()
  const methods = new Set<string>()
  const events = new Set<string>()
  const leftOut: string[] = []
  let requested = false
  for (const [key, namespace] of [...Object.entries(required), ...Object.entries(optional)]) {
    if (!isEip155Key(key)) {
      leftOut.push(key)
      continue
    }
    requested = true
    for (const chain of chainsOf(key, namespace)) if (isEip155Chain(chain)) chains.add(chain)
    for (const method of namespace.methods ?? []) methods.add(method)
    for (const event of namespace.events ?? []) events.add(event)
  }
  if (!requested && leftOut.length > 0) {
    return { ok: false, reason: getSdkError('UNSUPPORTED_NAMESPACE_KEY', leftOut.join(', ')) }
  }
  if (chains.size === 0) for (const id of LOCAL_CHAINS) chains.add(`eip155:${id}`)
  if (!requested) for (const method of SUPPORTED_METHODS) methods.add(method)
  for (const event of WALLET_EVENTS) events.add(event)

  const chainList = [...chains]
  return {
    ok: true,
    leftOut,
    namespaces: {
      eip155: {
        chains: chainList,
        accounts: chainList.map((chain) => `${chain}:${address}`),
        methods: [...methods],
        events: [...events],
      },
    },
  }
}

function chainsOf(key: string, namespace: ProposalTypes.RequiredNamespace): string[] {
  return namespace.chains ?? (key.includes(':') ? [key] : [])
}

function proposalView(event: ProposalEvent, leftOut: string[]): ProposalView {
  const { params, verifyContext } = event
  const chains = new Set<string>()
  const methods = new Set<string>()
  const events = new Set<string>()
  for (const [key, namespace] of [
    ...Object.entries(params.requiredNamespaces ?? {}),
    ...Object.entries(params.optionalNamespaces ?? {}),
  ]) {
    for (const chain of chainsOf(key, namespace)) chains.add(chain)
    for (const method of namespace.methods ?? []) methods.add(method)
    for (const name of namespace.events ?? []) events.add(name)
  }
  const { name, url } = params.proposer.metadata
  const origin = verifyContext?.verified?.origin
  return {
    id: event.id,
    dappName: name || 'Unnamed dapp',
    dappUrl: url,
    chains: [...chains],
    methods: [...methods],
    events: [...events],
    leftOut,
    ...(origin && origin !== url && origin !== originOf(url) ? { verifiedOrigin: origin } : {}),
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

// ---------------------------------------------------------------------------------------------------
// Readable summaries

/** UTF-8 text of a hex message when it is printable text, else a short description of the bytes. */
export function decodeMessage(message: string): string {
  if (!isHex(message)) return message
  const bytes = hexToBytes(message)
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    if (isPrintable(text)) return text
  } catch {
    // Not UTF-8: describe the bytes below.
  }
  return `${bytes.length} bytes of binary data: ${shorten(message)}`
}

function isPrintable(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if ((code < 0x20 && char !== '\n' && char !== '\r' && char !== '\t') || code === 0x7f) return false
  }
  return true
}

function shorten(hex: string, keep = 10): string {
  return hex.length > keep * 2 + 3 ? `${hex.slice(0, keep + 2)}…${hex.slice(-keep)}` : hex
}

function display(value: unknown, max = 120): string {
  const text =
    typeof value === 'string'
      ? value
      : String(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}` : v)) ?? value)
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** A JSON-RPC quantity (0x-hex or decimal string, number, bigint) as a bigint; undefined when absent. */
function quantity(value: unknown, field: string): bigint | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && isHex(value)) return hexToBigInt(value)
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value)
  throw new WalletRpcError(INVALID_PARAMS, `Invalid ${field}: ${display(value, 40)}`)
}

function chainNumber(caip2: string): number {
  const id = Number(caip2.split(':')[1])
  if (!caip2.startsWith('eip155:') || !Number.isSafeInteger(id) || id <= 0) {
    throw new WalletRpcError(INVALID_PARAMS, `Not an EVM chain: ${caip2}`)
  }
  return id
}

// ---------------------------------------------------------------------------------------------------
// The wallet

type Action = { summary: SummaryLine[]; run(): Promise<unknown> }
type PendingRequest = { view: RequestView; action: Action }
type PendingProposal = { view: ProposalView; namespaces: SessionTypes.Namespaces }

export type PhoneWalletOptions = {
  client: Client
  account: HDAccount
  /** RPC URL per EVM chain id, for transactions. */
  rpcUrls: Record<number, string>
}

/**
 * The wallet's logic over a connected sign client (wallet side). Listens to the client's events;
 * nothing is shown: the UI subscribes with `onChange` and `onStatus`.
 *
 * @example
 * const client = await SignClient.init({ projectId, relayUrl, metadata })
 * const wallet = createPhoneWallet({ client, account: mnemonicToAccount(DEV_MNEMONIC), rpcUrls })
 * await wallet.pair(uri)
 */
export function createPhoneWallet({ client, account, rpcUrls }: PhoneWalletOptions): PhoneWallet {
  const address = account.address
  const rpc = new Map<number, string>(Object.entries(rpcUrls).map(([id, url]) => [Number(id), url]))
  const proposals: PendingProposal[] = []
  const requests: PendingRequest[] = []
  /** Chain each session was last switched to (in memory; the first approved chain otherwise). */
  const activeChain = new Map<string, string>()
  const changeListeners = new Set<() => void>()
  const statusListeners = new Set<(line: StatusLine) => void>()
  let autoApprove = false

  const changed = () => {
    for (const listener of changeListeners) listener()
  }
  const status = (text: string, kind: StatusLine['kind'] = 'info') => {
    for (const listener of statusListeners) listener({ text, kind })
  }

  const sessionViews = (): SessionView[] => {
    const now = Date.now() / 1000
    return client.session
      .getAll()
      .filter((session) => session.expiry > now)
      .map((session) => {
        const namespaces = Object.values(session.namespaces)
        const chains = namespaces.flatMap((namespace) => namespace.chains ?? [])
        return {
          topic: session.topic,
          dappName: session.peer.metadata.name || 'Unnamed dapp',
          dappUrl: session.peer.metadata.url,
          accounts: namespaces.flatMap((namespace) => namespace.accounts),
          chainId: activeChain.get(session.topic) ?? chains[0] ?? '',
          expiry: session.expiry,
        }
      })
  }

  const dappName = (topic: string): string => {
    try {
      return client.session.get(topic).peer.metadata.name || 'Unnamed dapp'
    } catch {
      return 'a dapp'
    }
  }

  const take = <T extends { view: { id: number } }>(list: T[], id: number | undefined, what: string): T => {
    const index = id === undefined ? 0 : list.findIndex((item) => item.view.id === id)
    const item = list[index]
    if (index < 0 || !item)
      throw new Error(id === undefined ? `No pending ${what}` : `No pending ${what} ${id}`)
    list.splice(index, 1)
    return item
  }

  // --- proposals --------------------------------------------------------------------------------

  const onProposal = (event: ProposalEvent) => {
    if (proposals.some((item) => item.view.id === event.id)) return
    const view = proposalView(event, [])
    const outcome = buildNamespaces(event.params, address)
    if (!outcome.ok) {
      status(`Rejected ${view.dappName}'s proposal: ${outcome.reason.message}`, 'error')
      client.reject({ id: event.id, reason: outcome.reason }).catch((error: unknown) => {
        status(`Could not reject the proposal: ${errorMessage(error)}`, 'error')
      })
      return
    }
    proposals.push({ view: { ...view, leftOut: outcome.leftOut }, namespaces: outcome.namespaces })
    status(`Session proposal from ${view.dappName}`)
    changed()
    if (autoApprove) void approveProposal(event.id).catch(() => {})
  }

  const approveProposal = async (id?: number): Promise<SessionView> => {
    const { view, namespaces } = take(proposals, id, 'proposal')
    changed()
    try {
      const { topic, acknowledged } = await client.approve({ id: view.id, namespaces })
      status(`Session approved with ${view.dappName}`, 'success')
      changed()
      acknowledged().then(changed, () => {})
      const session = sessionViews().find((item) => item.topic === topic)
      if (!session) throw new Error('The approved session is missing from the store')
      return session
    } catch (error) {
      status(`Could not approve ${view.dappName}'s proposal: ${errorMessage(error)}`, 'error')
      changed()
      throw error
    }
  }

  const rejectProposal = async (id?: number): Promise<void> => {
    const { view } = take(proposals, id, 'proposal')
    changed()
    try {
      await client.reject({ id: view.id, reason: getSdkError('USER_REJECTED') })
      status(`Rejected ${view.dappName}'s proposal`)
    } catch (error) {
      status(`Could not reject ${view.dappName}'s proposal: ${errorMessage(error)}`, 'error')
      throw error
    }
  }

  // --- requests ---------------------------------------------------------------------------------

  const respond = async (topic: string, id: number, answer: { result: unknown } | { error: unknown }) => {
    await client.respond({ topic, response: { id, jsonrpc: '2.0', ...answer } as never })
  }

  const personalSign = (params: unknown[]): Action => {
    let [message, signer] = params
    if (typeof message === 'string' && isAddress(message) && isAddressEqual(message, address)) {
      if (typeof signer === 'string' && !(isAddress(signer) && isAddressEqual(signer, address))) {
        ;[message, signer] = [signer, message]
      }
    }
    if (typeof message !== 'string') throw new WalletRpcError(INVALID_PARAMS, 'personal_sign needs a message')
    checkSigner(signer)
    const text = message
    return {
      summary: [
        { label: 'Message', value: decodeMessage(text) },
        { label: 'Signer', value: address },
      ],
      run: () => account.signMessage({ message: isHex(text) ? { raw: text } : text }),
    }
  }

  const signTypedData = (params: unknown[]): Action => {
    const [first, second] = params
    const [signer, raw] = typeof first === 'string' && isAddress(first) ? [first, second] : [second, first]
    checkSigner(signer)
    let typedData: unknown
    try {
      typedData = typeof raw === 'string' ? JSON.parse(raw) : raw
    } catch {
      throw new WalletRpcError(INVALID_PARAMS, 'The typed data is not JSON')
    }
    if (!typedData || typeof typedData !== 'object') throw new WalletRpcError(INVALID_PARAMS, 'No typed data')
    const {
      domain = {},
      primaryType,
      types,
      message,
    } = typedData as {
      domain?: Record<string, unknown>
      primaryType?: unknown
      types?: unknown
      message?: unknown
    }
    if (typeof primaryType !== 'string' || !types || typeof types !== 'object' || !message) {
      throw new WalletRpcError(INVALID_PARAMS, 'Typed data needs types, primaryType and message')
    }
    const domainText = ['name', 'version', 'chainId', 'verifyingContract', 'salt']
      .filter((key) => domain[key] !== undefined)
      .map((key) => `${key}: ${display(domain[key], 66)}`)
      .join(', ')
    const fields = Object.entries(message as Record<string, unknown>)
      .slice(0, 6)
      .map(([key, value]) => ({ label: `${primaryType}.${key}`, value: display(value) }))
    return {
      summary: [
        { label: 'Primary type', value: primaryType },
        { label: 'Domain', value: domainText || '(empty)' },
        ...fields,
        { label: 'Signer', value: address },
      ],
      run: () => account.signTypedData(typedData as Parameters<HDAccount['signTypedData']>[0]),
    }
  }

  const sendTransaction = (params: unknown[], chainId: string): Action => {
    const tx = params[0]
    if (!tx || typeof tx !== 'object') throw new WalletRpcError(INVALID_PARAMS, 'No transaction object')
    const fields = tx as Record<string, unknown>
    checkSigner(fields.from)
    const id = chainNumber(chainId)
    const txChain = quantity(fields.chainId, 'chainId')
    if (txChain !== undefined && txChain !== BigInt(id)) {
      throw new WalletRpcError(
        INVALID_PARAMS,
        `The transaction is for chain ${txChain}, the request for ${id}`,
      )
    }
    const to = fields.to
    if (to !== undefined && to !== null && (typeof to !== 'string' || !isAddress(to))) {
      throw new WalletRpcError(INVALID_PARAMS, `Invalid to: ${display(to, 50)}`)
    }
    const data = fields.data ?? fields.input
    if (data !== undefined && (typeof data !== 'string' || !isHex(data))) {
      throw new WalletRpcError(INVALID_PARAMS, 'Invalid data')
    }
    const value = quantity(fields.value, 'value') ?? 0n
    const gas = quantity(fields.gas ?? fields.gasLimit, 'gas')
    const nonce = quantity(fields.nonce, 'nonce')
    const gasPrice = quantity(fields.gasPrice, 'gasPrice')
    const maxFeePerGas = quantity(fields.maxFeePerGas, 'maxFeePerGas')
    const maxPriorityFeePerGas = quantity(fields.maxPriorityFeePerGas, 'maxPriorityFeePerGas')
    const hasData = typeof data === 'string' && data !== '0x'

    return {
      summary: [
        { label: 'To', value: typeof to === 'string' ? to : '(new contract)' },
        { label: 'Value', value: `${formatEther(value)} ETH` },
        { label: 'Network', value: chainId },
        ...(hasData ? [{ label: 'Data', value: `${(data.length - 2) / 2} bytes: ${shorten(data)}` }] : []),
        { label: 'From', value: address },
      ],
      run: async () => {
        const url = rpc.get(id)
        if (!url) throw new WalletRpcError(INTERNAL_ERROR, `This wallet has no RPC URL for chain ${id}`)
        return signAndSend(account, url, id, {
          to: typeof to === 'string' ? to : undefined,
          data: hasData ? data : undefined,
          value,
          gas,
          nonce,
          gasPrice,
          maxFeePerGas,
          maxPriorityFeePerGas,
        })
      },
    }
  }

  const switchChain = (params: unknown[], topic: string): Action => {
    const requested = quantity((params[0] as { chainId?: unknown } | undefined)?.chainId, 'chainId')
    if (requested === undefined || requested <= 0n) throw new WalletRpcError(INVALID_PARAMS, 'No chainId')
    const target = `eip155:${requested}`
    return {
      summary: [{ label: 'Switch to', value: `${target} (0x${requested.toString(16)})` }],
      run: async () => {
        const session = client.session.get(topic)
        const eip155 = session.namespaces.eip155
        if (eip155 && !(eip155.chains ?? []).includes(target)) {
          // A chain outside the session: add it (same address) so the event below is valid.
          await client.update({
            topic,
            namespaces: {
              ...session.namespaces,
              eip155: {
                ...eip155,
                chains: [...(eip155.chains ?? []), target],
                accounts: [...eip155.accounts, `${target}:${address}`],
              },
            },
          })
        }
        await client.emit({
          topic,
          chainId: target,
          event: { name: 'chainChanged', data: Number(requested) },
        })
        activeChain.set(topic, target)
        return null
      },
    }
  }

  const addChain = (params: unknown[]): Action => {
    const chain = params[0] as { chainId?: unknown; chainName?: unknown; rpcUrls?: unknown } | undefined
    const id = quantity(chain?.chainId, 'chainId')
    if (id === undefined || id <= 0n) throw new WalletRpcError(INVALID_PARAMS, 'No chainId')
    const urls = Array.isArray(chain?.rpcUrls) ? chain.rpcUrls.filter((url) => typeof url === 'string') : []
    const url = urls.find((candidate) => /^https?:\/\//.test(candidate))
    return {
      summary: [
        { label: 'Network', value: `${typeof chain?.chainName === 'string' ? chain.chainName : 'Unnamed'}` },
        { label: 'Chain id', value: `eip155:${id}` },
        { label: 'RPC', value: url ?? '(none)' },
      ],
      run: async () => {
        if (url && !rpc.has(Number(id))) rpc.set(Number(id), url)
        return null
      },
    }
  }

  function checkSigner(signer: unknown): void {
    if (signer === undefined || signer === null) return
    if (typeof signer !== 'string' || !isAddress(signer) || !isAddressEqual(signer, address)) {
      throw new WalletRpcError(UNAUTHORIZED, `${display(signer, 50)} is not this wallet's account`)
    }
  }

  const actionFor = (method: string, params: unknown, chainId: string, topic: string): Action | undefined => {
    const list = Array.isArray(params) ? (params as unknown[]) : []
    switch (method) {
      case 'personal_sign':
        return personalSign(list)
      case 'eth_signTypedData_v4':
        return signTypedData(list)
      case 'eth_sendTransaction':
        return sendTransaction(list, chainId)
      case 'wallet_switchEthereumChain':
        return switchChain(list, topic)
      case 'wallet_addEthereumChain':
        return addChain(list)
      default:
        return undefined
    }
  }

  const onRequest = (event: RequestEvent) => {
    const { topic, id } = event
    // The client emits requests still unanswered again after a reload (and may repeat one).
    if (requests.some((item) => item.view.id === id)) return
    const { request, chainId } = event.params
    const name = dappName(topic)
    let action: Action | undefined
    try {
      action = actionFor(request.method, request.params, chainId, topic)
    } catch (error) {
      status(`Refused ${request.method} from ${name}: ${errorMessage(error)}`, 'error')
      void respond(topic, id, { error: rpcError(error) }).catch(() => {})
      return
    }
    if (!action) {
      status(`Refused ${request.method} from ${name}: not supported`, 'error')
      void respond(topic, id, { error: getSdkError('UNSUPPORTED_METHODS', request.method) }).catch(() => {})
      return
    }
    const view: RequestView = {
      id,
      topic,
      dappName: name,
      chainId,
      method: request.method,
      summary: action.summary,
    }
    requests.push({ view, action })
    status(`${request.method} request from ${name}`)
    changed()
    if (autoApprove) void approveRequest(id).catch(() => {})
  }

  const approveRequest = async (id?: number): Promise<unknown> => {
    const { view, action } = take(requests, id, 'request')
    changed()
    let result: unknown
    try {
      result = await action.run()
    } catch (error) {
      status(`${view.method} failed: ${errorMessage(error)}`, 'error')
      await respond(view.topic, view.id, { error: rpcError(error) })
      changed()
      throw error
    }
    await respond(view.topic, view.id, { result })
    status(`${view.method} request answered`, 'success')
    changed()
    return result
  }

  const rejectRequest = async (id?: number): Promise<void> => {
    const { view } = take(requests, id, 'request')
    changed()
    await respond(view.topic, view.id, { error: getSdkError('USER_REJECTED') })
    status(`${view.method} request rejected`)
  }

  // --- sessions ---------------------------------------------------------------------------------

  const dropRequests = (topic: string) => {
    for (let index = requests.length - 1; index >= 0; index--) {
      if (requests[index]?.view.topic === topic) requests.splice(index, 1)
    }
  }

  const disconnect = async (topic: string): Promise<void> => {
    const name = dappName(topic)
    await client.disconnect({ topic, reason: getSdkError('USER_DISCONNECTED') })
    dropRequests(topic)
    activeChain.delete(topic)
    status(`Disconnected from ${name}`)
    changed()
  }

  client.on('session_proposal', onProposal)
  client.on('session_request', onRequest)
  client.on('session_delete', ({ topic }) => {
    dropRequests(topic)
    activeChain.delete(topic)
    status('A dapp ended its session')
    changed()
  })
  client.on('session_expire', ({ topic }) => {
    dropRequests(topic)
    status('A session expired')
    changed()
  })
  client.on('proposal_expire', ({ id }) => {
    const index = proposals.findIndex((item) => item.view.id === id)
    if (index < 0) return
    proposals.splice(index, 1)
    status('A session proposal expired')
    changed()
  })
  client.on('session_request_expire', ({ id }) => {
    const index = requests.findIndex((item) => item.view.id === id)
    if (index < 0) return
    requests.splice(index, 1)
    status('A request expired')
    changed()
  })

  // Proposals received before a reload are in the client's store; the client does not emit them again.
  const now = Date.now() / 1000
  for (const stored of client.proposal.getAll()) {
    if (stored.expiryTimestamp > now) onProposal({ id: stored.id, params: stored })
  }

  return {
    address,
    state: () => ({
      ready: true,
      autoApprove,
      proposals: proposals.map((item) => item.view),
      requests: requests.map((item) => item.view),
      sessions: sessionViews(),
    }),
    onChange(listener) {
      changeListeners.add(listener)
      return () => changeListeners.delete(listener)
    },
    onStatus(listener) {
      statusListeners.add(listener)
      return () => statusListeners.delete(listener)
    },
    async pair(uri) {
      const trimmed = uri.trim()
      if (!trimmed.startsWith('wc:')) throw new Error('A WalletConnect URI starts with "wc:"')
      try {
        await client.pair({ uri: trimmed })
        status('Paired; waiting for the proposal', 'success')
      } catch (error) {
        status(`Pairing failed: ${errorMessage(error)}`, 'error')
        throw error
      }
    },
    approveProposal,
    rejectProposal,
    approveRequest,
    rejectRequest,
    disconnect,
    async disconnectAll() {
      for (const { topic } of sessionViews()) await disconnect(topic)
    },
    setAutoApprove(on) {
      autoApprove = on
      changed()
      if (!on) return
      for (const { view } of [...proposals]) void approveProposal(view.id).catch(() => {})
      for (const { view } of [...requests]) void approveRequest(view.id).catch(() => {})
    },
  }
}

function errorMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown }
    if (typeof shortMessage === 'string') return shortMessage
    if (typeof message === 'string') return message.split('\n')[0] ?? message
  }
  return String(error)
}

function rpcError(error: unknown): { code: number; message: string } {
  const code = (error as { code?: unknown } | null)?.code
  return {
    code: typeof code === 'number' && Number.isInteger(code) ? code : INTERNAL_ERROR,
    message: errorMessage(error),
  }
}

// ---------------------------------------------------------------------------------------------------
// The page

/** Connects the client, shows the UI, installs `window.phoneWallet` and pairs `?uri=` if given. */
async function start(): Promise<void> {
  const params = new URLSearchParams(location.search)
  const index = Number(params.get('account') ?? 0)
  const account = mnemonicToAccount(DEV_MNEMONIC, {
    addressIndex: Number.isSafeInteger(index) && index >= 0 ? index : 0,
  })
  const ui = mountPhoneUi(document, account.address)
  ui.status('Connecting to the relay…')

  let client: Client
  try {
    client = await SignClient.init({
      projectId: import.meta.env.VITE_PROJECT_ID ?? 'dev-project',
      relayUrl: import.meta.env.VITE_RELAY_URL ?? 'ws://127.0.0.1:8789',
      metadata: {
        name: 'Demo Phone Wallet',
        description: 'A phone wallet stand-in for the wallet-elements demo, over WalletConnect',
        url: location.origin,
        icons: [],
      },
      telemetryEnabled: false,
      // Its own keys in the origin's storage, apart from any other client on the demo's origin.
      customStoragePrefix: 'demo-phone-wallet',
    })
  } catch (error) {
    ui.status(`Could not start the WalletConnect client: ${errorMessage(error)}`, 'error')
    throw error
  }

  const wallet = createPhoneWallet({
    client,
    account,
    rpcUrls: {
      31337: import.meta.env.VITE_LOCAL_RPC_URL ?? 'http://127.0.0.1:8545',
      31338: import.meta.env.VITE_LOCAL2_RPC_URL ?? 'http://127.0.0.1:8546',
    },
  })
  ui.attach(wallet)

  window.phoneWallet = {
    address: wallet.address,
    pair: (uri) => wallet.pair(uri),
    approveProposal: () => wallet.approveProposal(),
    rejectProposal: () => wallet.rejectProposal(),
    approveRequest: () => wallet.approveRequest(),
    rejectRequest: () => wallet.rejectRequest(),
    disconnectAll: () => wallet.disconnectAll(),
    sessions: () =>
      wallet
        .state()
        .sessions.map(({ topic, accounts, dappName, chainId }) => ({ topic, accounts, dappName, chainId })),
    pendingRequests: () => wallet.state().requests,
    pendingProposals: () => wallet.state().proposals,
    autoApprove: (on) => wallet.setAutoApprove(on),
  }

  const uri = params.get('uri')
  if (uri) {
    // Pair once: a reload of this address must not try the same pairing again.
    params.delete('uri')
    const query = params.toString()
    history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`)
    await wallet.pair(uri).catch(() => {})
  }
}

if (typeof document !== 'undefined' && document.querySelector('[data-phone-wallet]')) {
  void start()
}
