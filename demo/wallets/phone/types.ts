// The Demo Phone Wallet's shapes: what the UI shows (proposals, requests, sessions) and what it and the
// tests call.
import type { SignClient } from '@walletconnect/sign-client'
import type { SignClientTypes } from '@walletconnect/types'
import type { Address } from 'viem'

export type Client = Awaited<ReturnType<typeof SignClient.init>>
/** A proposal as the client emits it, or as restored from its store after a reload (no Verify context). */
export type ProposalEvent = Omit<SignClientTypes.EventArguments['session_proposal'], 'verifyContext'> & {
  verifyContext?: SignClientTypes.EventArguments['session_proposal']['verifyContext']
}
export type RequestEvent = SignClientTypes.EventArguments['session_request']

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
