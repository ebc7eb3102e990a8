import type { ApprovalPreview, FrameNotice } from '../protocol/embedded/index.ts'
import { formatExact, shortAddress } from '../protocol/format.ts'
import { type FrameStrings, format } from './strings.ts'
import { type ApprovalUi, userRejected } from './wallet.ts'

type Child = Node | string | null | undefined | false

/** A DOM element with text children only (values never become markup). */
function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value)
  for (const child of children) if (child) element.append(child)
  return element
}

function titleKey(method: string): keyof FrameStrings {
  switch (method) {
    case 'personal_sign':
    case 'solana_signMessage':
      return 'approveTitleMessage'
    case 'eth_signTypedData_v4':
      return 'approveTitleTypedData'
    case 'wallet_sendCalls':
      return 'approveTitleCalls'
    case 'eth_sendTransaction':
      return 'approveTitleTransaction'
    default:
      return 'approveTitleSolanaTransaction'
  }
}

/** The rows of what a request asks for, in plain words. */
function details(preview: ApprovalPreview, t: FrameStrings): HTMLElement[] {
  const { network } = preview
  const amount = (value: string) => `${formatExact(BigInt(value), network.decimals)} ${network.symbol}`
  const row = (name: string, value: Child, className = '') =>
    h('div', { class: `row ${className}`.trim() }, h('dt', {}, name), h('dd', {}, value))
  const summary = h(
    'dl',
    { class: 'rows' },
    row(t.approveNetwork, network.name),
    row(t.approveAccount, h('span', { class: 'mono', title: preview.from }, shortAddress(preview.from))),
  )
  const sections: HTMLElement[] = [summary]
  const transfers = preview.transfers ?? []
  transfers.forEach((transfer, index) => {
    const rows = h(
      'dl',
      { class: 'rows' },
      row(
        t.approveTo,
        transfer.to ? h('span', { class: 'mono wrap' }, transfer.to) : t.approveContractCreation,
      ),
      row(t.approveAmount, h('strong', {}, amount(transfer.value)), 'amount'),
      transfer.dataBytes > 0 && row(t.approveData, format(t.approveDataBytes, { count: transfer.dataBytes })),
    )
    sections.push(
      transfers.length > 1
        ? h('section', {}, h('h2', {}, format(t.approveCall, { index: index + 1 })), rows)
        : rows,
    )
  })
  if (preview.programs?.length) {
    sections.push(
      h(
        'section',
        {},
        h('h2', {}, t.approvePrograms),
        h('ul', { class: 'mono' }, ...preview.programs.map((program) => h('li', {}, program))),
      ),
    )
  }
  if (preview.message) {
    sections.push(
      h(
        'section',
        {},
        h('h2', {}, t.approveMessage),
        h('pre', { class: 'message', tabindex: '0' }, preview.message.text ?? preview.message.hex ?? ''),
      ),
    )
  }
  if (preview.typedData) {
    const { domain, primaryType, fields } = preview.typedData
    const list = (rows: { name: string; value: string }[]) =>
      h(
        'dl',
        { class: 'rows' },
        ...rows.map((entry) => row(entry.name, h('span', { class: 'wrap' }, entry.value))),
      )
    sections.push(h('section', {}, h('h2', {}, t.approveDomain), list(domain)))
    sections.push(h('section', {}, h('h2', {}, format(t.approveFields, { type: primaryType })), list(fields)))
  }
  if (transfers.length > 0 || preview.programs) {
    sections.push(
      h(
        'dl',
        { class: 'rows' },
        row(t.approveFee, preview.fee === undefined ? t.approveFeeUnknown : amount(preview.fee)),
      ),
    )
  }
  return sections
}

/**
 * The ApproveTransaction view inside the frame (its own origin): what is asked in plain words, and
 * Approve / Reject. The modal shows the frame over its view while this is up; only a click here
 * approves (the page cannot click into another origin's frame).
 *
 * @example
 * const approvals = createApprovalUi({ root, notify, strings: () => strings, site: () => site })
 */
export function createApprovalUi(options: {
  root: HTMLElement
  notify: (notice: FrameNotice) => void
  strings: () => FrameStrings
  site: () => string
}): ApprovalUi {
  let queue: Promise<unknown> = Promise.resolve()
  let current: { reject(error: unknown): void } | undefined
  let observer: ResizeObserver | undefined

  const hide = () => {
    observer?.disconnect()
    observer = undefined
    options.root.replaceChildren()
    current = undefined
    options.notify({ type: 'APPROVAL_HIDE', payload: {} })
  }

  function render(preview: ApprovalPreview, sign: () => Promise<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const t = options.strings()
      let settled = false
      const settle = (outcome: () => void) => {
        if (settled) return
        settled = true
        outcome()
        hide()
      }
      const title = h('h1', { id: 'approval-title', tabindex: '-1' }, t[titleKey(preview.method)])
      const approve = h('button', { type: 'button', class: 'primary', 'data-action': 'approve' }, t.approve)
      const rejectButton = h(
        'button',
        { type: 'button', class: 'secondary', 'data-action': 'reject' },
        t.reject,
      )
      let host = options.site()
      try {
        host = new URL(host).host
      } catch {}
      const panel = h(
        'main',
        { class: 'panel', 'aria-labelledby': 'approval-title' },
        title,
        h('p', { class: 'site' }, format(t.approveSite, { host })),
        ...details(preview, t),
        h('div', { class: 'actions' }, rejectButton, approve),
      )
      current = { reject: (error) => settle(() => reject(error)) }
      rejectButton.addEventListener('click', () => current?.reject(userRejected()))
      approve.addEventListener('click', () => {
        approve.setAttribute('disabled', '')
        rejectButton.setAttribute('disabled', '')
        approve.textContent = t.approving
        approve.setAttribute('aria-busy', 'true')
        sign().then(
          (result) => settle(() => resolve(result)),
          (error: unknown) => settle(() => reject(error)),
        )
      })
      panel.addEventListener('keydown', (event) => {
        if (event.key === 'Escape' && !approve.hasAttribute('disabled')) current?.reject(userRejected())
      })
      options.root.replaceChildren(panel)
      const height = () => Math.ceil(panel.getBoundingClientRect().height)
      options.notify({ type: 'APPROVAL_SHOW', payload: { height: height() } })
      observer = new ResizeObserver(() =>
        options.notify({ type: 'APPROVAL_RESIZE', payload: { height: height() } }),
      )
      observer.observe(panel)
      title.focus()
    })
  }

  return {
    show(preview, sign) {
      const shown = queue.then(() => render(preview, sign))
      queue = shown.catch(() => {})
      return shown
    },
    cancel() {
      current?.reject(userRejected())
    },
  }
}
