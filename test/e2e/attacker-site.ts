// The attacker's site for the embedded-wallet security tests: a foreign origin that frames the wallet or
// the dapp, and floods every frame it reaches with random and mutated messages.
import { createServer, type Server } from 'node:http'

/** A site on a foreign origin: `http://evil.test:PORT` (the browser resolves evil.test to loopback). */
export const EVIL_HOST = 'evil.test'

/** The attacker's flood: random and mutated messages, handshakes with made-up nonces, each with a port to hear any answer. */
export const FLOOD = `
function flood(target, targetOrigin, count) {
  let seed = 7
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
  const pick = (items) => items[Math.floor(random() * items.length)]
  const text = (n) => Array.from({ length: n }, () => String.fromCharCode(32 + Math.floor(random() * 94))).join('')
  const types = ['SIGN_OUT', 'RPC_REQUEST', 'CONNECT_EMAIL', 'GET_USER', 'IS_CONNECTED', 'UPDATE_EMAIL', 'RELOAD', 'CONNECT_OTP', 'CANCEL_APPROVAL']
  const valid = () => pick([
    { type: 'wallet-elements:frame-handshake', nonce: text(22).replace(/[^A-Za-z0-9_-]/g, 'a') },
    { id: '1', type: 'SIGN_OUT', payload: {} },
    { id: '2', type: 'RPC_REQUEST', payload: { chainId: 'eip155:31337', method: 'personal_sign', params: ['0x68656c6c6f', '0x0000000000000000000000000000000000000000'] } },
    { id: '3', type: 'GET_USER', payload: {} },
    { id: '4', type: 'CONNECT_EMAIL', payload: { email: 'attacker@evil.test' } },
  ])
  const mutate = (message) => {
    const copy = JSON.parse(JSON.stringify(message))
    const keys = Object.keys(copy)
    switch (Math.floor(random() * 7)) {
      case 0: copy[pick(keys)] = text(Math.floor(random() * 64)); break
      case 1: copy.type = pick(types).toLowerCase(); break
      case 2: copy.__proto__ = { polluted: true }; copy.constructor = { prototype: { polluted: true } }; break
      case 3: copy.id = pick([null, 0, -1, {}, [], 'x'.repeat(10000)]); break
      case 4: copy.payload = pick([null, 42, 'x', [], { email: 1 }, { chainId: 'nope' }]); break
      case 5: copy.nonce = pick(['', 'short', 'x'.repeat(200), null]); break
      default: copy.extra = text(16)
    }
    return copy
  }
  const junk = () => pick([null, undefined, 42, true, text(Math.floor(random() * 200)), [1, 2, 3], { a: { b: { c: text(8) } } }, new Uint8Array(16), new Date(), /x/])
  let replies = 0
  const ports = []
  for (let index = 0; index < count; index++) {
    const message = index % 3 === 0 ? junk() : index % 3 === 1 ? mutate(valid()) : valid()
    const channel = new MessageChannel()
    channel.port1.onmessage = () => { replies++ }
    ports.push(channel.port1)
    try { target.postMessage(message, targetOrigin, [channel.port2]) } catch { try { target.postMessage(message, targetOrigin) } catch {} }
  }
  return new Promise((resolve) => setTimeout(() => { for (const port of ports) port.close(); resolve({ sent: count, replies }) }, 2000))
}
`

/**
 * The attacker's HTTP server (not yet listening): `/frame-direct?frame=URL` frames the wallet and tries
 * its handshake; any other path is a page that floods the frames of the site that framed or opened it.
 */
export function createAttackerSite(): Server {
  return createServer((request, response) => {
    const frame = new URL(request.url ?? '/', 'http://x').searchParams.get('frame') ?? ''
    response.setHeader('content-type', 'text/html; charset=utf-8')
    if (request.url?.startsWith('/frame-direct')) {
      // Frames the wallet directly, then tries its handshake.
      response.end(`<!doctype html><title>evil</title><script>${FLOOD}</script>
<iframe id="w" src="${frame}/?projectId=dev-project&chainId=eip155:31337&version=4&enableLogger=false#nonce=AAAAAAAAAAAAAAAAAAAAAA"></iframe>
<script>
window.result = new Promise((resolve) => document.getElementById('w').addEventListener('load', async () => {
const channel = new MessageChannel(); let answered = false
channel.port1.onmessage = () => { answered = true }
document.getElementById('w').contentWindow.postMessage({ type: 'wallet-elements:frame-handshake', nonce: 'AAAAAAAAAAAAAAAAAAAAAA' }, '*', [channel.port2])
const flooded = await flood(document.getElementById('w').contentWindow, '*', 1000)
resolve({ answered, flooded })
}))
</script>`)
      return
    }
    // The attacker's page, framed by the site or opened as a popup: floods every frame of the site.
    response.end(`<!doctype html><title>attacker</title><script>${FLOOD}
window.attack = async (count) => {
// Every frame of the site it can reach (the modal's own wallet frame sits in a shadow root, out of
// window.frames; the test adds one in the page's light DOM, as a page without the elements has it).
const site = window.opener ?? window.parent
const results = []
for (let index = 0; index < site.length; index++) {
  const target = site.frames[index]
  if (target === window) continue
  let foreign = false
  try { void target.location.href } catch { foreign = true }
  results.push({ ...(await flood(target, '*', count)), foreign })
}
return results
}
</script>`)
  })
}
