/**
 * How the service reaches each social provider with `openid-client`: discovery for the OpenID ones,
 * fixed endpoints for the OAuth 2 ones, the client's credentials (Apple's secret minted each time),
 * and the same paths on the local stand-in when `SOCIAL_PROVIDER_URL` is set.
 */
import { createPrivateKey, sign } from 'node:crypto'
import * as oidc from 'openid-client'
import type { SocialProvider } from '../../src/protocol/rules.ts'
import type { SocialConfig } from '../config.ts'
import { EmbeddedError } from './errors.ts'
import { providerSpecs } from './socialProviders.ts'

/** A provider that does not answer the exchange in this time fails the sign-in. */
const PROVIDER_TIMEOUT_MS = 10_000

/** Apple's client secret: an ES256 JWT signed with the team's key, valid 5 minutes. */
export function appleClientSecret(
  apple: { teamId: string; keyId: string; privateKey: string },
  clientId: string,
  nowMs: number,
): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const iat = Math.floor(nowMs / 1000)
  const input = `${encode({ alg: 'ES256', kid: apple.keyId })}.${encode({
    iss: apple.teamId,
    iat,
    exp: iat + 300,
    aud: 'https://appleid.apple.com',
    sub: clientId,
  })}`
  const signature = sign('sha256', Buffer.from(input), {
    key: createPrivateKey(apple.privateKey),
    dsaEncoding: 'ieee-p1363',
  })
  return `${input}.${signature.toString('base64url')}`
}

/**
 * The providers' configurations, each discovered once (Apple's each time, for its fresh secret).
 *
 * @example
 * const providers = createProviderConfigurations(config.embedded.social, { allowHttp: false })
 * const configuration = await providers.configurationOf('google')
 */
export function createProviderConfigurations(config: SocialConfig, options: { allowHttp?: boolean }) {
  const configurations = new Map<SocialProvider, Promise<oidc.Configuration>>()

  /** An endpoint of the provider: the real one, or the same path on the stand-in. */
  const endpoint = (provider: SocialProvider, real: string) => {
    if (!config.providerUrl) return real
    const url = new URL(real)
    return `${config.providerUrl}/${provider}${url.pathname}${url.search}`
  }

  async function makeConfiguration(provider: SocialProvider): Promise<oidc.Configuration> {
    const spec = providerSpecs[provider]
    const credentials = config.credentials[provider]
    if (!credentials) throw new EmbeddedError(503, 'SOCIAL_UNAVAILABLE', 'This sign-in is not set up')
    const secret =
      provider === 'apple' && config.apple
        ? // Apple checks it against its own clock: the wall clock, not the service's (tests move theirs).
          appleClientSecret(config.apple, credentials.clientId, Date.now())
        : credentials.clientSecret
    const auth = spec.auth === 'post' ? oidc.ClientSecretPost(secret) : oidc.ClientSecretBasic(secret)
    const execute = options.allowHttp ? [oidc.allowInsecureRequests] : []
    if (spec.kind === 'oidc') {
      const issuer = config.providerUrl ? `${config.providerUrl}/${provider}` : spec.issuer
      return oidc.discovery(new URL(issuer), credentials.clientId, undefined, auth, {
        execute,
        timeout: PROVIDER_TIMEOUT_MS / 1000,
      })
    }
    const configuration = new oidc.Configuration(
      {
        issuer: config.providerUrl ? `${config.providerUrl}/${provider}` : spec.issuer,
        authorization_endpoint: endpoint(provider, spec.authorization as string),
        token_endpoint: endpoint(provider, spec.token as string),
      },
      credentials.clientId,
      undefined,
      auth,
    )
    for (const step of execute) step(configuration)
    configuration.timeout = PROVIDER_TIMEOUT_MS / 1000
    return configuration
  }

  return {
    endpoint,

    /** Where a provider sends the person back: the frame's origin. */
    redirectUri: (provider: SocialProvider) => `${config.redirectBase}/social/callback/${provider}`,

    /** Providers with credentials, in the SPEC's order. */
    available: (): SocialProvider[] =>
      (Object.keys(providerSpecs) as SocialProvider[]).filter((provider) => config.credentials[provider]),

    /** The provider's configuration; Apple's carries a freshly minted secret each time. */
    configurationOf(provider: SocialProvider): Promise<oidc.Configuration> {
      if (provider === 'apple') return makeConfiguration(provider)
      let entry = configurations.get(provider)
      if (!entry) {
        entry = makeConfiguration(provider)
        configurations.set(provider, entry)
        entry.catch(() => configurations.delete(provider))
      }
      return entry
    },
  }
}

export type ProviderConfigurations = ReturnType<typeof createProviderConfigurations>
