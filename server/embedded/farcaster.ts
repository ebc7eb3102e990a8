/**
 * Sign In With Farcaster for the embedded wallet (SPEC 1): the EIP-4361 message the
 * visitor's Farcaster app signed (statement `Farcaster Auth`, `Chain ID: 10`, resource
 * `farcaster://fid/<fid>`) is verified with `@farcaster/auth-client` against our nonce and domain and
 * against the ID and key registries on chain 10 (the RPC in service config; locally, a chain with the
 * dev stand-ins of server/dev/farcaster). A verified fid is a `wallet_identities` row with provider
 * `farcaster` and the fid as subject, so it has one user and one embedded wallet.
 */
import { createAppClient, verifySignInMessage, viemConnector } from '@farcaster/auth-client'
import { EmbeddedError } from './errors.ts'

/** What a verified sign-in proves. */
export interface FarcasterSignIn {
  fid: string
  /** The address that signed: the fid's custody address or one of its auth addresses. */
  signer: string
}

export interface FarcasterVerifierConfig {
  /** An OP-mainnet (chain id 10) RPC URL for the registries. */
  rpcUrl: string
  /** Our domain, as the message must name it (the frame's host). */
  domain: string
}

/** Clear messages and codes for what the library reports (it reports the nonce and domain checks by name). */
const refusals: readonly [RegExp, FarcasterRefusal, string][] = [
  [
    /^Invalid nonce$/,
    'FARCASTER_WRONG_NONCE',
    'This Farcaster approval is for another sign-in request: start again',
  ],
  [/^Invalid domain$/, 'FARCASTER_WRONG_DOMAIN', 'This Farcaster approval was made for another site'],
  [
    /does not own fid|is not an auth address/,
    'FARCASTER_WRONG_SIGNER',
    'This Farcaster approval was not signed by the account it names',
  ],
  [/Chain ID must be/, 'FARCASTER_FAILED', 'This Farcaster approval names the wrong chain'],
]

type FarcasterRefusal =
  | 'FARCASTER_WRONG_NONCE'
  | 'FARCASTER_WRONG_DOMAIN'
  | 'FARCASTER_WRONG_SIGNER'
  | 'FARCASTER_FAILED'

const refused = (code: FarcasterRefusal, message: string) => new EmbeddedError(400, code, message)

/**
 * A verifier of Farcaster approvals for one domain (or, asked so, a site's own: a mini app's).
 *
 * @example
 * const verify = createFarcasterVerifier({ rpcUrl, domain: 'localhost:8788' })
 * const { fid } = await verify({ message, signature, nonce })
 */
export function createFarcasterVerifier(config: FarcasterVerifierConfig) {
  const client = createAppClient({ ethereum: viemConnector({ rpcUrl: config.rpcUrl }) })
  return async function verify(approval: {
    message: string
    signature: `0x${string}`
    nonce: string
    /**
     * The domain the message must name when it is not ours: a Farcaster host app signs for the mini
     * app's domain, the site's own host.
     */
    domain?: string
  }): Promise<FarcasterSignIn> {
    if (approval.message.length > 4096)
      throw refused('FARCASTER_FAILED', 'This Farcaster approval is too long')
    const result = await verifySignInMessage(client, {
      nonce: approval.nonce,
      domain: approval.domain ?? config.domain,
      message: approval.message,
      signature: approval.signature,
    })
    if (result.isError || !result.success) {
      const reason = result.error?.message ?? ''
      if (result.error?.errCode === 'unavailable')
        throw new EmbeddedError(502, 'FARCASTER_FAILED', 'Could not reach the Farcaster registry: try again')
      const [, code, message] = refusals.find(([pattern]) => pattern.test(reason)) ?? [
        undefined,
        'FARCASTER_FAILED',
        'This Farcaster approval could not be verified',
      ]
      throw refused(code, message)
    }
    return { fid: String(result.fid), signer: result.data.address }
  }
}

export type FarcasterVerifier = ReturnType<typeof createFarcasterVerifier>
