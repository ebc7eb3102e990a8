// The frame's approval view (src/frame/approval.ts, approvalContent.ts) in Chromium with the frame's own
// styles: approvals named first, and every approval view opening at its top.
import { setViewport } from '@web/test-runner-commands'
import axe from 'axe-core'
import { createApprovalUi } from '../../src/frame/approval.ts'
import { approvalContent } from '../../src/frame/approvalContent.ts'
import { loadStrings } from '../../src/frame/strings.ts'
import type { ApprovalPreview, FrameNotice } from '../../src/protocol/embedded/index.ts'
import { assert, equal, frames, waitFor } from './helpers.ts'

const SITE = 'https://game.example'
const PERSON = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const DRAINER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const network = { caipNetworkId: 'eip155:31337' as const, name: 'Local', symbol: 'ETH', decimals: 18 }
const MAX = (2n ** 256n - 1n).toString()

/** `approve(drainer, max)` inside USDC's own `multicall(bytes[])`: what the frame is given for it. */
const wrappedApprove: ApprovalPreview = {
  method: 'eth_sendTransaction',
  network,
  from: PERSON,
  approvals: [
    {
      standard: 'ERC-20',
      name: 'approve',
      token: USDC,
      symbol: 'USDC',
      decimals: 6,
      spender: DRAINER,
      amount: MAX,
      unlimited: true,
      call: 0,
      via: ['multicall'],
    },
  ],
  transfers: [{ to: USDC, value: '0', dataBytes: 260, unreadable: false }],
  fee: '21000000000000',
}

/** A permission to grant with many contracts: taller than a phone's screen. */
const longPermission: ApprovalPreview = {
  method: 'wallet_grantPermissions',
  network,
  from: PERSON,
  permissions: {
    action: 'grant',
    expiry: 1_900_000_000,
    tokens: [
      { address: USDC, symbol: 'USDC', decimals: 6, amount: '10000000', period: 86_400, total: false },
    ],
    contracts: Array.from({ length: 8 }, (_, index) => ({
      address: `0x${String(index + 1).repeat(40)}`,
      functions: ['swap(uint256,address)', 'addLiquidity(uint256,uint256)', 'removeLiquidity(uint256)'],
    })),
    valueCap: '1000000000000000',
    callLimit: 20,
    maxGasCost: '10000000000000000',
  },
}

let css: string | undefined
/** The frame's stylesheet, as the frame page loads it. */
async function frameCss(): Promise<string> {
  css ??= await (await fetch('/src/frame/frame.css')).text()
  return css
}

/** Text of the row whose label is `label` in `root`. */
const rowValue = (root: ParentNode, label: string) =>
  [...root.querySelectorAll('.row')]
    .find((row) => row.querySelector('dt')?.textContent === label)
    ?.querySelector('dd')?.textContent

describe('the approval view: approvals named first', () => {
  let host: HTMLElement | undefined
  afterEach(() => host?.remove())

  it('default: a multicall-wrapped unlimited approve shows the spender, the token and "Unlimited" first, with the warning, and no "could not be read" warning', async () => {
    await setViewport({ width: 375, height: 667 })
    const style = document.createElement('style')
    style.textContent = await frameCss()
    document.head.append(style)
    const strings = await loadStrings('en')
    const [title, ...rows] = approvalContent(wrappedApprove, strings, SITE)
    host = document.createElement('main')
    host.className = 'panel'
    host.setAttribute('aria-labelledby', 'approval-title')
    host.append(title, ...rows)
    document.body.append(host)

    const group = host.querySelector<HTMLElement>('section.approval')
    assert(group, 'an approval group')
    equal(rows[1], group, 'the approval comes first, after the site')
    equal(group.querySelector('h2')?.textContent, 'Approval (ERC-20)')
    equal(rowValue(group, 'Spender'), DRAINER)
    equal(rowValue(group, 'Token'), `USDC${USDC}`)
    equal(rowValue(group, 'Amount'), 'Unlimited')
    equal(rowValue(group, 'Found inside'), 'multicall')
    const warnings = [...host.querySelectorAll('[data-warning]')].map((node) => node.textContent)
    equal(warnings.length, 1, 'one warning')
    assert(warnings[0]?.includes('Unlimited approval'), 'the unlimited warning')
    equal(rowValue(host, 'Data'), '260 bytes of contract data', 'the data size is still a row')

    const { violations } = await axe.run(host, { resultTypes: ['violations'] })
    equal(
      violations.map((violation) => `${violation.id}: ${violation.help}`).join('\n'),
      '',
      'axe violations',
    )
    style.remove()
  })

  it('behavior: a limited Permit2 allowance shows the amount in the token’s decimals, the expiry, and warns when the contract is not Permit2', async () => {
    const strings = await loadStrings('en')
    const [, , group] = approvalContent(
      {
        method: 'eth_signTypedData_v4',
        network,
        from: PERSON,
        approvals: [
          {
            standard: 'Permit2',
            name: 'PermitSingle',
            token: USDC,
            decimals: 6,
            spender: DRAINER,
            amount: '2500000',
            expiration: 1_900_000_000,
            deadline: 1_800_000_000,
            canonicalPermit2: false,
            via: [],
          },
        ],
        typedData: { domain: [], primaryType: 'PermitSingle', fields: [] },
      },
      strings,
      SITE,
    )
    assert(group, 'a section after the site')
    assert(group.matches('section.approval'), 'the approval first')
    equal(rowValue(group, 'Token'), USDC, 'no symbol: the address')
    equal(rowValue(group, 'Amount'), '2.5')
    assert(rowValue(group, 'Expires')?.includes('2030'), 'the expiry as a date')
    assert(rowValue(group, 'Signature usable until')?.includes('2027'), 'the signature deadline as a date')
    equal(rowValue(group, 'Found inside'), undefined, 'found at the top: no path')
    const warnings = [...group.querySelectorAll('[data-warning]')].map((node) => node.textContent)
    equal(warnings.length, 1)
    assert(warnings[0]?.includes('not Permit2'), 'the contract is named as not Permit2')
  })

  it('behavior: data read only in part keeps the "could not be read" warning beside the approval', async () => {
    const strings = await loadStrings('en')
    const preview: ApprovalPreview = {
      ...wrappedApprove,
      transfers: [{ to: USDC, value: '0', dataBytes: 400, unreadable: true }],
    }
    const sections = approvalContent(preview, strings, SITE)
    const warnings = sections.flatMap((section) =>
      [
        ...section.querySelectorAll('[data-warning]'),
        ...(section.matches('[data-warning]') ? [section] : []),
      ].map((node) => node.textContent ?? ''),
    )
    assert(
      warnings.some((text) => text.includes('could not be read')),
      'the generic warning stays',
    )
  })
})

describe('the approval view opens at its top', () => {
  let frame: HTMLIFrameElement | undefined
  afterEach(() => frame?.remove())

  it('behavior: at 375 px, a long permission request opens with the site, the heading and the first row in view, focused without scrolling them away', async () => {
    await setViewport({ width: 375, height: 667 })
    // The wallet frame as the modal keeps it until APPROVAL_SHOW: 1 px wide and high (useFrameOverlay).
    frame = document.createElement('iframe')
    frame.title = 'wallet'
    Object.assign(frame.style, {
      position: 'fixed',
      top: '0',
      left: '0',
      width: '1px',
      height: '1px',
      border: '0',
    })
    document.body.append(frame)
    const doc = frame.contentDocument
    assert(doc, 'the frame’s document')
    const style = doc.createElement('style')
    style.textContent = await frameCss()
    doc.head.append(style)
    const root = doc.createElement('div')
    root.id = 'app'
    doc.body.append(root)

    const notices: FrameNotice[] = []
    const approvals = createApprovalUi({
      root,
      notify: (notice) => {
        notices.push(notice)
        // The modal hears of it by postMessage and lays the frame over its view a moment later: the
        // phone's width, less height than the request needs.
        if (notice.type === 'APPROVAL_SHOW')
          setTimeout(() => frame && Object.assign(frame.style, { width: '375px', height: '480px' }), 50)
      },
      strings: () => loadStrings('en'),
      site: () => SITE,
    })
    const shown = approvals.show(longPermission, () => Promise.resolve('0x'))
    shown.catch(() => {})
    const title = await waitFor(() => doc.getElementById('approval-title'), 'the approval view')
    await waitFor(() => frame?.style.height === '480px', 'the modal laying the frame out')
    await frames()
    await frames()

    const panel = doc.querySelector<HTMLElement>('main.panel')
    assert(panel, 'the panel')
    assert(panel.getBoundingClientRect().height > 480, 'the request is taller than the frame (it scrolls)')
    equal(doc.activeElement, title, 'the heading has focus')
    equal(doc.scrollingElement?.scrollTop, 0, 'the frame is at its top')
    const inView = (element: Element | null, what: string) => {
      assert(element, what)
      const { top, bottom } = element.getBoundingClientRect()
      assert(top >= 0 && bottom <= 480, `${what} in view (top ${top}, bottom ${bottom})`)
    }
    inView(title, 'the heading')
    inView(doc.querySelector('.site'), 'the site')
    inView(doc.querySelector('.row'), 'the first row')
    approvals.cancel()
  })
})
