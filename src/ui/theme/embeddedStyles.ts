/**
 * Styles of the embedded wallet's parts of the modal (Connect's e-mail section, the code and device
 * views, ApproveTransaction's frame area, Account's e-mail row), on the modal's tokens. Apart from
 * modalStyles so the dialog's first open on a page without the e-mail sign-in carries none of it;
 * rendered by `EmbeddedScope` beside those parts, inside the same shadow root.
 */
export const embeddedStyles = `
.hint-text { margin: 0; color: var(--_muted); font-size: 14px; overflow-wrap: anywhere; }
.divider { display: flex; align-items: center; gap: 8px; margin: 0; color: var(--_muted); font-size: 13px; }
.divider::before, .divider::after { content: ''; flex: 1; border-top: 1px solid var(--_border); }
.compare-code { display: flex; flex-direction: column; align-items: center; gap: 4px; margin: 0; padding: 12px;
  border-radius: 12px; background: var(--_surface); }
.compare-code strong { font-size: 28px; letter-spacing: 0.3em; font-family: ui-monospace, monospace; }
.code-input { font-size: 24px; letter-spacing: 0.4em; text-align: center; font-variant-numeric: tabular-nums; }
/* Shrinks to the dialog's room (the frame scrolls inside): a long batch keeps Approve within reach. Its
   height is the frame's; the padding below keeps the frame (its Approve bar) off a phone's home
   indicator where the dialog reaches the screen's bottom edge (the body's own 16 px already count). */
.frame-area { width: 100%; border-radius: 12px; background: var(--_surface); flex: 0 1 auto; min-height: 160px;
  --_safe-bottom: max(0px, env(safe-area-inset-bottom, 0px) - 16px); padding-bottom: var(--_safe-bottom); }
.identity { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 4px 8px; align-items: center;
  padding: 8px 12px; border-radius: 12px; background: var(--_surface); font-size: 14px; }
.identity .label { color: var(--_muted); }
.social-list .secondary { width: 100%; }
/* Inside an app's own browser: the notice and its way out, in place of the social buttons. */
.in-app { display: flex; flex-direction: column; gap: 8px; }
.in-app .secondary, .social [part='social-retry'] { width: 100%; margin-block-start: 8px; }
.in-app .secondary { margin-block-start: 0; }
.identity .value { font-weight: 600; overflow-wrap: anywhere; text-align: end; }
.identity .user-image { border-radius: 50%; margin-inline-start: auto; }
`
