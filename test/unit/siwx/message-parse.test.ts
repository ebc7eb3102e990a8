// parseSiwxMessage, EIP-55 and base58 addresses in messages, and createCacao.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Keypair } from '@solana/web3.js'
import { createSiweMessage } from 'viem/siwe'
import {
  cacaoSignatureType,
  createCacao,
  createSiwxMessage,
  decodeBase58,
  encodeBase58,
  isChecksumAddress,
  parseSiwxMessage,
  type SiwxMessageFields,
  toChecksumAddress,
} from '../../../src/protocol/siwx/index.ts'
import { eipExample, eipExampleFields, everyField, solanaFields, validationPath } from './message-helpers.ts'

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
      // Bitcoin (bip122): regtest native segwit, mainnet taproot and a legacy testnet address.
      {
        ...solanaFields,
        chainId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
        accountAddress: 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw',
      },
      {
        ...solanaFields,
        chainId: 'bip122:000000000019d6689c085ae165831e93',
        accountAddress: 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3',
      },
      {
        ...solanaFields,
        chainId: 'bip122:000000000933ea01ad0ee984209779ba',
        accountAddress: 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn',
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

  test('error: a Bitcoin message names a Bitcoin address, in words', () => {
    const fields = { ...solanaFields, chainId: 'bip122:000000000019d6689c085ae165831e93' }
    assert.match(
      createSiwxMessage({ ...fields, accountAddress: 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l' }),
      /^localhost:5173 wants you to sign in with your Bitcoin account:\nbc1q9vza/,
    )
    for (const accountAddress of [
      solanaFields.accountAddress,
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      'bc1',
    ]) {
      assert.throws(() => createSiwxMessage({ ...fields, accountAddress }), {
        message: 'Invalid sign-in message: the address must be a Bitcoin address',
      })
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
      [replace('Ethereum account', 'Dogecoin account'), 'chainId'],
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

  test("args: the signature type by namespace, and for Bitcoin by the signature's form", () => {
    assert.equal(cacaoSignatureType('eip155', '0xabc'), 'eip191')
    assert.equal(cacaoSignatureType('solana', 'sig'), 'solana:ed25519')
    const legacy = btoa(String.fromCharCode(39, ...new Array(64).fill(1)))
    assert.equal(cacaoSignatureType('bip122', legacy), 'bip122:ecdsa')
    // BIP-322's published P2WPKH vector for "Hello World".
    const simple =
      'AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI='
    assert.equal(cacaoSignatureType('bip122', simple), 'bip122:bip322-simple')
    assert.equal(cacaoSignatureType('bip122', 'not base64!'), 'bip122:bip322-simple')
  })
})
