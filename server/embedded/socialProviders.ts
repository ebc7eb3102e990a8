/**
 * The social sign-in providers (docs/EMBEDDED-WALLET.md has this table in words): how each is reached
 * and how its answer maps to one identity.
 */
import type { SocialProvider } from '../../src/protocol/rules.ts'
import type { SocialIdentity } from './identities.ts'

type Json = Record<string, unknown>
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null)
const idOf = (value: unknown) => (typeof value === 'number' ? String(value) : text(value))

/** One provider: how to reach it and how its answer maps to an identity. */
export interface ProviderSpec {
  /** `oidc`: discovery and an id_token; `oauth2`: fixed endpoints and a profile endpoint. */
  kind: 'oidc' | 'oauth2'
  /** The real provider: its issuer (OpenID) or its endpoints (OAuth 2). */
  issuer: string
  authorization?: string
  token?: string
  /** Profile URLs (OAuth 2), fetched with the access token in order. */
  profile?: readonly string[]
  scope: string
  /** How the client authenticates at the token endpoint. */
  auth: 'post' | 'basic'
  /** Apple sends the code back as a form POST when scopes are asked. */
  formPost?: boolean
  /** From the id_token's claims (OpenID) or the profile answers (OAuth 2). */
  identity(answers: readonly unknown[]): SocialIdentity
}

const verified = (value: unknown) => value === true || value === 'true'

/**
 * The providers (docs/EMBEDDED-WALLET.md has this table in words). Endpoints are the real ones; with
 * `SOCIAL_PROVIDER_URL` each is the same path under `<url>/<provider>` (the local stand-in).
 */
export const providerSpecs: Record<SocialProvider, ProviderSpec> = {
  google: {
    kind: 'oidc',
    issuer: 'https://accounts.google.com',
    scope: 'openid email profile',
    auth: 'basic',
    identity: ([claims]) => {
      const c = claims as Json
      return {
        subject: String(c.sub),
        email: text(c.email),
        emailVerified: verified(c.email_verified),
        username: text(c.name) ?? text(c.email),
      }
    },
  },
  apple: {
    kind: 'oidc',
    issuer: 'https://appleid.apple.com',
    scope: 'openid email name',
    auth: 'post',
    formPost: true,
    identity: ([claims]) => {
      const c = claims as Json
      return {
        subject: String(c.sub),
        email: text(c.email),
        emailVerified: verified(c.email_verified),
        username: text(c.email),
      }
    },
  },
  github: {
    kind: 'oauth2',
    issuer: 'https://github.com',
    authorization: 'https://github.com/login/oauth/authorize',
    token: 'https://github.com/login/oauth/access_token',
    profile: ['https://api.github.com/user', 'https://api.github.com/user/emails'],
    scope: 'read:user user:email',
    auth: 'post',
    identity: ([user, emails]) => {
      const u = user as Json
      const primary = (Array.isArray(emails) ? (emails as Json[]) : []).find(
        (entry) => entry.primary === true,
      )
      return {
        subject: idOf(u.id) ?? '',
        email: text(primary?.email),
        emailVerified: verified(primary?.verified),
        username: text(u.login),
      }
    },
  },
  facebook: {
    kind: 'oauth2',
    issuer: 'https://www.facebook.com',
    authorization: 'https://www.facebook.com/v19.0/dialog/oauth',
    token: 'https://graph.facebook.com/v19.0/oauth/access_token',
    profile: ['https://graph.facebook.com/me?fields=id,name,email'],
    scope: 'public_profile email',
    auth: 'basic',
    // Facebook has no "verified" flag on the e-mail it gives: it is kept, never used to link accounts.
    identity: ([me]) => {
      const m = me as Json
      return { subject: idOf(m.id) ?? '', email: text(m.email), emailVerified: false, username: text(m.name) }
    },
  },
  x: {
    kind: 'oauth2',
    issuer: 'https://x.com',
    authorization: 'https://x.com/i/oauth2/authorize',
    token: 'https://api.x.com/2/oauth2/token',
    profile: ['https://api.x.com/2/users/me'],
    scope: 'users.read tweet.read',
    auth: 'basic',
    // X gives no e-mail.
    identity: ([me]) => {
      const data = ((me as Json).data ?? {}) as Json
      return {
        subject: idOf(data.id) ?? '',
        email: null,
        emailVerified: false,
        username: text(data.username),
      }
    },
  },
  discord: {
    kind: 'oauth2',
    issuer: 'https://discord.com',
    authorization: 'https://discord.com/oauth2/authorize',
    token: 'https://discord.com/api/oauth2/token',
    profile: ['https://discord.com/api/users/@me'],
    scope: 'identify email',
    auth: 'basic',
    identity: ([me]) => {
      const m = me as Json
      return {
        subject: idOf(m.id) ?? '',
        email: text(m.email),
        emailVerified: verified(m.verified),
        username: text(m.username),
      }
    },
  },
}
