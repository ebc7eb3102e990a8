// The Demo Phone Wallet's logic over a WalletConnect sign client: proposals, requests and sessions,
// without a screen.

import type { SessionTypes } from '@walletconnect/types'
import { getSdkError } from '@walletconnect/utils'
import type { HDAccount } from 'viem/accounts'
import { errorMessage, rpcError } from './errors.ts'
import { buildNamespaces, proposalView } from './namespaces.ts'
import { type Action, createRequestActions } from './requests.ts'
import type { NamespaceSigner } from './signer.ts'
import type {
  Client,
  PhoneWallet,
  ProposalEvent,
  ProposalView,
  RequestEvent,
  RequestView,
  SessionView,
  StatusLine,
} from './types.ts'

type PendingRequest = { view: RequestView; action: Action }
type PendingProposal = { view: ProposalView; namespaces: SessionTypes.Namespaces }

export type PhoneWalletOptions = {
  client: Client
  account: HDAccount
  /** RPC URL per EVM chain id, for transactions. */
  rpcUrls: Record<number, string>
  /** The accounts it offers in other namespaces (bip122, polkadot, cosmos), when a dapp asks. */
  signers?: readonly NamespaceSigner[]
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
export function createPhoneWallet({
  client,
  account,
  rpcUrls,
  signers = [],
}: PhoneWalletOptions): PhoneWallet {
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
    const outcome = buildNamespaces(event.params, address, signers)
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
  const { actionFor } = createRequestActions({ client, account, rpc, activeChain })

  /** Requests whose summary is still being prepared (a bip122 payment reads the node first). */
  const preparing = new Set<number>()
  const onRequest = async (event: RequestEvent) => {
    const { topic, id } = event
    // The client emits requests still unanswered again after a reload (and may repeat one).
    if (preparing.has(id) || requests.some((item) => item.view.id === id)) return
    const { request, chainId } = event.params
    const name = dappName(topic)
    let action: Action | undefined
    preparing.add(id)
    try {
      const signer = signers.find((candidate) => chainId.startsWith(`${candidate.namespace}:`))
      action = signer
        ? await signer.actionFor(request.method, request.params, chainId, id)
        : actionFor(request.method, request.params, chainId, topic)
    } catch (error) {
      status(`Refused ${request.method} from ${name}: ${errorMessage(error)}`, 'error')
      void respond(topic, id, { error: rpcError(error) }).catch(() => {})
      return
    } finally {
      preparing.delete(id)
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
