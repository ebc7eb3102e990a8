// Shared set-up of the embedded wallet's request tests: a service on a local chain and approval helpers.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import type { Address } from 'viem'
import { type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { type LocalSolana, startSolana } from '../../../server/dev/solana/index.ts'
import { approvalResponse, embeddedErrorBody } from '../../../src/protocol/embedded/index.ts'
import { type EmbeddedTestApp, startEmbeddedTestApp } from './embedded-helpers.ts'
import { type SessionWithKeys, signAndApprove, signInWithKeys } from './embedded-keys-helpers.ts'
import { freePort, openTestDatabase, type TestDatabase } from './helpers.ts'

export const EVM = 'eip155:31337'
export const SOLANA = 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9'

export let testDb: TestDatabase
export let t: EmbeddedTestApp
export let chain: LocalChain
export let solana: LocalSolana
export let session: SessionWithKeys
export let other: SessionWithKeys

export const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error

export const signIn = (email: string) => signInWithKeys(t, email)

export const evmAddress = () => session.user.accounts.eip155.address as Address
export const solanaAddress = () => session.user.accounts.solana.address

/** Stores a request, then approves it as the person would in the frame (which signs its plan). */
export async function approved(chainId: string, method: string, params: unknown, by = session) {
  const stored = await t.call('/embedded/v1/requests', { chainId, method, params }, { token: by.token })
  assert.equal(stored.status, 200, JSON.stringify(stored.body))
  const created = approvalResponse.parse(stored.body)
  const answer = await signAndApprove(t, by, created)
  return { ...created, answer }
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startRequestsWallet() {
  before(async () => {
    const port = await freePort()
    ;[testDb, chain, solana] = await Promise.all([
      openTestDatabase('embedded_requests'),
      startChain({ port, chainId: 31337 }),
      startSolana({ port: 0 }),
    ])
    t = await startEmbeddedTestApp(testDb, 'requests-project', {
      rpcUpstreams: { [EVM]: chain.url, [SOLANA]: solana.url },
    })
    session = await signIn(`signer.${Date.now()}@example.com`)
    other = await signIn(`other.${Date.now()}@example.com`)
  })
  after(async () => {
    await t?.close()
    await Promise.all([testDb?.close(), chain?.stop(), solana?.stop()])
  })
}
