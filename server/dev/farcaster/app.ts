/**
 * The demo Farcaster app (dev and tests; like the demo phone wallet): a page that opens a sign-in
 * channel's URL (the QR code's link, opened or pasted), shows the request (site, URI, nonce) and, on
 * Approve, signs the EIP-4361 message Sign In With Farcaster asks for with a dev custody key whose fid
 * the local IdRegistry stand-in holds, then delivers it to the relay's authenticate route, as a
 * Farcaster app does. Decline tells the relay stand-in (its own `decline` route). Loopback only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createWalletClient, viemConnector } from '@farcaster/auth-client'
import type { LocalAccount } from 'viem'
import { z } from 'zod'
import { readJson } from './relay.ts'

const MAX_BODY_BYTES = 8_192

/** What the channel URL carries (the relay stand-in puts it in the query). */
export const channelRequest = z.object({
  channelToken: z.string().regex(/^[A-Za-z0-9_-]{8,256}$/),
  nonce: z.string().regex(/^[A-Za-z0-9]{8,64}$/),
  siweUri: z.url().max(2_048),
  domain: z.string().min(1).max(255),
})
export type ChannelRequest = z.infer<typeof channelRequest>

/** The Farcaster account the app signs in with. */
export interface FarcasterAppAccount {
  /** The custody key of `fid` (registered in the IdRegistry stand-in). */
  custody: LocalAccount
  fid: number
  username: string
  /** The profile picture the app reports (default: the app's own `/pfp.svg`). */
  pfpUrl?: string
}

export interface FarcasterApproval {
  relayUrl: string
  relayKey: string
  /** The chain-10 RPC (the library's wallet client wants one; approving reads nothing from it). */
  rpcUrl: string
  account: FarcasterAppAccount
}

/**
 * Signs a channel's request with the custody key and delivers it to the relay (what Approve does).
 *
 * @example
 * await approveChannel(request, { relayUrl, relayKey, rpcUrl, account })
 */
export async function approveChannel(request: ChannelRequest, options: FarcasterApproval): Promise<void> {
  const wallet = createWalletClient({
    relay: options.relayUrl,
    ethereum: viemConnector({ rpcUrl: options.rpcUrl }),
  })
  const { account } = options
  const built = wallet.buildSignInMessage({
    address: account.custody.address,
    fid: account.fid,
    uri: request.siweUri,
    domain: request.domain,
    nonce: request.nonce,
  })
  if (built.isError || !built.message) throw new Error('The sign-in message could not be built')
  const message = built.message
  const signature = await account.custody.signMessage({ message })
  const delivered = await wallet.authenticate({
    channelToken: request.channelToken,
    authKey: options.relayKey,
    message,
    signature,
    fid: account.fid,
    username: account.username,
    ...(account.pfpUrl ? { pfpUrl: account.pfpUrl } : {}),
  })
  if (delivered.isError) throw new Error(`The relay refused the approval: ${delivered.error?.message}`)
}

/**
 * Declines a channel's request (the relay stand-in's own route).
 *
 * @example
 * await declineChannel(request.channelToken, { relayUrl, relayKey })
 */
export async function declineChannel(
  channelToken: string,
  options: Pick<FarcasterApproval, 'relayUrl' | 'relayKey'>,
): Promise<void> {
  const response = await fetch(`${options.relayUrl}/v1/channel/decline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${channelToken}`, 'x-farcaster-auth-relay-key': options.relayKey },
  })
  if (!response.ok) throw new Error(`The relay refused the decline (${response.status})`)
}

const page = (account: FarcasterAppAccount) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo Farcaster app</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 26rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1f; }
  h1 { font-size: 1.3rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem .75rem; overflow-wrap: anywhere; }
  dt { font-weight: 600; }
  button { font: inherit; padding: .5rem 1rem; margin-right: .5rem; border-radius: .5rem; border: 1px solid #5a3ea6; }
  #approve { background: #5a3ea6; color: #fff; }
  #decline { background: #fff; color: #5a3ea6; }
  input { font: inherit; width: 100%; box-sizing: border-box; padding: .4rem; }
  [role=alert] { color: #b3261e; }
</style>
</head>
<body>
<main>
<h1>Demo Farcaster app</h1>
<p>Signed in as <strong>@${account.username}</strong> (fid ${account.fid}).</p>
<form id="open">
  <label for="link">Sign-in link (scan the code or paste its link)</label>
  <input id="link" name="link" type="url" required>
  <p><button type="submit">Open</button></p>
</form>
<section id="request" hidden aria-labelledby="request-title">
  <h2 id="request-title">Sign in with Farcaster?</h2>
  <dl><dt>Site</dt><dd id="domain"></dd><dt>URI</dt><dd id="uri"></dd><dt>Nonce</dt><dd id="nonce"></dd></dl>
  <p><button type="button" id="approve">Approve</button><button type="button" id="decline">Decline</button></p>
</section>
<p id="status" role="status"></p>
<p id="error" role="alert"></p>
</main>
<script type="module">
  const $ = (id) => document.getElementById(id)
  let query
  const show = (url) => {
    query = new URL(url).searchParams
    $('domain').textContent = query.get('domain')
    $('uri').textContent = query.get('siweUri')
    $('nonce').textContent = query.get('nonce')
    $('request').hidden = false
    $('approve').focus()
  }
  if (location.search.includes('channelToken')) show(location.href)
  $('open').addEventListener('submit', (event) => {
    event.preventDefault()
    try { show($('link').value) } catch { $('error').textContent = 'This is not a sign-in link' }
  })
  const answer = async (path, done) => {
    $('error').textContent = ''
    const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(Object.fromEntries(query)) })
    if (!response.ok) { $('error').textContent = (await response.json()).error; return }
    $('request').hidden = true
    $('status').textContent = done
  }
  $('approve').addEventListener('click', () => answer('/approve', 'Approved: return to the site'))
  $('decline').addEventListener('click', () => answer('/decline', 'Declined'))
</script>
</body>
</html>
`

/** A plain avatar for the dev account. */
const pfp = (username: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="32" fill="#5a3ea6"/><text x="32" y="42" font-size="28" text-anchor="middle" fill="#fff" font-family="sans-serif">${username.slice(0, 1).toUpperCase()}</text></svg>`

export interface FarcasterAppOptions extends Omit<FarcasterApproval, 'account'> {
  account: Omit<FarcasterAppAccount, 'pfpUrl'>
  /** 0 for a free port. */
  port: number
  host?: string
}

export interface FarcasterApp {
  url: string
  stop(): Promise<void>
}

/**
 * Starts the demo Farcaster app's page on 127.0.0.1.
 *
 * @example
 * const app = await startFarcasterApp({ port: 8793, relayUrl, relayKey, rpcUrl, account })
 */
export async function startFarcasterApp(options: FarcasterAppOptions): Promise<FarcasterApp> {
  let account: FarcasterAppAccount = options.account
  const send = (response: ServerResponse, status: number, type: string, body: string) => {
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
    response.end(body)
  }
  const json = (response: ServerResponse, status: number, body: unknown) =>
    send(response, status, 'application/json', JSON.stringify(body))

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? '/', 'http://app').pathname
    if (request.method === 'GET' && path === '/')
      return send(response, 200, 'text/html; charset=utf-8', page(account))
    if (request.method === 'GET' && path === '/pfp.svg')
      return send(response, 200, 'image/svg+xml', pfp(account.username))
    if (request.method === 'POST' && (path === '/approve' || path === '/decline')) {
      const parsed = channelRequest.safeParse(await readJson(request, MAX_BODY_BYTES).catch(() => undefined))
      if (!parsed.success) return json(response, 400, { error: 'This is not a sign-in request' })
      try {
        if (path === '/approve') await approveChannel(parsed.data, { ...options, account })
        else await declineChannel(parsed.data.channelToken, options)
        return json(response, 200, { ok: true })
      } catch {
        return json(response, 409, { error: 'This sign-in request has expired or was answered already' })
      }
    }
    return json(response, 404, { error: 'Not found' })
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => json(response, 400, { error: 'Bad request' }))
  })
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve) => server.listen(options.port, host, resolve))
  const { port } = server.address() as AddressInfo
  const url = `http://${host}:${port}`
  account = { ...options.account, pfpUrl: `${url}/pfp.svg` }
  return {
    url: `${url}/`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
