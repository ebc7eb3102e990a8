import type { SiwxMessage } from './message.ts'

/**
 * How a CACAO's signature was made: EIP-191 (accounts with a key), EIP-1271 or EIP-6492 (smart accounts),
 * ed25519 (Solana), BIP-322's simple form or the legacy "Bitcoin Signed Message" ECDSA signature (Bitcoin).
 */
export type CacaoSignatureType =
  | 'eip191'
  | 'eip1271'
  | 'eip6492'
  | 'solana:ed25519'
  | 'bip122:bip322-simple'
  | 'bip122:ecdsa'

/**
 * The signature type a wallet's sign-in signature has, by its namespace and (Bitcoin) its form, for a
 * CACAO the site's own verifier keeps: 65 base64 bytes with a BIP-137 header are the legacy ECDSA
 * signature, anything else BIP-322's simple witness.
 *
 * @example
 * cacaoSignatureType('solana', signature) // 'solana:ed25519'
 */
export function cacaoSignatureType(namespace: string, signature: string): CacaoSignatureType {
  if (namespace === 'solana') return 'solana:ed25519'
  if (namespace !== 'bip122') return 'eip191'
  let header = -1
  let length = 0
  try {
    const bytes = atob(signature)
    length = bytes.length
    header = bytes.charCodeAt(0)
  } catch {
    // Not base64: the verifier refuses it whatever the type says.
  }
  return length === 65 && header >= 27 && header <= 42 ? 'bip122:ecdsa' : 'bip122:bip322-simple'
}

/**
 * A CAIP-74 CACAO (chain-agnostic capability object) recording a signed sign-in message: the header says
 * which message format was signed (`eip4361` for Ethereum, `caip122` otherwise), the payload holds its
 * fields under CACAO's names, and the signature its type and value.
 */
export interface Cacao {
  h: { t: 'eip4361' | 'caip122' }
  p: {
    domain: string
    /** The signer as a `did:pkh` (CAIP-10 account id after `did:pkh:`). */
    iss: string
    /** The message's URI. */
    aud: string
    version: string
    nonce: string
    iat: string
    nbf?: string
    exp?: string
    statement?: string
    requestId?: string
    resources?: string[]
  }
  s: { t: CacaoSignatureType; s: string }
}

/**
 * The CAIP-74 CACAO of a parsed sign-in message and its signature.
 *
 * @example
 * const cacao = createCacao(parseSiwxMessage(message), { t: 'eip191', s: signature })
 * cacao.p.iss // 'did:pkh:eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
 */
export function createCacao(message: SiwxMessage, signature: Cacao['s']): Cacao {
  return {
    h: { t: message.chainId.startsWith('eip155:') ? 'eip4361' : 'caip122' },
    p: {
      domain: message.domain,
      iss: `did:pkh:${message.chainId}:${message.accountAddress}`,
      aud: message.uri,
      version: message.version,
      nonce: message.nonce,
      iat: message.issuedAt,
      ...(message.notBefore === undefined ? {} : { nbf: message.notBefore }),
      ...(message.expirationTime === undefined ? {} : { exp: message.expirationTime }),
      ...(message.statement === undefined ? {} : { statement: message.statement }),
      ...(message.requestId === undefined ? {} : { requestId: message.requestId }),
      ...(message.resources === undefined ? {} : { resources: [...message.resources] }),
    },
    s: { t: signature.t, s: signature.s },
  }
}
