/**
 * The local stand-in for the social providers (`npm start`: 127.0.0.1:8790): one `oidc-provider`
 * issuer per provider path (`/google`, `/github`, `/apple`, `/facebook`, `/x`, `/discord`), each with
 * its own client, its own one-field sign-in page (type an e-mail, you are signed in; "Cancel" answers
 * `access_denied`) and PKCE required. The OpenID paths (google, apple) issue id_tokens; the others act as
 * OAuth 2 providers (no `openid` scope, no id_token) and serve a profile endpoint shaped like the real
 * provider's, so the service runs the same code against them as against the real ones. Apple's path
 * checks the ES256 client-secret JWT the service mints, as Apple does.
 */
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { importSPKI, jwtVerify } from 'jose'
import Provider, { type Interaction, type KoaContextWithOIDC } from 'oidc-provider'

export const socialProviderNames = ['google', 'github', 'apple', 'facebook', 'x', 'discord'] as const
export type StandInProvider = (typeof socialProviderNames)[number]

/** The providers that speak OpenID Connect (id_token); the others are OAuth 2 with a profile endpoint. */
export const openIdProviders: ReadonlySet<StandInProvider> = new Set(['google', 'apple'])

/** A client of one provider path, as the service is configured with it. */
export interface StandInClient {
  clientId: string
  clientSecret: string
}

/** The dev clients: `dev-<provider>` with a fixed dev secret (never a real credential). */
export function standInClient(provider: StandInProvider): StandInClient {
  return { clientId: `dev-${provider}`, clientSecret: `dev-${provider}-secret-not-for-production` }
}

/** Apple's dev signing key (the service mints its client secret with it; the stand-in checks it). */
export const devAppleKey = (() => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return {
    teamId: 'DEVTEAM001',
    keyId: 'DEVKEY0001',
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey,
  }
})()

interface Account {
  sub: string
  email: string
  emailVerified: boolean
  name: string
}

export interface OidcStandIn {
  /** `http://127.0.0.1:PORT`: each provider's issuer is this plus `/<provider>`. */
  url: string
  stop(): Promise<void>
}

export interface OidcStandInOptions {
  host?: string
  port?: number
  /** Where each provider may redirect: the service's `SOCIAL_REDIRECT_BASE` plus `/social/callback/<provider>`. */
  redirectBase: string
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The provider's user id of an e-mail: stable, numeric for the providers whose ids are numbers. */
function subjectOf(provider: StandInProvider, email: string): string {
  const digest = createHash('sha256').update(`${provider}:${email}`).digest()
  if (provider === 'google' || provider === 'apple') return digest.toString('hex').slice(0, 21)
  return String(digest.readUIntBE(0, 6))
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > 16_384) throw new Error('Form too large')
    chunks.push(chunk as Buffer)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

function signInPage(provider: StandInProvider, uid: string, client: string): string {
  const title = `Sign in to ${provider} (local stand-in)`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}label,input,button{display:block;margin:.5rem 0}input[type=email]{width:100%;padding:.5rem;font:inherit}button{padding:.5rem 1rem;font:inherit}</style></head>
<body><main><h1>${title}</h1><p>${escapeHtml(client)} asks to sign you in. Type any e-mail address.</p>
<form method="post" action="/${provider}/interaction/${uid}/login">
<label for="email">E-mail</label><input id="email" name="email" type="email" required autocomplete="email" autofocus>
<label><input type="checkbox" name="verified" value="1" checked style="display:inline"> The provider has verified this e-mail</label>
<button type="submit">Sign in</button></form>
<form method="post" action="/${provider}/interaction/${uid}/abort"><button type="submit">Cancel</button></form></main></body></html>`
}

/**
 * Starts the stand-in.
 *
 * @example
 * const oidc = await startOidcStandIn({ port: 8790, redirectBase: 'http://localhost:8788' })
 * // issuer of google: `${oidc.url}/google`
 */
export async function startOidcStandIn(options: OidcStandInOptions): Promise<OidcStandIn> {
  const host = options.host ?? '127.0.0.1'
  const server: Server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8790, host, () => resolve())
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const url = `http://${host}:${port}`
  const accounts = new Map<string, Account>()
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'dev-rs256', alg: 'RS256', use: 'sig' }
  const applePublic = await importSPKI(
    (devAppleKey.publicKey as KeyObject).export({ type: 'spki', format: 'pem' }).toString(),
    'ES256',
  )

  const providers = new Map<StandInProvider, Provider>()
  for (const name of socialProviderNames) {
    const client = standInClient(name)
    const openId = openIdProviders.has(name)
    const provider = new Provider(`${url}/${name}`, {
      clients: [
        {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          redirect_uris: [`${options.redirectBase}/social/callback/${name}`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method:
            name === 'github' || name === 'apple' ? 'client_secret_post' : 'client_secret_basic',
        },
      ],
      jwks: { keys: [signingKey] },
      pkce: { required: () => true },
      cookies: { keys: [`dev-${name}-cookie-key`] },
      scopes: [
        'openid',
        'email',
        'profile',
        'user:email',
        'read:user',
        'identify',
        'users.read',
        'tweet.read',
        'public_profile',
        'name',
      ],
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name'],
        name: ['name'],
      },
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false }, userinfo: { enabled: openId } },
      interactions: {
        url: (_ctx: KoaContextWithOIDC, interaction: Interaction) =>
          `/${name}/interaction/${interaction.uid}`,
      },
      findAccount: async (_ctx: KoaContextWithOIDC, sub: string) => {
        const account = accounts.get(`${name}:${sub}`)
        if (!account) return undefined
        return {
          accountId: sub,
          claims: async () => ({
            sub,
            email: account.email,
            email_verified: account.emailVerified,
            name: account.name,
          }),
        }
      },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        IdToken: 600,
        Interaction: 600,
        Session: 600,
        Grant: 600,
      },
    })
    provider.proxy = false
    providers.set(name, provider)
  }

  /** The account of a bearer access token on a provider, for its profile endpoint. */
  async function bearerAccount(name: StandInProvider, req: IncomingMessage): Promise<Account | undefined> {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1]
    const provider = providers.get(name)
    if (!token || !provider) return undefined
    const stored = await provider.AccessToken.find(token)
    if (!stored || stored.isExpired) return undefined
    return accounts.get(`${name}:${stored.accountId}`)
  }

  /** The profile endpoints, each in the real provider's shape. */
  const profiles: Record<string, (account: Account) => unknown> = {
    'github /user': (a) => ({ id: Number(a.sub), login: a.name, name: a.name, email: null }),
    'github /user/emails': (a) => [
      { email: a.email, primary: true, verified: a.emailVerified, visibility: null },
    ],
    'discord /api/users/@me': (a) => ({
      id: a.sub,
      username: a.name,
      email: a.email,
      verified: a.emailVerified,
    }),
    'x /2/users/me': (a) => ({ data: { id: a.sub, username: a.name, name: a.name } }),
    'facebook /me': (a) => ({ id: a.sub, name: a.name, email: a.email }),
  }

  /** Each OAuth 2 provider's own paths of its authorization and token endpoints, as the real one has them. */
  const aliases: Record<string, string> = {
    'github /login/oauth/authorize': '/auth',
    'github /login/oauth/access_token': '/token',
    'x /i/oauth2/authorize': '/auth',
    'x /2/oauth2/token': '/token',
    'discord /oauth2/authorize': '/auth',
    'discord /api/oauth2/token': '/token',
    'facebook /v19.0/dialog/oauth': '/auth',
    'facebook /v19.0/oauth/access_token': '/token',
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestUrl = new URL(req.url ?? '/', url)
    const [, first = '', ...rest] = requestUrl.pathname.split('/')
    const name = socialProviderNames.find((candidate) => candidate === first)
    const provider = name ? providers.get(name) : undefined
    if (!name || !provider) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
      return
    }
    const own = `/${rest.join('/')}`
    const path = aliases[`${name} ${own}`] ?? own
    const interaction = /^\/interaction\/([A-Za-z0-9_-]+)(\/login|\/abort)?$/.exec(path)
    if (interaction) {
      const details = await provider.interactionDetails(req, res)
      if (req.method === 'GET' && !interaction[2]) {
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
          .end(signInPage(name, details.uid, String(details.params.client_id)))
        return
      }
      if (req.method === 'POST' && interaction[2] === '/abort') {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The person cancelled the sign-in' },
          { mergeWithLastSubmission: false },
        )
        return
      }
      if (req.method === 'POST' && interaction[2] === '/login') {
        const form = await readForm(req)
        const email = (form.get('email') ?? '').trim().toLowerCase()
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
          res.writeHead(400, { 'content-type': 'text/plain' }).end('Type an e-mail address')
          return
        }
        const sub = subjectOf(name, email)
        accounts.set(`${name}:${sub}`, {
          sub,
          email,
          emailVerified: form.get('verified') === '1',
          name: email.split('@')[0] ?? email,
        })
        const grant = new provider.Grant({ accountId: sub, clientId: String(details.params.client_id) })
        grant.addOIDCScope(String(details.params.scope ?? ''))
        if (openIdProviders.has(name)) grant.addOIDCClaims(['email', 'email_verified', 'name'])
        const grantId = await grant.save()
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: sub }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        )
        return
      }
    }
    const profile = profiles[`${name} ${path}`]
    if (profile && req.method === 'GET') {
      const account = await bearerAccount(name, req)
      if (!account) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Bad credentials"}')
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(profile(account)))
      return
    }
    if (name === 'apple' && path === '/token' && req.method === 'POST') {
      // Apple's client secret is a JWT the client signs with its key (ES256): checked here, then the
      // request goes on with the stand-in client's own secret.
      const form = await readForm(req)
      const secret = form.get('client_secret') ?? ''
      try {
        const { payload } = await jwtVerify(secret, applePublic, {
          issuer: devAppleKey.teamId,
          audience: 'https://appleid.apple.com',
          subject: standInClient('apple').clientId,
          algorithms: ['ES256'],
        })
        if (typeof payload.exp !== 'number' || payload.exp - (payload.iat ?? 0) > 15_777_000)
          throw new Error()
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}')
        return
      }
      form.set('client_secret', standInClient('apple').clientSecret)
      const body = form.toString()
      const { Readable } = await import('node:stream')
      const replay = Object.assign(Readable.from([Buffer.from(body)]), {
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(body)) },
        method: req.method,
        url: '/token',
        originalUrl: `/apple/token`,
        socket: req.socket,
        connection: req.socket,
        httpVersion: req.httpVersion,
      }) as unknown as IncomingMessage
      provider.callback()(replay, res)
      return
    }
    // Mounted at the provider's path, as oidc-provider expects (`originalUrl` keeps the full path).
    Object.assign(req, { originalUrl: `/${name}${path}${requestUrl.search}` })
    req.url = `${path}${requestUrl.search}`
    provider.callback()(req, res)
  }

  server.on('request', (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' })
      res.end('The sign-in could not go on')
    })
  })

  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
