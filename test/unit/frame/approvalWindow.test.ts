import assert from 'node:assert/strict'
import { describe, it, mock } from 'node:test'
import { CLOSED_POLL_MS, openApprovalWindow } from '../../../src/frame/approvalWindow.ts'
import { APPROVE_WINDOW_PORT, APPROVE_WINDOW_READY } from '../../../src/protocol/embedded/approvalWindow.ts'
import type { ApprovalPreview } from '../../../src/protocol/embedded/preview.ts'

const origin = 'http://127.0.0.1:8788'
const preview: ApprovalPreview = {
  method: 'personal_sign',
  network: { caipNetworkId: 'eip155:31337', name: 'Local', symbol: 'ETH', decimals: 18 },
  from: '0x0000000000000000000000000000000000000001',
  message: { text: 'Hello' },
}

/** The frame's window, with the popup it opens: what each posted, and the frame's message listener. */
function frameWindow(options: { blocked?: boolean; touch?: boolean } = {}) {
  const posted: { data: unknown; target: string; ports: MessagePort[] }[] = []
  const popup = {
    closed: false,
    postMessage(data: unknown, target: string, ports: MessagePort[] = []) {
      posted.push({ data, target, ports })
    },
    close() {
      this.closed = true
    },
    focus() {},
  }
  let listener: ((event: unknown) => void) | undefined
  let opened: string | undefined
  let features: string | undefined
  const win = {
    location: { origin },
    open(url: string, _target: string, asked: string) {
      opened = url
      features = asked
      return options.blocked ? null : popup
    },
    matchMedia: (query: string) => ({ matches: query === '(pointer: coarse)' && options.touch === true }),
    addEventListener(_type: string, handler: (event: unknown) => void) {
      listener = handler
    },
    removeEventListener() {
      listener = undefined
    },
  }
  const nonce = () => new URL(opened ?? '').hash.replace('#nonce=', '')
  const send = (event: { data: unknown; origin?: string; source?: unknown }) =>
    listener?.({ origin, source: popup, ...event })
  return {
    win: win as unknown as Window,
    popup,
    posted,
    nonce,
    send,
    listening: () => listener !== undefined,
    features: () => features,
  }
}

/** The next message on `port`, or `undefined` after 2 s. */
const nextOn = (port: MessagePort) =>
  new Promise<unknown>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 2_000)
    port.onmessage = (event) => {
      clearTimeout(timer)
      resolve(event.data)
    }
  })

/** The frame opens a window, which says it is ready and is given the request: its end of the port. */
async function openedWindow(frame: ReturnType<typeof frameWindow>) {
  const decisions: boolean[] = []
  openApprovalWindow(frame.win, { preview, site: 'https://shop.example', locale: 'en' }, (approved) =>
    decisions.push(approved),
  )
  frame.send({ data: { type: APPROVE_WINDOW_READY, nonce: frame.nonce() } })
  const port = frame.posted[0]?.ports[0]
  assert.ok(port)
  await nextOn(port)
  return { decisions, port }
}

describe('openApprovalWindow', () => {
  it('default: opens /approve with a nonce, hands the window a port and the request, answers its decision', async () => {
    const frame = frameWindow()
    const decisions: boolean[] = []
    const opened = openApprovalWindow(
      frame.win,
      { preview, site: 'https://shop.example', locale: 'en' },
      (approved) => decisions.push(approved),
    )
    assert.ok(opened)
    assert.match(frame.nonce(), /^[A-Za-z0-9_-]{22}$/)
    frame.send({ data: { type: APPROVE_WINDOW_READY, nonce: frame.nonce() } })
    const [handed] = frame.posted
    assert.deepEqual(handed?.data, { type: APPROVE_WINDOW_PORT, nonce: frame.nonce() })
    assert.equal(handed?.target, origin, 'posted to the frame’s own origin only')
    const port = handed?.ports[0]
    assert.ok(port)
    const request = (await nextOn(port)) as { type: string; nonce: string; site: string }
    assert.equal(request.type, 'request')
    assert.equal(request.nonce, frame.nonce())
    assert.equal(request.site, 'https://shop.example')
    const received = nextOn(port)
    port.postMessage({ type: 'decision', nonce: frame.nonce(), approved: true })
    assert.deepEqual(
      await received,
      { type: 'received', nonce: frame.nonce() },
      'the window may close itself',
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.deepEqual(decisions, [true])
    assert.equal(frame.popup.closed, true, 'the frame closes the window once it has the answer')
    assert.equal(frame.listening(), false)
    port.close()
  })

  it('attack: another window, another origin, a stale nonce or a malformed message get no port', async () => {
    const frame = frameWindow()
    openApprovalWindow(frame.win, { preview, site: 'https://shop.example', locale: 'en' }, () => {})
    const ready = { type: APPROVE_WINDOW_READY, nonce: frame.nonce() }
    frame.send({ data: ready, source: { name: 'the page’s own popup' } })
    frame.send({ data: ready, origin: 'https://shop.example' })
    frame.send({ data: { type: APPROVE_WINDOW_READY, nonce: 'stale0window0nonce00000' } })
    frame.send({ data: { type: APPROVE_WINDOW_READY } })
    frame.send({ data: 'ready' })
    assert.deepEqual(frame.posted, [])
    frame.popup.closed = true
    await new Promise((resolve) => setTimeout(resolve, 400))
  })

  it('attack: a decision with another nonce or of the wrong shape over the port is ignored', async () => {
    const frame = frameWindow()
    const { decisions, port } = await openedWindow(frame)
    port.postMessage({ type: 'decision', nonce: 'stale0window0nonce00000', approved: true })
    port.postMessage({ type: 'decision', nonce: frame.nonce(), approved: 'yes' })
    port.postMessage({ type: 'approve', nonce: frame.nonce() })
    await new Promise((resolve) => setTimeout(resolve, 50))
    assert.deepEqual(decisions, [])
    assert.equal(frame.popup.closed, false)
    port.close()
    frame.popup.closed = true
    await new Promise((resolve) => setTimeout(resolve, 400))
  })

  it('behavior: closing the window is a rejection', async () => {
    const frame = frameWindow()
    const decisions: boolean[] = []
    openApprovalWindow(frame.win, { preview, site: 'https://shop.example', locale: 'en' }, (approved) =>
      decisions.push(approved),
    )
    frame.popup.closed = true
    await new Promise((resolve) => setTimeout(resolve, CLOSED_POLL_MS * 3))
    assert.deepEqual(decisions, [false])
  })

  it('behavior: a phone tab that approved and closed before the suspended frame heard it: the approval counts, not the close', async () => {
    // The frame's polls, one at a time.
    mock.timers.enable({ apis: ['setInterval'] })
    try {
      const frame = frameWindow()
      const { decisions, port } = await openedWindow(frame)
      // The site's tab resumes: the window is gone, the frame's poll runs first, and the decision the
      // window posted before it closed comes after it.
      frame.popup.closed = true
      mock.timers.tick(CLOSED_POLL_MS)
      assert.deepEqual(decisions, [], 'one look at a closed window decides nothing')
      port.postMessage({ type: 'decision', nonce: frame.nonce(), approved: true })
      await new Promise((resolve) => setTimeout(resolve, 50))
      mock.timers.tick(CLOSED_POLL_MS)
      assert.deepEqual(decisions, [true])
      port.close()
    } finally {
      mock.timers.reset()
    }
  })

  it('behavior: a window of its size on a desktop, a tab on a touch screen (a phone opens a tab anyway)', () => {
    const desktop = frameWindow()
    openApprovalWindow(
      desktop.win,
      { preview, site: 'https://shop.example', locale: 'en' },
      () => {},
    )?.close()
    assert.match(desktop.features() ?? '', /^popup,width=\d+,height=\d+$/)
    const phone = frameWindow({ touch: true })
    openApprovalWindow(phone.win, { preview, site: 'https://shop.example', locale: 'en' }, () => {})?.close()
    assert.equal(phone.features(), '')
  })

  it('error: a popup blocker refused the window: null, nothing listens', () => {
    const frame = frameWindow({ blocked: true })
    assert.equal(
      openApprovalWindow(frame.win, { preview, site: 'https://shop.example', locale: 'en' }, () => {}),
      null,
    )
    assert.equal(frame.listening(), false)
  })
})
