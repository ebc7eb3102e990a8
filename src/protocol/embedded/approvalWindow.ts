import * as z from 'zod/mini'
import { frameNonce } from './frame.ts'
import { approvalPreview } from './preview.ts'

// Messages between the wallet frame and the approval window it opens (`/approve`, a top-level window
// on the frame's own origin) in engines without IntersectionObserver v2, against clickjacking. Both are
// the frame's origin: every window message is checked for that exact origin and its source window,
// and carries the nonce of one opening, so a window left from an earlier request never answers a
// new one. Both sides parse every message with these schemas; what does not parse is dropped.

/** The window has loaded and asks its opener for a port (posted to `window.opener`, the frame's origin). */
export const APPROVE_WINDOW_READY = 'wallet-elements:approve-window-ready'
/** The frame's answer to the window (posted to the window it opened, with one `MessagePort`). */
export const APPROVE_WINDOW_PORT = 'wallet-elements:approve-window-port'

/** The window's first message, to `window.opener`: the nonce from its own URL's fragment. */
export const approveWindowReady = z.object({ type: z.literal(APPROVE_WINDOW_READY), nonce: frameNonce })

/** The frame hands the window a port: everything after goes over it. */
export const approveWindowPort = z.object({ type: z.literal(APPROVE_WINDOW_PORT), nonce: frameNonce })

/**
 * A switch of the account type (the person approves it, whichever frame asked), built by the frame from the
 * service's answer: the network, the account requests use now and the one they will use.
 */
export const accountTypePreview = z.object({
  kind: z.literal('accountType'),
  type: z.enum(['eoa', 'smartAccount']),
  /** The network's name (the preference applies where the network has smart accounts). */
  network: z.string(),
  from: z.string(),
  to: z.string(),
})
export type AccountTypePreview = z.infer<typeof accountTypePreview>

/** Over the port, frame to window: what to show (the frame's preview, the site, the modal's language). */
export const approveWindowRequest = z.object({
  type: z.literal('request'),
  nonce: frameNonce,
  preview: z.union([approvalPreview, accountTypePreview]),
  /** The site's origin (the frame's handshake origin). */
  site: z.string(),
  locale: z.string(),
})
export type ApproveWindowRequest = z.infer<typeof approveWindowRequest>

/** Over the port, window to frame: the person's click on Approve or Reject. */
export const approveWindowDecision = z.object({
  type: z.literal('decision'),
  nonce: frameNonce,
  approved: z.boolean(),
})
export type ApproveWindowDecision = z.infer<typeof approveWindowDecision>

/**
 * Over the port, frame to window: the decision has reached the frame, so the window may close (a phone
 * then shows the site's tab again). A window whose frame is in a suspended tab gets this only when the
 * person goes back there; until then it says so.
 */
export const approveWindowReceived = z.object({ type: z.literal('received'), nonce: frameNonce })
export type ApproveWindowReceived = z.infer<typeof approveWindowReceived>
