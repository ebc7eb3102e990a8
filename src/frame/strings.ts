/**
 * The frame's words. They live in the modal's locale catalogues (the frame is told the modal's
 * locale with SYNC_DAPP_DATA); this module picks the frame's keys for one language.
 */
export const frameEn = {
  approveTitleMessage: 'Sign this message',
  approveTitleTypedData: 'Sign typed data',
  approveTitleTransaction: 'Approve transaction',
  approveTitleCalls: 'Approve calls',
  approveTitleSolanaTransaction: 'Sign transaction',
  approveSite: '{host} asks your wallet to do this.',
  approveNetwork: 'Network',
  approveAccount: 'Account',
  approveTo: 'To',
  approveAmount: 'Amount',
  approveData: 'Data',
  approveDataBytes: '{count} bytes of contract data',
  approveContractCreation: 'New contract',
  approveFee: 'Estimated fee (at most)',
  approveFeeUnknown: 'Could not be estimated',
  approveMessage: 'Message',
  approveDomain: 'Domain',
  approveFields: '{type}',
  approvePrograms: 'Other programs',
  approveCall: 'Call {index}',
  approve: 'Approve',
  approving: 'Approving…',
  reject: 'Reject',
  deviceTitle: 'Approve a new browser',
  deviceIntro: '{email} is signing in to {site} from {browser}.',
  deviceWarning:
    'Approve only if you are signing in right now. Anyone you approve can use your wallet on that site.',
  deviceRequested: 'Requested {time}',
  deviceApprove: 'Approve this browser',
  deviceDeny: 'Deny',
  deviceApproved: 'Approved. Go back to {site}: you are signed in there.',
  deviceDenied: 'Denied. That browser cannot sign in with this link.',
  deviceExpired: 'This link has expired. Sign in again to get a new one.',
  deviceInvalid: 'This link is not valid.',
  deviceLoading: 'Loading…',
} as const

export type FrameStrings = typeof frameEn
export type FrameStringKey = keyof FrameStrings

/**
 * A message with `{name}` values filled in.
 *
 * @example
 * format(frameEn.approveSite, { host: 'shop.example' }) // 'shop.example asks your wallet to do this.'
 */
export function format(message: string, values: Record<string, string | number> = {}): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  )
}
