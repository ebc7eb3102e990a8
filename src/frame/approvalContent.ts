// What an approval shows, in plain words: its title, the site and the rows of the request.
import type {
  ApprovalPreview,
  BitcoinPreview,
  PermissionsPreview,
  PreviewAction,
  PreviewApproval,
  PreviewFieldLabel,
  PreviewWarning,
} from '../protocol/embedded/index.ts'
import { formatBalance, formatExact, shortAddress } from '../shared/format.ts'
import type { MessageKey } from '../shared/locales/en.ts'
import { type Child, h, hostOf } from './dom.ts'
import type { Strings } from './strings.ts'
import type { AccountTypePreview } from './walletTypes.ts'

function titleKey(method: string): MessageKey {
  switch (method) {
    case 'personal_sign':
    case 'solana_signMessage':
    case 'signMessage':
      return 'frameTitleMessage'
    case 'eth_signTypedData_v4':
      return 'frameTitleTypedData'
    case 'wallet_sendCalls':
    case 'eth_sendUserOperation':
      return 'frameTitleCalls'
    case 'eth_sendTransaction':
    case 'sendTransfer':
      return 'frameTitleTransaction'
    case 'wallet_grantPermissions':
    case 'wallet_requestExecutionPermissions':
      return 'frameTitlePermissions'
    case 'wallet_revokePermissions':
      return 'frameTitleRevokePermissions'
    default:
      return 'frameTitleSolanaTransaction'
  }
}

/** The catalogue key of each decoded field's label. */
const fieldKeys: Record<PreviewFieldLabel, MessageKey> = {
  owner: 'frameFieldOwner',
  spender: 'frameFieldSpender',
  from: 'frameFieldFrom',
  to: 'frameTo',
  operator: 'frameFieldOperator',
  allowed: 'frameFieldAllowed',
  tokenId: 'frameFieldTokenId',
  amount: 'frameAmount',
  deadline: 'frameFieldDeadline',
  account: 'frameAccount',
  destination: 'frameFieldDestination',
  mint: 'frameFieldMint',
  delegate: 'frameFieldDelegate',
  authority: 'frameFieldAuthority',
  newAuthority: 'frameFieldNewAuthority',
  authorityType: 'frameFieldAuthorityType',
  program: 'frameFieldProgram',
  space: 'frameFieldSpace',
}

/** The catalogue key of each warning a decoded action carries. */
const warningKeys: Record<PreviewWarning, MessageKey> = {
  unlimitedApproval: 'frameWarnUnlimitedApproval',
  approvalForAll: 'frameWarnApprovalForAll',
  assign: 'frameWarnAssign',
  delegate: 'frameWarnDelegate',
  setAuthority: 'frameWarnSetAuthority',
  closeAccount: 'frameWarnCloseAccount',
}

/** A plain warning the person reads before approving. */
const warning = (text: string) => h('p', { class: 'warning', 'data-warning': '' }, `⚠ ${text}`)

/**
 * The fee as the rest of the modal shows amounts (3 decimals, SPEC 9), never "0.000" for a fee that
 * is not zero.
 */
function feeText(fee: bigint, decimals: number, symbol: string, locale: string): string {
  const shown = formatBalance(fee, decimals, { locale })
  const smallest = 10n ** BigInt(Math.max(0, decimals - 3))
  if (fee > 0n && fee < smallest) return `< ${formatBalance(smallest, decimals, { locale })} ${symbol}`
  return `${shown} ${symbol}`
}

/**
 * The fee with its value in US dollars where the service knows it, as the modal shows amounts with
 * their value: `0.001 ETH ($2.99)`; a fee worth less than a cent is `< $0.01`, never `$0.00`.
 */
function feeWithValue(preview: ApprovalPreview, fee: string, strings: Strings): string {
  const { network, feeUsd } = preview
  const text = feeText(BigInt(fee), network.decimals, network.symbol, strings.locale)
  if (feeUsd === undefined) return text
  const value =
    feeUsd > 0 && feeUsd < 0.01 ? `< ${strings.currency(0.01, 'USD')}` : strings.currency(feeUsd, 'USD')
  return `${text} (${value})`
}

/** A token allowance in words: "10 USDC a day", "5 USDC in all", "1 USDC every 90 seconds". */
function allowanceText(token: PermissionsPreview['tokens'][number], { t, locale }: Strings): string {
  const amount = `${token.decimals === undefined ? token.amount : formatExact(BigInt(token.amount), token.decimals, locale)} ${token.symbol ?? shortAddress(token.address)}`
  if (token.total) return t('framePermissionInAll', { amount })
  if (token.period === 86_400) return t('framePermissionPerDay', { amount })
  if (token.period === 3_600) return t('framePermissionPerHour', { amount })
  if (token.period === 604_800) return t('framePermissionPerWeek', { amount })
  return t('framePermissionEvery', { amount, count: token.period })
}

/**
 * A permission to grant or revoke (ERC-7715): who may act (the site line above), until when, what it may
 * spend per period, which contracts and functions, what it may send per action, how many actions, the
 * fee per action, and the warning that the site acts without asking.
 */
function permissionDetails(preview: ApprovalPreview, permissions: PermissionsPreview, strings: Strings) {
  const { t, locale } = strings
  const { network } = preview
  const row = (name: string, value: Child) =>
    h('div', { class: 'row' }, h('dt', {}, name), h('dd', {}, value))
  const mono = (text: string) => h('bdi', { class: 'mono wrap' }, text)
  const native = (value: string) =>
    `${formatExact(BigInt(value), network.decimals, locale)} ${network.symbol}`
  const until = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(permissions.expiry * 1000),
  )
  const grant = permissions.action === 'grant'
  return [
    h('p', { class: 'muted' }, t(grant ? 'framePermissionIntro' : 'framePermissionRevokeIntro')),
    grant && warning(t('framePermissionWarn')),
    h(
      'dl',
      { class: 'rows', 'data-permission': permissions.action },
      row(t('frameNetwork'), network.name),
      row(t('frameAccount'), mono(preview.from)),
      row(t('framePermissionUntil'), h('strong', {}, until)),
      ...permissions.tokens.map((token) =>
        row(
          t('framePermissionSpend'),
          h('strong', { 'data-allowance': '' }, h('bdi', {}, allowanceText(token, strings))),
        ),
      ),
      ...permissions.contracts.map((contract) =>
        row(
          t('framePermissionCall'),
          h(
            'div',
            {},
            mono(contract.address),
            h('ul', { class: 'mono' }, ...contract.functions.map((fn) => h('li', {}, h('bdi', {}, fn)))),
          ),
        ),
      ),
      permissions.valueCap !== '0' &&
        row(t('framePermissionValue'), t('framePermissionUpTo', { amount: native(permissions.valueCap) })),
      permissions.callLimit > 0 &&
        row(t('framePermissionActions'), t('framePermissionAtMost', { count: permissions.callLimit })),
      row(t('framePermissionFee'), t('framePermissionUpTo', { amount: native(permissions.maxGasCost) })),
    ),
  ].filter((element): element is HTMLElement => element instanceof HTMLElement)
}

/** A time (unix seconds) in the person's words; the number itself when no date can show it. */
function dateText(seconds: number, locale: string): string {
  const date = new Date(seconds * 1000)
  if (!Number.isFinite(date.getTime())) return String(seconds)
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)
}

/**
 * One approval, shown before anything else: who gets rights (spender or operator, in full), over which
 * token (its symbol where the chain answered one, and its address), how much ("Unlimited" with its
 * warning), until when, and where it was found (the call and the wrappers around it).
 */
function approvalGroup(approval: PreviewApproval, preview: ApprovalPreview, strings: Strings): HTMLElement {
  const { t, locale } = strings
  const row = (name: string, value: Child, className = '') =>
    h('div', { class: `row ${className}`.trim() }, h('dt', {}, name), h('dd', {}, value))
  const mono = (text: string) => h('bdi', { class: 'mono wrap' }, text)
  const { symbol, decimals } = approval
  const amountText = (value: string) => {
    const shown = decimals === undefined ? value : formatExact(BigInt(value), decimals, locale)
    return `${shown}${symbol ? ` ${symbol}` : ''}`
  }
  const amount: Child = approval.unlimited
    ? h('strong', { 'data-unlimited': '' }, t('frameUnlimited'))
    : approval.amount !== undefined
      ? h('strong', {}, h('bdi', {}, amountText(approval.amount)))
      : undefined
  const where = [
    ...((preview.transfers?.length ?? 0) > 1 && approval.call !== undefined
      ? [t('frameCall', { index: approval.call + 1 })]
      : []),
    ...approval.via,
  ]
  const otherOwner =
    approval.owner !== undefined && approval.owner.toLowerCase() !== preview.from.toLowerCase()
  const notPermit2 = approval.standard === 'Permit2' && approval.canonicalPermit2 === false
  return h(
    'section',
    { class: 'approval', 'data-approval': approval.name },
    h('h2', {}, h('bdi', {}, t('frameApprovalTitle', { standard: approval.standard }))),
    approval.unlimited
      ? warning(t('frameWarnUnlimitedApproval'))
      : approval.all
        ? warning(t('frameWarnApprovalForAll'))
        : h('p', { class: 'muted' }, t('frameApprovalIntro')),
    notPermit2 && warning(t('frameWarnPermit2Contract')),
    h(
      'dl',
      { class: 'rows' },
      row(t(approval.all ? 'frameFieldOperator' : 'frameFieldSpender'), mono(approval.spender), 'spender'),
      row(
        t('frameFieldToken'),
        symbol
          ? h('div', {}, h('strong', {}, h('bdi', {}, symbol)), h('div', {}, mono(approval.token)))
          : mono(approval.token),
      ),
      approval.tokenId !== undefined && row(t('frameFieldTokenId'), mono(approval.tokenId)),
      amount && row(t(approval.increase ? 'frameApprovalIncrease' : 'frameAmount'), amount, 'amount'),
      otherOwner && row(t('frameFieldOwner'), mono(approval.owner as string)),
      approval.expiration !== undefined &&
        row(t('frameApprovalExpires'), dateText(approval.expiration, locale)),
      approval.deadline !== undefined &&
        row(t('frameApprovalSignatureDeadline'), dateText(approval.deadline, locale)),
      where.length > 0 && row(t('frameApprovalVia'), mono(where.join(' › '))),
    ),
  )
}

/**
 * A Bitcoin transaction (PSBT) as the service read it from its bytes: every coin it spends (the
 * person's, which this approval signs, and others', which it does not) and every output, each with its
 * address and amount; an output without an address is shown as its script, with a warning.
 */
function bitcoinDetails(
  bitcoin: BitcoinPreview,
  amount: (value: string) => string,
  { t }: Strings,
): HTMLElement[] {
  const list = (entries: BitcoinPreview['inputs'], note: (own: boolean) => string | false) =>
    h(
      'ul',
      { class: 'rows' },
      ...entries.map((entry) =>
        h(
          'li',
          { class: 'row', 'data-own': String(entry.own) },
          h('bdi', { class: 'mono wrap' }, entry.address),
          h('strong', {}, h('bdi', {}, amount(entry.amount))),
          note(entry.own) && h('span', { class: 'muted' }, note(entry.own) as string),
        ),
      ),
    )
  const scripts = bitcoin.outputs.some((output) => output.address.startsWith('script:'))
  return [
    h(
      'section',
      { 'data-bitcoin': 'inputs' },
      h('h2', {}, t('frameBitcoinInputs')),
      list(bitcoin.inputs, (own) => t(own ? 'frameBitcoinOwnInput' : 'frameBitcoinOtherInput')),
    ),
    h(
      'section',
      { 'data-bitcoin': 'outputs' },
      h('h2', {}, t('frameBitcoinOutputs')),
      scripts && warning(t('frameWarnBitcoinScript')),
      list(bitcoin.outputs, (own) => own && t('frameBitcoinOwnOutput')),
    ),
  ]
}

/** The rows of what a request asks for, in plain words. */
export function details(preview: ApprovalPreview, strings: Strings): HTMLElement[] {
  if (preview.permissions) return permissionDetails(preview, preview.permissions, strings)
  const { t, locale } = strings
  const { network } = preview
  const amount = (value: string) =>
    `${formatExact(BigInt(value), network.decimals, locale)} ${network.symbol}`
  const row = (name: string, value: Child, className = '') =>
    h('div', { class: `row ${className}`.trim() }, h('dt', {}, name), h('dd', {}, value))
  const mono = (text: string, title?: string) =>
    h('bdi', { class: 'mono wrap', ...(title ? { title } : {}) }, text)
  // A call's contract is its "To" row already; an instruction's program is shown with it.
  const action = (decoded: PreviewAction, showContract = true): HTMLElement[] => {
    const symbol = decoded.token?.symbol ?? ''
    const value = (field: PreviewAction['fields'][number]): Child => {
      if (field.unlimited) return h('strong', { 'data-unlimited': '' }, t('frameUnlimited'))
      if (field.amount !== undefined) {
        const decimals = decoded.token?.decimals
        const text =
          decimals === undefined ? field.amount : formatExact(BigInt(field.amount), decimals, locale)
        return h('strong', {}, h('bdi', {}, `${text}${symbol ? ` ${symbol}` : ''}`))
      }
      if (field.address !== undefined) return mono(field.address)
      if (field.label === 'allowed') return t(field.text === 'yes' ? 'frameYes' : 'frameNo')
      return mono(field.text ?? '')
    }
    return [
      h(
        'section',
        { class: 'action', 'data-action-name': decoded.name },
        h('h2', {}, h('bdi', {}, t('frameDecoded', { standard: decoded.standard, name: decoded.name }))),
        ...decoded.warnings.map((key) => warning(t(warningKeys[key]))),
        h(
          'dl',
          { class: 'rows' },
          showContract && row(t('frameFieldProgram'), mono(decoded.contract)),
          ...decoded.fields.map((field) => row(t(fieldKeys[field.label]), value(field))),
        ),
      ),
    ]
  }
  const sections: HTMLElement[] = [
    ...(preview.approvals ?? []).map((approval) => approvalGroup(approval, preview, strings)),
    h(
      'dl',
      { class: 'rows' },
      row(t('frameNetwork'), network.name),
      row(t('frameAccount'), mono(shortAddress(preview.from), preview.from)),
    ),
  ]
  const transfers = preview.transfers ?? []
  for (const [index, transfer] of transfers.entries()) {
    const rows = h(
      'dl',
      { class: 'rows' },
      row(t('frameTo'), transfer.to ? mono(transfer.to) : t('frameContractCreation')),
      row(t('frameAmount'), h('strong', {}, h('bdi', {}, amount(transfer.value))), 'amount'),
      transfer.dataBytes > 0 && row(t('frameData'), t('frameDataBytes', { count: transfer.dataBytes })),
    )
    // Data read in part only (a wrapper around a call nothing reads) keeps the warning beside what was read.
    const unreadable = transfer.unreadable ?? (transfer.dataBytes > 0 && !transfer.action)
    const decoded = [
      ...(transfer.action ? action(transfer.action, false) : []),
      ...(unreadable ? [warning(t('frameWarnUndecoded'))] : []),
    ]
    sections.push(
      transfers.length > 1
        ? h('section', {}, h('h2', {}, t('frameCall', { index: index + 1 })), rows, ...decoded)
        : rows,
    )
    if (transfers.length === 1) sections.push(...decoded)
  }
  if (preview.bitcoin) sections.push(...bitcoinDetails(preview.bitcoin, amount, strings))
  for (const instruction of preview.instructions ?? []) sections.push(...action(instruction))
  if (preview.programs?.length) {
    sections.push(
      h(
        'section',
        {},
        h('h2', {}, t('framePrograms')),
        warning(t('frameWarnUnknownProgram')),
        h('ul', { class: 'mono' }, ...preview.programs.map((program) => h('li', {}, program))),
      ),
    )
  }
  if (preview.message) {
    sections.push(
      h(
        'section',
        {},
        h('h2', {}, t('frameMessage')),
        h(
          'pre',
          { class: 'message', tabindex: '0', dir: 'auto' },
          preview.message.text ?? preview.message.hex ?? '',
        ),
      ),
    )
  }
  if (preview.typedData) {
    const { domain, primaryType, fields } = preview.typedData
    const list = (rows: { name: string; value: string }[]) =>
      h('dl', { class: 'rows' }, ...rows.map((entry) => row(entry.name, mono(entry.value))))
    sections.push(h('section', {}, h('h2', {}, t('frameDomain')), list(domain)))
    sections.push(h('section', {}, h('h2', {}, h('bdi', {}, primaryType)), list(fields)))
  }
  if (transfers.length > 0 || preview.programs || preview.instructions || preview.bitcoin) {
    sections.push(
      h(
        'dl',
        { class: 'rows' },
        row(
          t('frameFee'),
          preview.sponsored
            ? t('frameFeeSponsored')
            : preview.fee === undefined
              ? t('frameFeeUnknown')
              : h('bdi', {}, feeWithValue(preview, preview.fee, strings)),
        ),
      ),
    )
  }
  return sections
}

/**
 * A switch of the account type (the person approves it, whichever frame asked): the network, the account
 * requests use now and the one they will use, in full (the person compares the address the site will see).
 */
function accountTypeDetails(preview: AccountTypePreview, { t }: Strings): HTMLElement[] {
  const row = (name: string, value: Child) =>
    h('div', { class: 'row' }, h('dt', {}, name), h('dd', {}, value))
  const mono = (text: string) => h('bdi', { class: 'mono wrap' }, text)
  return [
    h(
      'p',
      { class: 'muted' },
      t(preview.type === 'smartAccount' ? 'frameAccountTypeSmartHint' : 'frameAccountTypeEoaHint'),
    ),
    h(
      'dl',
      { class: 'rows', 'data-account-type-switch': preview.type },
      row(t('frameNetwork'), preview.network),
      row(t('frameAccountNow'), mono(preview.from)),
      row(t('frameAccountNext'), h('strong', {}, mono(preview.to))),
    ),
  ]
}

/**
 * What the approval shows above its buttons: the title, the site and the rows. One home for both
 * places it is shown: the frame's view and the approval window (./approve.ts).
 *
 * @example
 * panel.append(...approvalContent(preview, strings, 'https://shop.example'))
 */
export function approvalContent(
  preview: ApprovalPreview | AccountTypePreview,
  strings: Strings,
  site: string,
): [title: HTMLElement, ...rows: HTMLElement[]] {
  const { t } = strings
  const host = hostOf(site)
  const switching = 'kind' in preview ? preview : undefined
  return [
    h(
      'h1',
      { id: 'approval-title', tabindex: '-1' },
      switching
        ? t(switching.type === 'smartAccount' ? 'frameTitleSmartAccount' : 'frameTitleEoa')
        : t(titleKey((preview as ApprovalPreview).method)),
    ),
    h('p', { class: 'site' }, t('frameSite', { host })),
    ...(switching ? accountTypeDetails(switching, strings) : details(preview as ApprovalPreview, strings)),
  ]
}
