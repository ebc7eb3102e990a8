/**
 * Signature checks of sign-in messages: EIP-191 for accounts with a key, EIP-1271 and EIP-6492 for smart
 * accounts (through viem, on the chain's RPC upstream), ed25519 for Solana, BIP-322 or the legacy
 * message signature for Bitcoin (./bitcoin.ts).
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import {
  createPublicClient,
  type Hex,
  http,
  isErc6492Signature,
  type PublicClient,
  verifyMessage,
} from 'viem'
import type { CacaoSignatureType } from '../../src/protocol/siwx/index.ts'
import { decodeBase58, siwxChain } from '../../src/protocol/siwx/index.ts'
import { ServiceError } from '../errors.ts'
import { summarizeUpstreamFailure } from '../rpc/redact.ts'
import { verifyBitcoinSignature } from './bitcoin.ts'
import { AuthError, smartAccountNotSupported } from './errors.ts'

/** Where and how to reach each network's RPC node. */
export interface SignatureCheckOptions {
  /** CAIP-2 network id -> JSON-RPC URL (the service's `RPC_UPSTREAMS`). */
  upstreams: Readonly<Record<string, string>>
  timeoutMs: number
}

export interface SignatureChecker {
  /**
   * Checks that `signature` signs `message` for `address` on `chainId`, resolving to the CACAO signature
   * type, or throws: `INVALID_SIGNATURE`, `SMART_ACCOUNT_NOT_SUPPORTED` (the address has code, or the
   * signature can only be a smart account's, and it did not verify), `400` for a malformed signature,
   * `502` when the upstream could not be asked.
   */
  verify(parameters: {
    chainId: string
    address: string
    message: string
    signature: string
  }): Promise<CacaoSignatureType>
}

const hexSignature = /^0x(?:[0-9a-fA-F]{2})+$/

function invalidSignature(): AuthError {
  return new AuthError(401, 'INVALID_SIGNATURE', 'The signature does not match the message and address', {
    field: 'signature',
  })
}

function malformedSignature(expected: string): ServiceError {
  return new ServiceError(400, 'BAD_REQUEST', `Invalid body field signature: ${expected}`, {
    field: 'signature',
  })
}

function solanaSignatureBytes(signature: string): Uint8Array | null {
  if (hexSignature.test(signature)) return Buffer.from(signature.slice(2), 'hex')
  return decodeBase58(signature)
}

/**
 * Makes the signature checker, keeping one viem public client per network.
 *
 * @example
 * const checker = createSignatureChecker({ upstreams: config.rpcUpstreams, timeoutMs: config.rpcTimeoutMs })
 * const type = await checker.verify({ chainId: 'eip155:1', address, message, signature })
 */
export function createSignatureChecker(options: SignatureCheckOptions): SignatureChecker {
  const clients = new Map<string, PublicClient>()
  const clientFor = (chainId: string): PublicClient | null => {
    const url = options.upstreams[chainId]
    if (url === undefined) return null
    let client = clients.get(chainId)
    if (!client) {
      client = createPublicClient({
        transport: http(url, { timeout: options.timeoutMs, retryCount: 0 }),
      })
      clients.set(chainId, client)
    }
    return client
  }

  async function verifyEvm(chainId: string, address: Hex, message: string, signature: string) {
    if (!hexSignature.test(signature)) throw malformedSignature('Expected 0x and hex bytes')
    const hex = signature as Hex
    // A key's signature (65 bytes) is checked here, without asking the chain.
    if (hex.length === 132) {
      const recovered = await verifyMessage({ address, message, signature: hex }).catch(() => false)
      if (recovered) return 'eip191' as const
    }
    const counterfactual = isErc6492Signature(hex)
    const client = clientFor(chainId)
    if (client === null) {
      // Without the chain, only a key's signature can be checked.
      if (hex.length === 132 && !counterfactual) throw invalidSignature()
      throw smartAccountNotSupported()
    }
    // EIP-1271 for deployed smart accounts, EIP-6492 for counterfactual ones (viem's universal validator).
    let code: Hex | undefined
    try {
      if (await client.verifyMessage({ address, message, signature: hex })) {
        return counterfactual ? ('eip6492' as const) : ('eip1271' as const)
      }
      // viem answers false when the node cannot be reached too; asking for the code tells them apart.
      code = await client.getCode({ address })
    } catch (error) {
      // viem's errors quote the upstream URL, which may hold an API key: only a summary goes on.
      const url = options.upstreams[chainId] ?? ''
      const summary = summarizeUpstreamFailure(error, [url])
      throw new ServiceError(
        502,
        'UPSTREAM_ERROR',
        `The RPC upstream for ${chainId} could not check the signature of ${address}`,
        { cause: new Error(JSON.stringify(summary)) },
      )
    }
    if (counterfactual || (code !== undefined && code !== '0x')) throw smartAccountNotSupported()
    throw invalidSignature()
  }

  function verifySolana(address: string, message: string, signature: string): 'solana:ed25519' {
    const bytes = solanaSignatureBytes(signature)
    if (bytes === null || bytes.length !== 64) {
      throw malformedSignature('Expected the 64-byte ed25519 signature in base58 or 0x hex')
    }
    const publicKey = decodeBase58(address)
    if (publicKey === null || publicKey.length !== 32) throw invalidSignature()
    let valid = false
    try {
      // Strict RFC 8032 verification (no ZIP-215 leniency), over the message's UTF-8 bytes.
      valid = ed25519.verify(bytes, new TextEncoder().encode(message), publicKey, { zip215: false })
    } catch {
      valid = false
    }
    if (!valid) throw invalidSignature()
    return 'solana:ed25519'
  }

  function verifyBitcoin(reference: string, address: string, message: string, signature: string) {
    const result = verifyBitcoinSignature({ reference, address, message, signature })
    if (result === 'malformed') {
      throw malformedSignature('Expected a base64 BIP-322 simple signature or a 65-byte message signature')
    }
    if (result === 'invalid') throw invalidSignature()
    return result
  }

  return {
    async verify({ chainId, address, message, signature }) {
      const { namespace, reference } = siwxChain(chainId)
      if (namespace === 'solana') return verifySolana(address, message, signature)
      if (namespace === 'bip122') return verifyBitcoin(reference, address, message, signature)
      return verifyEvm(chainId, address as Hex, message, signature)
    },
  }
}
