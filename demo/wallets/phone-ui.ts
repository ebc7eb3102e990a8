/**
 * The Demo Phone Wallet's screen: plain DOM over the skeleton in `phone.html`. The pairing form,
 * the proposal waiting for an answer, pending requests, sessions, and status lines in an
 * `aria-live` log. Lists are keyed, so an arriving request does not rebuild (and take focus from)
 * what is already shown.
 */
import type {
  PhoneWallet,
  ProposalView,
  RequestView,
  SessionView,
  StatusLine,
  SummaryLine,
} from './phone/types.ts'

/** Status lines kept on screen; older ones are dropped. */
const STATUS_LIMIT = 30

export type PhoneUi = {
  /** Appends a status line to the live log. */
  status(text: string, kind?: StatusLine['kind']): void
  /** Binds the controls to the wallet once its client is connected. */
  attach(wallet: PhoneWallet): void
}

type Child = Node | string | null | undefined | false

/** Creates an element with attributes (`on*` functions become listeners) and children. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | ((event: Event) => void) | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value)
    else if (value === true) element.setAttribute(name, '')
    else if (typeof value === 'string') element.setAttribute(name, value)
  }
  for (const child of children) if (child) element.append(child)
  return element
}

function byId<T extends HTMLElement>(root: Document, id: string): T {
  const element = root.getElementById(id)
  if (!element) throw new Error(`phone.html has no #${id}`)
  return element as T
}

function summaryList(lines: readonly SummaryLine[]): HTMLDListElement {
  return h('dl', {}, ...lines.flatMap(({ label, value }) => [h('dt', {}, label), h('dd', {}, value)]))
}

/**
 * Fills the page's skeleton. Until {@link PhoneUi.attach} the Pair button is disabled.
 *
 * @example
 * const ui = mountPhoneUi(document, account.address)
 * ui.status('Connecting to the relay…')
 * ui.attach(createPhoneWallet({ client, account, rpcUrls }))
 */
export function mountPhoneUi(root: Document, address: string): PhoneUi {
  const form = byId<HTMLFormElement>(root, 'pair-form')
  const input = byId<HTMLInputElement>(root, 'uri')
  const pairButton = byId<HTMLButtonElement>(root, 'pair')
  const pairError = byId<HTMLParagraphElement>(root, 'pair-error')
  const proposalSection = byId<HTMLElement>(root, 'proposal-section')
  const proposalBody = byId<HTMLDivElement>(root, 'proposal')
  const requestList = byId<HTMLDivElement>(root, 'requests')
  const requestsEmpty = byId<HTMLParagraphElement>(root, 'requests-empty')
  const sessionList = byId<HTMLUListElement>(root, 'sessions')
  const sessionsEmpty = byId<HTMLParagraphElement>(root, 'sessions-empty')
  const statusLog = byId<HTMLDivElement>(root, 'status')

  byId(root, 'address').textContent = address
  pairButton.disabled = true

  const status = (text: string, kind: StatusLine['kind'] = 'info') => {
    statusLog.append(h('p', { class: `status ${kind}` }, text))
    while (statusLog.childElementCount > STATUS_LIMIT) statusLog.firstElementChild?.remove()
  }

  const attach = (wallet: PhoneWallet) => {
    let proposalKey: number | undefined
    const requestElements = new Map<number, HTMLElement>()
    const sessionElements = new Map<string, HTMLElement>()

    /** Runs a button's action with its group disabled; errors already reach the status log. */
    const act = (group: HTMLElement, action: () => Promise<unknown>) => {
      for (const button of group.querySelectorAll('button')) button.disabled = true
      group.setAttribute('aria-busy', 'true')
      action().catch(() => {
        for (const button of group.querySelectorAll('button')) button.disabled = false
        group.removeAttribute('aria-busy')
      })
    }

    const proposalView = (proposal: ProposalView): HTMLElement => {
      const body = h(
        'div',
        {},
        h('p', { class: 'lead' }, h('strong', {}, proposal.dappName), ' wants to connect'),
        summaryList([
          { label: 'Website', value: proposal.dappUrl || '(none given)' },
          ...(proposal.verifiedOrigin ? [{ label: 'Opened from', value: proposal.verifiedOrigin }] : []),
          { label: 'Chains', value: proposal.chains.join(', ') || 'any (31337 and 31338 offered)' },
          { label: 'Methods', value: proposal.methods.join(', ') || '(none)' },
          { label: 'Events', value: proposal.events.join(', ') || '(none)' },
          { label: 'Account', value: address },
        ]),
        proposal.leftOut.length > 0 &&
          h('p', { class: 'note' }, `Not supported, left out: ${proposal.leftOut.join(', ')}`),
      )
      body.append(
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'approve',
              onclick: () => act(body, () => wallet.approveProposal(proposal.id)),
            },
            'Approve',
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'reject',
              onclick: () => act(body, () => wallet.rejectProposal(proposal.id)),
            },
            'Reject',
          ),
        ),
      )
      return body
    }

    const requestView = (request: RequestView): HTMLElement => {
      const headingId = `request-${request.id}`
      const article = h(
        'article',
        { class: 'card', 'aria-labelledby': headingId, 'data-request-id': String(request.id) },
        h('h3', { id: headingId, tabindex: '-1' }, request.method),
        h('p', { class: 'meta' }, `From ${request.dappName} on ${request.chainId}`),
        summaryList(request.summary),
      )
      article.append(
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'approve',
              onclick: () => act(article, () => wallet.approveRequest(request.id)),
            },
            'Approve',
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'reject',
              onclick: () => act(article, () => wallet.rejectRequest(request.id)),
            },
            'Reject',
          ),
        ),
      )
      return article
    }

    const sessionView = (session: SessionView): HTMLElement => {
      const item = h(
        'li',
        { class: 'card', 'data-topic': session.topic },
        h('p', { class: 'lead' }, h('strong', {}, session.dappName)),
        summaryList([
          { label: 'Website', value: session.dappUrl || '(none given)' },
          { label: 'Chain', value: session.chainId },
          { label: 'Accounts', value: session.accounts.join('\n') },
          { label: 'Expires', value: new Date(session.expiry * 1000).toLocaleString() },
        ]),
      )
      item.append(
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'reject',
              'aria-label': `Disconnect ${session.dappName}`,
              onclick: () => act(item, () => wallet.disconnect(session.topic)),
            },
            'Disconnect',
          ),
        ),
      )
      return item
    }

    /** Adds new items, removes gone ones, keeps the rest (and the focus inside them). */
    const reconcile = <T>(
      container: HTMLElement,
      elements: Map<string | number, HTMLElement>,
      items: readonly T[],
      key: (item: T) => string | number,
      view: (item: T) => HTMLElement,
    ) => {
      const keys = new Set(items.map(key))
      for (const [itemKey, element] of elements) {
        if (keys.has(itemKey)) continue
        element.remove()
        elements.delete(itemKey)
      }
      for (const item of items) {
        const itemKey = key(item)
        let element = elements.get(itemKey)
        if (!element) {
          element = view(item)
          elements.set(itemKey, element)
        }
        container.append(element) // keeps the order of `items`; moving keeps focus in Chromium
      }
    }

    const render = () => {
      const hadFocus = document.activeElement
      const state = wallet.state()

      const proposal = state.proposals[0]
      if (proposal?.id !== proposalKey) {
        proposalKey = proposal?.id
        proposalBody.replaceChildren(...(proposal ? [proposalView(proposal)] : []))
        proposalSection.hidden = !proposal
        if (proposal && state.proposals.length > 1) {
          proposalBody.append(h('p', { class: 'meta' }, `${state.proposals.length - 1} more waiting`))
        }
      }
      reconcile(requestList, requestElements, state.requests, (request) => request.id, requestView)
      requestsEmpty.hidden = state.requests.length > 0
      reconcile(
        sessionList,
        sessionElements,
        state.sessions,
        (session) => `${session.topic} ${session.chainId} ${session.accounts.join(' ')}`,
        sessionView,
      )
      sessionsEmpty.hidden = state.sessions.length > 0

      // The answered item took the focus with it: move to the next thing to answer, or the log.
      if (hadFocus && hadFocus !== document.body && !hadFocus.isConnected) {
        const next =
          proposalSection.hidden === false
            ? byId(root, 'proposal-heading')
            : requestList.querySelector<HTMLElement>('h3')
        ;(next ?? statusLog).focus()
      }
    }

    wallet.onStatus(({ text, kind }) => status(text, kind))
    wallet.onChange(render)

    form.addEventListener('submit', (event) => {
      event.preventDefault()
      pairError.textContent = ''
      input.removeAttribute('aria-invalid')
      const uri = input.value.trim()
      if (!uri.startsWith('wc:')) {
        pairError.textContent = 'Paste a WalletConnect URI: it starts with "wc:".'
        input.setAttribute('aria-invalid', 'true')
        input.focus()
        return
      }
      pairButton.disabled = true
      wallet
        .pair(uri)
        .then(
          () => {
            input.value = ''
          },
          (error: unknown) => {
            pairError.textContent = error instanceof Error ? error.message : String(error)
            input.setAttribute('aria-invalid', 'true')
          },
        )
        .finally(() => {
          pairButton.disabled = false
        })
    })

    pairButton.disabled = false
    render()
    status('Ready', 'success')
  }

  return { status, attach }
}
