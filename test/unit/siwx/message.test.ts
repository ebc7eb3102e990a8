import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { Keypair } from '@solana/web3.js'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import {
  createCacao,
  createSiwxMessage,
  decodeBase58,
  encodeBase58,
  isChecksumAddress,
  parseSiwxMessage,
  type SiwxMessageFields,
  toChecksumAddress,
} from '../../../src/protocol/siwx/index.ts'

/** The example message of EIP-4361 ("Example message"), byte for byte. */
const eipExample = [
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

const eipExampleFields: SiwxMessageFields = {
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

const everyField: SiwxMessageFields = {
  ...eipExampleFields,
  issuedAt: '2021-09-30T16:25:24.000Z',
  expirationTime: '2021-10-01T16:25:24.000Z',
  notBefore: '2021-09-30T16:30:00.000Z',
  requestId: 'request-1:a@b',
}

const solanaKey = Keypair.fromSeed(new Uint8Array(32).fill(7))
const solanaFields: SiwxMessageFields = {
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

function validationPath(run: () => unknown): PropertyKey[] {
  try {
    run()
  } catch (error) {
    assert.equal((error as Error).name, 'ValidationError')
    assert.match((error as Error).message, /^Invalid sign-in message: /)
    return (error as { path: PropertyKey[] }).path
  }
  assert.fail('expected a ValidationError')
}

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

describe('parseSiwxMessage', () => {
  test('default: reads the EIP-4361 example into its fields', () => {
    assert.deepEqual(parseSiwxMessage(eipExample), eipExampleFields)
  })

  test('round trip: fields -> text -> the same fields, for both namespaces and every optional field', () => {
    const cases: SiwxMessageFields[] = [
      eipExampleFields,
      everyField,
      { ...everyField, scheme: 'https', domain: 'service.org:8443' },
      { ...everyField, statement: undefined, resources: [] },
      { ...everyField, requestId: '' },
      { ...everyField, domain: '127.0.0.1:4173', uri: 'http://127.0.0.1:4173/shop?x=1#top' },
      { ...everyField, domain: '[::1]:5173', uri: 'http://[::1]:5173/' },
      solanaFields,
      {
        ...solanaFields,
        chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
        resources: ['https://a.example/x'],
      },
    ]
    for (const fields of cases) {
      const expected = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
      if (expected.statement === '') delete expected.statement
      const text = createSiwxMessage(fields)
      const parsed = parseSiwxMessage(text)
      assert.deepEqual(parsed, expected, text)
      assert.equal(createSiwxMessage(parsed), text)
    }
  })

  test("interop: reads viem's createSiweMessage output", () => {
    const text = createSiweMessage({
      address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      chainId: 31337,
      domain: 'localhost:5173',
      nonce: 'abcdefgh12345678',
      uri: 'http://localhost:5173/',
      version: '1',
      issuedAt: new Date('2026-01-01T00:00:00.000Z'),
      expirationTime: new Date('2026-01-02T00:00:00.000Z'),
      resources: ['https://example.com/terms'],
    })
    assert.deepEqual(parseSiwxMessage(text), {
      domain: 'localhost:5173',
      accountAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      chainId: 'eip155:31337',
      uri: 'http://localhost:5173/',
      version: '1',
      nonce: 'abcdefgh12345678',
      issuedAt: '2026-01-01T00:00:00.000Z',
      expirationTime: '2026-01-02T00:00:00.000Z',
      resources: ['https://example.com/terms'],
    })
  })

  test('error: texts that do not follow the ABNF are refused, naming the field', () => {
    const replace = (from: string, to: string) => eipExample.replace(from, to)
    const cases: Array<[string, string]> = [
      [
        replace('wants you to sign in with your Ethereum', 'wants you to log in with your Ethereum'),
        'domain',
      ],
      [replace('Ethereum account', 'Bitcoin account'), 'chainId'],
      // EIP-55: only the checksum form of the address is valid in the text.
      [
        replace('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'),
        'accountAddress',
      ],
      [replace('Cc2\n\n', 'Cc2\n'), 'accountAddress'],
      [replace('/tos\n\n', '/tos\n'), 'statement'],
      [replace('URI: ', 'Uri: '), 'uri'],
      [replace('Version: 1', 'Version: 2'), 'version'],
      [replace('Chain ID: 1', 'Chain ID: one'), 'chainId'],
      [replace('Nonce: 32891756', 'Nonce: 1234'), 'nonce'],
      [replace('Issued At: 2021-09-30T16:25:24Z', 'Issued At: yesterday'), 'issuedAt'],
      [replace('Version: 1\nChain ID: 1', 'Chain ID: 1\nVersion: 1'), 'version'],
      [replace('- https://example.com', '* https://example.com'), 'resources'],
      [`${eipExample}\n`, 'resources'],
      [eipExample.replace('\nResources:', '\nResources: none'), 'message'],
      [eipExample.replaceAll('\n', '\r\n'), 'message'],
      ['', 'domain'],
    ]
    for (const [text, field] of cases) {
      assert.deepEqual(
        validationPath(() => parseSiwxMessage(text)),
        [field],
        JSON.stringify(text),
      )
    }
  })

  test('error: a message whose optional lines are out of order is refused', () => {
    const text = createSiwxMessage(everyField).replace(
      'Expiration Time: 2021-10-01T16:25:24.000Z\nNot Before: 2021-09-30T16:30:00.000Z',
      'Not Before: 2021-09-30T16:30:00.000Z\nExpiration Time: 2021-10-01T16:25:24.000Z',
    )
    assert.deepEqual(
      validationPath(() => parseSiwxMessage(text)),
      ['message'],
    )
  })
})

describe('EIP-55 and base58', () => {
  test('default: the EIP-55 examples', () => {
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      assert.equal(toChecksumAddress(address.toLowerCase()), address)
      assert.equal(toChecksumAddress(address.toUpperCase().replace('0X', '0x')), address)
      assert.ok(isChecksumAddress(address))
      assert.ok(!isChecksumAddress(address.toLowerCase()))
    }
    assert.equal(toChecksumAddress('0x123'), null)
  })

  test('round trip: base58 agrees with @solana/web3.js and keeps leading zeros', () => {
    assert.equal(encodeBase58(new Uint8Array(32)), '11111111111111111111111111111111')
    assert.deepEqual(decodeBase58('11111111111111111111111111111111'), new Uint8Array(32))
    assert.equal(encodeBase58(new Uint8Array()), '')
    assert.equal(decodeBase58('0OIl'), null)
    for (let seed = 1; seed <= 20; seed++) {
      const key = Keypair.fromSeed(new Uint8Array(32).fill(seed)).publicKey
      assert.equal(encodeBase58(key.toBytes()), key.toBase58())
      assert.deepEqual(decodeBase58(key.toBase58()), key.toBytes())
    }
    const withZeros = new Uint8Array([0, 0, 1, 2, 255])
    assert.deepEqual(decodeBase58(encodeBase58(withZeros)), withZeros)
  })
})

describe('createCacao', () => {
  test('default: CAIP-74 header, payload and signature of an Ethereum message', () => {
    const message = parseSiwxMessage(createSiwxMessage(everyField))
    assert.deepEqual(createCacao(message, { t: 'eip191', s: '0xabc' }), {
      h: { t: 'eip4361' },
      p: {
        domain: 'service.org',
        iss: 'did:pkh:eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
        aud: 'https://service.org/login',
        version: '1',
        nonce: '32891756',
        iat: '2021-09-30T16:25:24.000Z',
        nbf: '2021-09-30T16:30:00.000Z',
        exp: '2021-10-01T16:25:24.000Z',
        statement: everyField.statement,
        requestId: 'request-1:a@b',
        resources: everyField.resources,
      },
      s: { t: 'eip191', s: '0xabc' },
    })
  })

  test('args: a Solana message is a CAIP-122 CACAO', () => {
    const cacao = createCacao(parseSiwxMessage(createSiwxMessage(solanaFields)), {
      t: 'solana:ed25519',
      s: 'sig',
    })
    assert.deepEqual(cacao.h, { t: 'caip122' })
    assert.equal(
      cacao.p.iss,
      `did:pkh:solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${solanaFields.accountAddress}`,
    )
    assert.equal(cacao.p.exp, solanaFields.expirationTime)
    assert.equal('nbf' in cacao.p, false)
  })
})
