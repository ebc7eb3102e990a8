// Which WalletConnect sessions the Demo Phone Wallet approves: the namespaces it answers a proposal with,
// and the proposal as shown.
import type { ProposalTypes, SessionTypes } from '@walletconnect/types'
import { getSdkError } from '@walletconnect/utils'
import type { Address } from 'viem'
import type { NamespaceSigner } from './signer.ts'
import type { ProposalEvent, ProposalView } from './types.ts'

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

type NamespacesOutcome =
  | { ok: true; namespaces: SessionTypes.Namespaces; leftOut: string[] }
  | { ok: false; reason: { code: number; message: string } }

const isEip155Key = (key: string): boolean => key === 'eip155' || /^eip155:\d+$/.test(key)
const isEip155Chain = (chain: string): boolean => /^eip155:[1-9]\d*$/.test(chain)

const signerFor = (key: string, signers: readonly NamespaceSigner[]) =>
  signers.find((signer) => key === signer.namespace || key.startsWith(`${signer.namespace}:`))

/**
 * The session namespaces this wallet approves for a proposal: one `eip155` namespace with every EVM
 * chain requested (required or optional; 31337 and 31338 when none is named), the dev address on each,
 * the requested methods and events plus `chainChanged` and `accountsChanged`; and for each of the
 * `signers`' namespaces (bip122, polkadot, cosmos) the requested chains it has an account on, with
 * the requested methods it serves and its events. Other optional namespaces, or one with no chain
 * served, are left out; another required namespace, or nothing this wallet serves, fails with the
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
  signers: readonly NamespaceSigner[] = [],
): NamespacesOutcome {
  const required = proposal.requiredNamespaces ?? {}
  const optional = proposal.optionalNamespaces ?? {}
  const unsupported = Object.keys(required).filter((key) => !isEip155Key(key) && !signerFor(key, signers))
  if (unsupported.length > 0) {
    return { ok: false, reason: getSdkError('UNSUPPORTED_NAMESPACE_KEY', unsupported.join(', ')) }
  }
  const badChains = Object.entries(required).flatMap(([key, namespace]) => {
    const signer = signerFor(key, signers)
    return chainsOf(key, namespace).filter((chain) =>
      signer ? !signer.addressOn(chain) : !isEip155Chain(chain),
    )
  })
  if (badChains.length > 0) {
    return { ok: false, reason: getSdkError('UNSUPPORTED_CHAINS', badChains.join(', ')) }
  }

  const chains = new Set<string>()
  const methods = new Set<string>()
  const events = new Set<string>()
  const leftOut: string[] = []
  let requested = false
  const others: SessionTypes.Namespaces = {}
  for (const [key, namespace] of [...Object.entries(required), ...Object.entries(optional)]) {
    const signer = signerFor(key, signers)
    if (signer) {
      const served = chainsOf(key, namespace).filter((chain) => signer.addressOn(chain))
      if (served.length === 0) {
        leftOut.push(key)
        continue
      }
      const asked = namespace.methods ?? []
      const entry = others[signer.namespace] ?? { chains: [], accounts: [], methods: [], events: [] }
      others[signer.namespace] = entry
      for (const chain of served) {
        if (entry.chains?.includes(chain)) continue
        entry.chains?.push(chain)
        entry.accounts.push(`${chain}:${signer.addressOn(chain)}`)
      }
      const methods =
        asked.length > 0 ? signer.methods.filter((method) => asked.includes(method)) : signer.methods
      entry.methods = [...new Set([...entry.methods, ...methods])]
      entry.events = [...new Set([...entry.events, ...signer.events])]
      continue
    }
    if (!isEip155Key(key)) {
      leftOut.push(key)
      continue
    }
    requested = true
    for (const chain of chainsOf(key, namespace)) if (isEip155Chain(chain)) chains.add(chain)
    for (const method of namespace.methods ?? []) methods.add(method)
    for (const event of namespace.events ?? []) events.add(event)
  }
  const approvedOthers = Object.keys(others).length > 0
  if (!requested && approvedOthers) return { ok: true, leftOut, namespaces: others }
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
      ...others,
    },
  }
}

function chainsOf(key: string, namespace: ProposalTypes.RequiredNamespace): string[] {
  return namespace.chains ?? (key.includes(':') ? [key] : [])
}

export function proposalView(event: ProposalEvent, leftOut: string[]): ProposalView {
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
