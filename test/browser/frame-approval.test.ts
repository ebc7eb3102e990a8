// The frame's approval view (src/frame/approval.ts, approvalContent.ts) in Chromium with the frame's own
// styles: approvals named first, and every approval view opening at its top.
import { setViewport } from '@web/test-runner-commands'
import axe from 'axe-core'
import { approvalContent } from '../../src/frame/approvalContent.ts'
import { loadStrings } from '../../src/frame/strings.ts'
import type { ApprovalPreview } from '../../src/protocol/embedded/index.ts'
import { assert, equal } from './helpers.ts'

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
    assert(group?.matches('section.approval'), 'the approval first')
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
