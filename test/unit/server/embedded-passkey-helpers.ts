// A software passkey for the service tests: a P-256 authenticator answering WebAuthn ceremonies as the spec lays them out.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import type { PasskeyAssertion, PasskeyRegistration } from '../../../src/protocol/embedded/index.ts'

// WebAuthn Level 3, 6.1 "Authenticator Data": the flags byte.
const USER_PRESENT = 0x01
const USER_VERIFIED = 0x04
const ATTESTED_CREDENTIAL_DATA = 0x40

/** The few CBOR items (RFC 8949) an attestation object and a COSE key need. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>

function cborHead(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value])
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value])
  if (value < 0x10000) return Buffer.from([(major << 5) | 25, value >> 8, value & 0xff])
  const head = Buffer.alloc(5)
  head[0] = (major << 5) | 26
  head.writeUInt32BE(value, 1)
  return head
}

function cbor(item: Cbor): Buffer {
  if (typeof item === 'number') return item >= 0 ? cborHead(0, item) : cborHead(1, -1 - item)
  if (typeof item === 'string') {
    const text = Buffer.from(item, 'utf8')
    return Buffer.concat([cborHead(3, text.length), text])
  }
  if (item instanceof Uint8Array) return Buffer.concat([cborHead(2, item.length), item])
  const parts = [cborHead(5, item.size)]
  for (const [key, value] of item) parts.push(cbor(key), cbor(value))
  return Buffer.concat(parts)
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest()

/** What a test may change in one answer: the page's origin, the RP ID, the flags, the counter. */
export interface CeremonyOverrides {
  origin?: string
  /** The page the frame is in, as a browser names it for a ceremony in a cross-origin frame. */
  topOrigin?: string
  rpId?: string
  userVerified?: boolean
  counter?: number
}

/**
 * A software authenticator with one discoverable ES256 credential, like a platform authenticator:
 * `register` answers `navigator.credentials.create()` (attestation `none`), `assert` answers `.get()`
 * with a counter that goes up by one each time unless told otherwise.
 *
 * @example
 * const passkey = softwarePasskey({ origin: 'http://localhost:8788', rpId: 'localhost' })
 * const credential = passkey.register(options.challenge)
 */
export function softwarePasskey(defaults: { origin: string; rpId: string }) {
  const { privateKey, publicKey }: { privateKey: KeyObject; publicKey: KeyObject } = generateKeyPairSync(
    'ec',
    {
      namedCurve: 'prime256v1',
    },
  )
  const jwk = publicKey.export({ format: 'jwk' })
  const credentialId = randomBytes(32)
  const id = credentialId.toString('base64url')
  let counter = 0

  function authenticatorData(rpId: string, flags: number, signCount: number, attested?: Buffer) {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(signCount)
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])])
  }

  function clientData(
    type: 'webauthn.create' | 'webauthn.get',
    challenge: string,
    origin: string,
    topOrigin?: string,
  ) {
    const framed = topOrigin === undefined ? { crossOrigin: false } : { crossOrigin: true, topOrigin }
    return Buffer.from(JSON.stringify({ type, challenge, origin, ...framed }))
  }

  const flagsOf = (overrides: CeremonyOverrides) =>
    USER_PRESENT | (overrides.userVerified === false ? 0 : USER_VERIFIED)

  return {
    /** The credential id, URL-safe base64. */
    id,

    /** The answer of `navigator.credentials.create()` to a ceremony's challenge. */
    register(challenge: string, overrides: CeremonyOverrides = {}): PasskeyRegistration {
      // COSE_Key (RFC 9052/9053): kty EC2, alg ES256, crv P-256, x, y.
      const coseKey = cbor(
        new Map<Cbor, Cbor>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x ?? '', 'base64url')],
          [-3, Buffer.from(jwk.y ?? '', 'base64url')],
        ]),
      )
      const length = Buffer.alloc(2)
      length.writeUInt16BE(credentialId.length)
      const attested = Buffer.concat([Buffer.alloc(16), length, credentialId, coseKey])
      const authData = authenticatorData(
        overrides.rpId ?? defaults.rpId,
        flagsOf(overrides) | ATTESTED_CREDENTIAL_DATA,
        overrides.counter ?? counter,
        attested,
      )
      const attestationObject = cbor(
        new Map<Cbor, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      )
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: clientData(
            'webauthn.create',
            challenge,
            overrides.origin ?? defaults.origin,
          ).toString('base64url'),
          attestationObject: attestationObject.toString('base64url'),
          transports: ['internal'],
        },
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
      }
    },

    /** The answer of `navigator.credentials.get()`: authenticatorData and the signature over it and the client data's hash. */
    assert(challenge: string, overrides: CeremonyOverrides = {}): PasskeyAssertion {
      counter = overrides.counter ?? counter + 1
      const authData = authenticatorData(overrides.rpId ?? defaults.rpId, flagsOf(overrides), counter)
      const client = clientData(
        'webauthn.get',
        challenge,
        overrides.origin ?? defaults.origin,
        overrides.topOrigin,
      )
      const signature = sign('sha256', Buffer.concat([authData, sha256(client)]), privateKey)
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: client.toString('base64url'),
          authenticatorData: authData.toString('base64url'),
          signature: signature.toString('base64url'),
        },
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
      }
    },
  }
}

export type SoftwarePasskey = ReturnType<typeof softwarePasskey>
