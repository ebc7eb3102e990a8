/**
 * The Demo Wallet's approval prompt: an overlay that plays the part of an extension's popup.
 *
 * It lives in its own open shadow root on `document.body` (unlike the product's modal, which stays in
 * its own shadow root; this is the *wallet*, not the page), so playwright reaches it with
 * `page.getByRole('dialog', { name: 'Demo Wallet request' })` and
 * `getByRole('button', { name: 'Approve' })`, or `[data-demo-wallet="approve"]`.
 * Requests queue; one prompt shows at a time. It never takes focus from the page, the way a
 * real extension popup opens in its own window.
 */

export type PromptRequest = {
  /** What is asked, in one line: "Connect to http://127.0.0.1:5173". */
  title: string
  /** Details shown under the title, one paragraph each (message text, amounts, addresses). */
  details?: readonly string[]
}

export type PromptQueue = {
  /** Queues a prompt; resolves `true` on Approve, `false` on Reject. */
  ask(request: PromptRequest): Promise<boolean>
  /** Prompts not yet answered, the one shown included. */
  pending(): number
  /** Answers the prompt shown; `false` when none is shown. */
  answer(approved: boolean): boolean
  /** While on, every prompt (queued ones too) is approved at once and nothing is shown. */
  setAutoApprove(on: boolean): void
  readonly autoApprove: boolean
}

type Entry = { request: PromptRequest; resolve: (approved: boolean) => void }

const STYLES = `
:host { all: initial; }
.backdrop {
  position: fixed; inset: 0; z-index: 2147483647;
  display: flex; align-items: flex-start; justify-content: flex-end;
  padding: 16px; pointer-events: none;
  font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
[role="dialog"] {
  pointer-events: auto; box-sizing: border-box; width: 360px; max-width: calc(100vw - 32px);
  max-height: calc(100vh - 32px); overflow: auto;
  background: #fff; color: #111; border: 1px solid #d0d4dc; border-radius: 12px;
  box-shadow: 0 12px 40px rgba(0, 0, 0, 0.25); padding: 16px;
}
header { display: flex; align-items: center; gap: 8px; font-weight: 600; color: #444; font-size: 12px; }
header img { width: 20px; height: 20px; }
h2 { font-size: 16px; margin: 12px 0 8px; overflow-wrap: anywhere; }
p { margin: 0 0 8px; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 13px; }
p.message { background: #f3f4f7; border-radius: 8px; padding: 8px; font-family: ui-monospace, monospace; }
.queue { color: #666; font-size: 12px; }
.actions { display: flex; gap: 8px; margin-top: 12px; }
button { flex: 1; font: inherit; padding: 8px 12px; border-radius: 8px; cursor: pointer; }
button[data-demo-wallet="reject"] { background: #fff; color: #111; border: 1px solid #c4c8d0; }
button[data-demo-wallet="approve"] { background: #3b5bdb; color: #fff; border: 1px solid #3b5bdb; }
@media (prefers-color-scheme: dark) {
  [role="dialog"] { background: #1d1f24; color: #eee; border-color: #3a3d45; }
  header { color: #bbb; }
  p.message { background: #2a2d34; }
  button[data-demo-wallet="reject"] { background: #1d1f24; color: #eee; border-color: #4a4d55; }
}
`

/**
 * @example
 * const prompts = createPromptQueue({ document, name: 'Demo Wallet', icon })
 * if (!(await prompts.ask({ title: 'Connect to https://example.org' }))) throw userRejected()
 */
export function createPromptQueue(options: { document: Document; name: string; icon: string }): PromptQueue {
  const { document: doc, name, icon } = options
  const queue: Entry[] = []
  let auto = false
  let host: HTMLElement | undefined

  const render = () => {
    const current = queue[0]
    if (!current) {
      host?.remove()
      host = undefined
      return
    }
    if (!host) {
      host = doc.createElement('div')
      host.setAttribute('data-demo-wallet', 'prompt')
      host.attachShadow({ mode: 'open' })
    }
    const root = host.shadowRoot!
    root.replaceChildren()

    const style = doc.createElement('style')
    style.textContent = STYLES
    const backdrop = doc.createElement('div')
    backdrop.className = 'backdrop'
    const dialog = doc.createElement('section')
    dialog.setAttribute('role', 'dialog')
    dialog.setAttribute('aria-label', `${name} request`)

    const header = doc.createElement('header')
    const logo = doc.createElement('img')
    logo.src = icon
    logo.alt = ''
    header.append(logo, name)
    const title = doc.createElement('h2')
    title.textContent = current.request.title
    dialog.append(header, title)
    for (const detail of current.request.details ?? []) {
      const paragraph = doc.createElement('p')
      paragraph.className = 'message'
      paragraph.textContent = detail
      dialog.append(paragraph)
    }
    if (queue.length > 1) {
      const waiting = doc.createElement('p')
      waiting.className = 'queue'
      waiting.textContent = `${queue.length - 1} more request${queue.length > 2 ? 's' : ''} waiting`
      dialog.append(waiting)
    }

    const actions = doc.createElement('div')
    actions.className = 'actions'
    const button = (label: 'Approve' | 'Reject', approved: boolean) => {
      const element = doc.createElement('button')
      element.type = 'button'
      element.textContent = label
      element.setAttribute('data-demo-wallet', approved ? 'approve' : 'reject')
      element.addEventListener('click', () => settle(current, approved))
      return element
    }
    actions.append(button('Reject', false), button('Approve', true))
    dialog.append(actions)
    backdrop.append(dialog)
    root.append(style, backdrop)
    if (!host.isConnected) (doc.body ?? doc.documentElement).append(host)
  }

  const settle = (entry: Entry, approved: boolean) => {
    const index = queue.indexOf(entry)
    if (index === -1) return
    queue.splice(index, 1)
    entry.resolve(approved)
    render()
  }

  return {
    ask(request) {
      if (auto) return Promise.resolve(true)
      return new Promise<boolean>((resolve) => {
        queue.push({ request, resolve })
        render()
      })
    },
    pending: () => queue.length,
    answer(approved) {
      const current = queue[0]
      if (!current) return false
      settle(current, approved)
      return true
    },
    setAutoApprove(on) {
      auto = on
      if (on) while (queue[0]) settle(queue[0], true)
    },
    get autoApprove() {
      return auto
    },
  }
}
