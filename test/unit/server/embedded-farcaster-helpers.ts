// Shared set-up of the Farcaster tests: the relay stand-in, a chain-10 stand-in and the embedded wallet.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import {
  FARCASTER_CHAIN_ID,
  type FarcasterRegistries,
  installFarcasterRegistries,
} from '../../../server/dev/farcaster/registries.ts'
import { type FarcasterRelay, startFarcasterRelay } from '../../../server/dev/farcaster/relay.ts'
import { EmbeddedError } from '../../../server/embedded/errors.ts'
import { createFarcasterVerifier, type FarcasterVerifier } from '../../../server/embedded/farcaster.ts'
import { type EmbeddedTestApp, startEmbeddedTestApp } from './embedded-helpers.ts'
import { freePort, openTestDatabase, type TestDatabase } from './helpers.ts'

/**
 * Sign In With Farcaster on the service, as an attacker would try it: approvals signed by the fid's
 * custody key on a local chain with chain id 10 holding the ID and key registry stand-ins at their
 * canonical addresses, against approvals with another nonce, another domain, or another signer.
 */

export const DOMAIN = '127.0.0.1:8788'
export const FID = 4242n
export const custody = privateKeyToAccount(generatePrivateKey())
export const stranger = privateKeyToAccount(generatePrivateKey())
export const authAddress = privateKeyToAccount(generatePrivateKey())

export let chain: LocalChain
export let registries: FarcasterRegistries
export let verify: FarcasterVerifier
export let testDb: TestDatabase
export let t: EmbeddedTestApp
export let relay: FarcasterRelay
export const RELAY_KEY = 'dev-relay-key-for-tests'
export const clock = { now: Date.now() }

/** The message a Farcaster app signs for a channel (EIP-4361 with Farcaster's fields). */
export function approvalMessage(overrides: {
  chainId?: number

  nonce?: string
  domain?: string
  fid?: bigint
  address?: `0x${string}`
}) {
  return createSiweMessage({
    domain: overrides.domain ?? DOMAIN,
    address: overrides.address ?? custody.address,
    statement: 'Farcaster Auth',
    uri: `http://${DOMAIN}/embedded/farcaster`,
    version: '1',
    chainId: overrides.chainId ?? FARCASTER_CHAIN_ID,
    nonce: overrides.nonce ?? 'ourNonce12345678',
    issuedAt: new Date(),
    resources: [`farcaster://fid/${overrides.fid ?? FID}`],
  })
}

export async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail('the approval was accepted'),
    (cause: unknown) => cause,
  )
  assert.ok(error instanceof EmbeddedError, String(error))
  assert.equal(error.statusCode, 400)
  return error.message
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startFarcasterWallet() {
  before(async () => {
    chain = await startChain({ port: await freePort(), chainId: FARCASTER_CHAIN_ID })
    registries = await installFarcasterRegistries(chain.url)
    await registries.register(custody.address, FID)
    await registries.addAuthAddress(FID, authAddress.address)
    verify = createFarcasterVerifier({ rpcUrl: chain.url, domain: DOMAIN })
    relay = await startFarcasterRelay({
      port: 0,
      appUrl: 'http://127.0.0.1:9/farcaster-app',
      relayKey: RELAY_KEY,
      now: () => clock.now,
    })
    testDb = await openTestDatabase('embedded_farcaster')
    t = await startEmbeddedTestApp(testDb, 'farcaster-project', {
      farcaster: { relayUrl: relay.url, rpcUrl: chain.url },
    })
  })
  after(async () => {
    await relay?.stop()
    await t?.close()
    await testDb?.close()
    await chain?.stop()
  })
}
