// The embedded wallet's words (SPEC 2, 4, 5): its e-mail section on Connect, its views, and the wallet
// frame's own pages. A catalogue apart from ../en.ts, loaded with those views, so a page that never
// uses the e-mail sign-in never fetches them. English keys and message formats, as in ../en.ts.

const embedded = {
  email: 'Email',
  emailPlaceholder: 'you@example.com',
  continueWithEmail: 'Continue',
  orUseAWallet: 'or use a wallet',
  emailSending: 'Sending…',
  verifyOtpHint: 'We sent a 6-digit code to {email}. It works once, for 10 minutes.',
  code: 'Code',
  verifying: 'Checking the code…',
  resendCode: 'Send a new code',
  resendIn: 'You can ask for a new one in {seconds, plural, one {# second} other {# seconds}}',
  codeSent: 'A new code is on its way',
  verifyDeviceHint:
    'This browser is new for {email}. We sent a link there: open it and approve, and you are signed in here.',
  waitingForApproval: 'Waiting for your approval…',
  resendLink: 'Send a new link',
  linkSent: 'A new link is on its way',
  approveInFrame: 'The request, as your wallet shows it',
  newEmail: 'New e-mail address',
  updateEmailHint: 'We send a code to your current address first, then one to the new address.',
  updateEmailPrimaryHint: 'Enter the code we sent to your current address, {email}.',
  updateEmailSecondaryHint: 'Enter the code we sent to {email}.',
  emailUpdated: 'Your e-mail address was updated',
  signedInWith: 'Signed in with',
  frameTitleMessage: 'Sign this message',
  frameTitleTypedData: 'Sign typed data',
  frameTitleTransaction: 'Approve transaction',
  frameTitleCalls: 'Approve calls',
  frameTitleSolanaTransaction: 'Sign transaction',
  frameSite: '{host} asks your wallet to do this.',
  frameNetwork: 'Network',
  frameAccount: 'Account',
  frameTo: 'To',
  frameAmount: 'Amount',
  frameData: 'Data',
  frameDataBytes: '{count, plural, one {# byte} other {# bytes}} of contract data',
  frameContractCreation: 'New contract',
  frameFee: 'Estimated fee (at most)',
  frameFeeUnknown: 'Could not be estimated',
  frameMessage: 'Message',
  frameDomain: 'Domain',
  framePrograms: 'Other programs',
  frameCall: 'Call {index}',
  frameApprove: 'Approve',
  frameApproving: 'Approving…',
  frameReject: 'Reject',
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
  'error.InvalidCodeError': 'Invalid code: {attemptsLeft, plural, one {# try} other {# tries}} left',
  'error.CodeExpiredError': 'This code no longer works: ask for a new one',
  'error.invalidEmail': 'Invalid email address',
  'error.sameEmail': "This is already your wallet's e-mail address",
  'error.mailFailed': 'The e-mail could not be sent: try again',
  'error.emailInUse': 'This e-mail address is already in use',
  'error.deviceDenied': 'The new browser was denied',
  'error.tooManyRequests':
    'Too many requests: try again in {seconds, plural, one {# second} other {# seconds}}',
}

export type EmbeddedMessageKey = keyof typeof embedded
/** A language's embedded-wallet catalogue: exactly the keys of English. */
export type EmbeddedMessages = Readonly<Record<EmbeddedMessageKey, string>>

export default embedded as EmbeddedMessages
