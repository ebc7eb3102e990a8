// What the SIWX message tests share: the EIP-4361 example message, field sets for both namespaces, a
// validation-path probe.
import assert from 'node:assert/strict'
import { Keypair } from '@solana/web3.js'
import type { SiwxMessageFields } from '../../../src/protocol/siwx/index.ts'

/** The example message of EIP-4361 ("Example message"), byte for byte. */
export const eipExample = [
  'service.org wants you to sign in with your Ethereum account:',
  '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  '',
  'I accept the ServiceOrg Terms of Service: https://service.org/tos',
  '',
  'URI: https://service.org/login',
  'Version: 1',
  'Chain ID: 1',
  'Nonce: 32891756',
  'Issued At: 2021-09-30T16:25:24Z',
  'Resources:',
  '- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/',
  '- https://example.com/my-web2-claim.json',
].join('\n')

export const eipExampleFields: SiwxMessageFields = {
  domain: 'service.org',
  accountAddress: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  statement: 'I accept the ServiceOrg Terms of Service: https://service.org/tos',
  uri: 'https://service.org/login',
  version: '1',
  chainId: 'eip155:1',
  nonce: '32891756',
  issuedAt: '2021-09-30T16:25:24Z',
  resources: [
    'ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/',
    'https://example.com/my-web2-claim.json',
  ],
}

export const everyField: SiwxMessageFields = {
  ...eipExampleFields,
  issuedAt: '2021-09-30T16:25:24.000Z',
  expirationTime: '2021-10-01T16:25:24.000Z',
  notBefore: '2021-09-30T16:30:00.000Z',
  requestId: 'request-1:a@b',
}

export const solanaKey = Keypair.fromSeed(new Uint8Array(32).fill(7))

export const solanaFields: SiwxMessageFields = {
  domain: 'localhost:5173',
  accountAddress: solanaKey.publicKey.toBase58(),
  statement: 'Sign in to the demo',
  uri: 'http://localhost:5173/',
  version: '1',
  chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  nonce: 'Q7p0dLk2wXb9YzR4sT6uVh1m',
  issuedAt: '2026-01-01T00:00:00.000Z',
  expirationTime: '2026-01-01T00:05:00.000Z',
}

export function validationPath(run: () => unknown): PropertyKey[] {
  try {
    run()
  } catch (error) {
    assert.equal((error as Error).name, 'ValidationError')
    assert.match((error as Error).message, /^Invalid sign-in message: /)
    return (error as { path: PropertyKey[] }).path
  }
  assert.fail('expected a ValidationError')
}
