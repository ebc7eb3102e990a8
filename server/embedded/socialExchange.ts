/**
 * The end of a social sign-in at the provider: the authorization code exchanged with its PKCE verifier
 * and `state`, the id_token checked (issuer, audience, nonce, expiry, signature from the provider's
 * JWKS) for the OpenID providers or the profile endpoints read for the OAuth 2 ones, and the answer
 * mapped to one identity.
 */
import * as oidc from 'openid-client'
import type { SocialProvider } from '../../src/protocol/rules.ts'
import { socialFailed } from './errors.ts'
import type { SocialIdentity } from './identities.ts'
import type { ProviderConfigurations } from './socialConfiguration.ts'
import { providerSpecs } from './socialProviders.ts'

/** What the sign-in started with: the PKCE verifier, the `state` and the nonce (OpenID only). */
export interface StartedSignIn {
  codeVerifier: string
  state: string
  nonce: string
}

/** The identity of a finished exchange: the id_token's claims or the profile endpoints' answers. */
async function identityOf(
  providers: ProviderConfigurations,
  provider: SocialProvider,
  configuration: oidc.Configuration,
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
): Promise<SocialIdentity> {
  const spec = providerSpecs[provider]
  let identity: SocialIdentity
  if (spec.kind === 'oidc') {
    const claims = tokens.claims()
    if (!claims) throw socialFailed('The provider sent no id_token')
    identity = spec.identity([claims])
  } else {
    const answers: unknown[] = []
    for (const url of spec.profile ?? []) {
      const response = await oidc.fetchProtectedResource(
        configuration,
        tokens.access_token,
        new URL(providers.endpoint(provider, url)),
        'GET',
        undefined,
        new Headers({ accept: 'application/json' }),
      )
      if (!response.ok) throw socialFailed('The provider did not give the profile')
      answers.push(await response.json())
    }
    identity = spec.identity(answers)
  }
  if (!/^[\w.@:-]{1,255}$/.test(identity.subject)) throw socialFailed('The provider gave no user id')
  return {
    ...identity,
    email: identity.email?.trim().toLowerCase().slice(0, 254) ?? null,
    username: identity.username?.slice(0, 100) ?? null,
  }
}

/**
 * Exchanges the code of a provider's callback (`parameters`, as the provider sent them) for the
 * person's identity; throws when anything does not check.
 *
 * @example
 * const identity = await exchangeCode(providers, 'google', callbackParameters, { codeVerifier, state, nonce })
 */
export async function exchangeCode(
  providers: ProviderConfigurations,
  provider: SocialProvider,
  parameters: URLSearchParams,
  started: StartedSignIn,
): Promise<SocialIdentity> {
  const configuration = await providers.configurationOf(provider)
  const currentUrl = new URL(providers.redirectUri(provider))
  for (const [name, value] of parameters) currentUrl.searchParams.set(name, value)
  const spec = providerSpecs[provider]
  const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
    pkceCodeVerifier: started.codeVerifier,
    expectedState: started.state,
    ...(spec.kind === 'oidc' ? { expectedNonce: started.nonce, idTokenExpected: true } : {}),
  })
  return identityOf(providers, provider, configuration, tokens)
}
