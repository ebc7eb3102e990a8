// createSiwxMessage for eip155 (EIP-4361) and solana (CAIP-122); parsing and CACAOs are in message-parse.test.ts.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import {
  createSiwxMessage,
  decodeBase58,
  parseSiwxMessage,
  type SiwxMessageFields,
} from '../../../src/protocol/siwx/index.ts'
import {
  eipExample,
  eipExampleFields,
  everyField,
  solanaFields,
  solanaKey,
  validationPath,
} from './message-helpers.ts'

describe('createSiwxMessage (eip155: EIP-4361)', () => {
  test('default: builds the EIP-4361 example message exactly', () => {
    assert.equal(createSiwxMessage(eipExampleFields), eipExample)
  })

  test('args: a lower-case address is written in its EIP-55 checksum form', () => {
    const text = createSiwxMessage({
      ...eipExampleFields,
      accountAddress: eipExampleFields.accountAddress.toLowerCase(),
    })
    assert.equal(text, eipExample)
  })

  test('args: without a statement the ABNF leaves two empty lines between address and URI', () => {
    const { statement: _, ...fields } = eipExampleFields
    const text = createSiwxMessage({ ...fields, resources: undefined })
    assert.equal(
      text,
      [
        'service.org wants you to sign in with your Ethereum account:',
        '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
        '',
        '',
        'URI: https://service.org/login',
        'Version: 1',
        'Chain ID: 1',
        'Nonce: 32891756',
        'Issued At: 2021-09-30T16:25:24Z',
      ].join('\n'),
    )
    // An empty statement is no statement.
    assert.equal(createSiwxMessage({ ...fields, statement: '', resources: undefined }), text)
  })

  test('args: the optional lines follow the ABNF order, and a scheme goes in front of the domain', () => {
    const text = createSiwxMessage({ ...everyField, scheme: 'https', domain: 'service.org:8443' })
    assert.equal(
      text,
      [
        'https://service.org:8443 wants you to sign in with your Ethereum account:',
        '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
        '',
        'I accept the ServiceOrg Terms of Service: https://service.org/tos',
        '',
        'URI: https://service.org/login',
        'Version: 1',
        'Chain ID: 1',
        'Nonce: 32891756',
        'Issued At: 2021-09-30T16:25:24.000Z',
        'Expiration Time: 2021-10-01T16:25:24.000Z',
        'Not Before: 2021-09-30T16:30:00.000Z',
        'Request ID: request-1:a@b',
        'Resources:',
        '- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/',
        '- https://example.com/my-web2-claim.json',
      ].join('\n'),
    )
  })

  test("interop: the text is byte for byte viem's createSiweMessage for the same fields", () => {
    const cases: SiwxMessageFields[] = [
      everyField,
      { ...everyField, statement: undefined },
      { ...everyField, resources: undefined, requestId: undefined },
      { ...everyField, scheme: 'https', chainId: 'eip155:31337' },
    ]
    for (const fields of cases) {
      const viemText = createSiweMessage({
        address: fields.accountAddress as `0x${string}`,
        chainId: Number(fields.chainId.split(':')[1]),
        domain: fields.domain,
        nonce: fields.nonce,
        uri: fields.uri,
        version: '1',
        issuedAt: new Date(fields.issuedAt ?? ''),
        ...(fields.statement === undefined ? {} : { statement: fields.statement }),
        ...(fields.expirationTime === undefined ? {} : { expirationTime: new Date(fields.expirationTime) }),
        ...(fields.notBefore === undefined ? {} : { notBefore: new Date(fields.notBefore) }),
        ...(fields.requestId === undefined ? {} : { requestId: fields.requestId }),
        ...(fields.resources === undefined ? {} : { resources: [...fields.resources] }),
        ...(fields.scheme === undefined ? {} : { scheme: fields.scheme }),
      })
      assert.equal(createSiwxMessage(fields), viemText)
    }
  })

  test("interop: viem's parseSiweMessage reads our text into the same fields", () => {
    const text = createSiwxMessage({ ...everyField, scheme: 'https' })
    const parsed = parseSiweMessage(text)
    assert.deepEqual(parsed, {
      scheme: 'https',
      domain: everyField.domain,
      address: everyField.accountAddress,
      statement: everyField.statement,
      uri: everyField.uri,
      version: '1',
      chainId: 1,
      nonce: everyField.nonce,
      issuedAt: new Date(everyField.issuedAt ?? ''),
      expirationTime: new Date(everyField.expirationTime ?? ''),
      notBefore: new Date(everyField.notBefore ?? ''),
      requestId: everyField.requestId,
      resources: everyField.resources,
    })
  })

  test('args: issuedAt defaults to now', () => {
    const { issuedAt: _, ...fields } = eipExampleFields
    const before = Date.now()
    const parsed = parseSiwxMessage(createSiwxMessage(fields))
    const issuedAt = Date.parse(parsed.issuedAt)
    assert.ok(issuedAt >= before && issuedAt <= Date.now())
  })

  test('error: each bad field is named', () => {
    const cases: Array<[Partial<SiwxMessageFields>, string]> = [
      [{ nonce: 'short' }, 'nonce'],
      [{ nonce: 'has-dash-1234' }, 'nonce'],
      [{ version: '2' }, 'version'],
      [{ domain: 'a b.com' }, 'domain'],
      [{ uri: 'not a uri' }, 'uri'],
      [{ statement: 'two\nlines' }, 'statement'],
      [{ chainId: 'eip155' }, 'chainId'],
      [{ chainId: 'cosmos:cosmoshub-4' }, 'chainId'],
      [{ chainId: 'eip155:0x1' }, 'chainId'],
      [{ accountAddress: '0x123' }, 'accountAddress'],
      // Mixed case with a wrong checksum is a typo, not an address.
      [{ accountAddress: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756cc2' }, 'accountAddress'],
      [{ issuedAt: '2021-09-30 16:25:24' }, 'issuedAt'],
      [{ expirationTime: 'tomorrow' }, 'expirationTime'],
      [{ notBefore: '2021-13-45T99:99:99Z' }, 'notBefore'],
      [{ requestId: 'a b' }, 'requestId'],
      [{ resources: ['https://ok.example', 'not a uri'] }, 'resources'],
      [{ scheme: '1http' }, 'scheme'],
    ]
    for (const [override, field] of cases) {
      assert.deepEqual(
        validationPath(() => createSiwxMessage({ ...eipExampleFields, ...override })),
        [field],
        JSON.stringify(override),
      )
    }
  })
})

describe('createSiwxMessage (solana: CAIP-122)', () => {
  test('default: the same layout with the Solana chain name and the CAIP-2 reference as Chain ID', () => {
    assert.equal(
      createSiwxMessage(solanaFields),
      [
        'localhost:5173 wants you to sign in with your Solana account:',
        solanaKey.publicKey.toBase58(),
        '',
        'Sign in to the demo',
        '',
        'URI: http://localhost:5173/',
        'Version: 1',
        'Chain ID: 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
        'Nonce: Q7p0dLk2wXb9YzR4sT6uVh1m',
        'Issued At: 2026-01-01T00:00:00.000Z',
        'Expiration Time: 2026-01-01T00:05:00.000Z',
      ].join('\n'),
    )
  })

  test('error: a Solana address must be a base58 32-byte key', () => {
    for (const accountAddress of [
      '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      'O0Il'.repeat(10),
      '1'.repeat(31),
    ]) {
      assert.deepEqual(
        validationPath(() => createSiwxMessage({ ...solanaFields, accountAddress })),
        ['accountAddress'],
      )
    }
  })

  test('interop: a signature over the UTF-8 text verifies with the address as the ed25519 key', () => {
    const text = createSiwxMessage({ ...solanaFields, statement: 'Grüße, sign in ✓' })
    const bytes = new TextEncoder().encode(text)
    const signature = ed25519.sign(bytes, solanaKey.secretKey.slice(0, 32))
    const publicKey = decodeBase58(parseSiwxMessage(text).accountAddress)
    assert.ok(publicKey)
    assert.ok(ed25519.verify(signature, bytes, publicKey))
  })
})
