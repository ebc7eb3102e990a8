/**
 * The dialog's styles for phones and touch screens, rendered by `PhoneSheet` (src/ui/modal) beside
 * the dialog, inside the same shadow root: a computer's first open carries none of it.
 */
export const phoneStyles = `
/* On a touch screen every target is at least 44 × 44 px, the small text links too (an inline link
   becomes an inline box to take a height). */
@media (pointer: coarse) {
  .link-button { min-width: 44px; min-height: 44px; }
  .status a { display: inline-flex; align-items: center; justify-content: center; min-width: 44px; min-height: 44px;
    padding-inline: 4px; vertical-align: middle; }
}
/* A bottom sheet that can close is dragged down by its header: a handle shows it, and the header takes
   the finger (no page scroll or pull-to-refresh under it). */
@media (max-width: 480px) {
  .panel[data-draggable] > .header { touch-action: none; }
  .panel[data-draggable] > .header::before { content: ''; position: absolute; top: 6px; inset-inline: 0; margin-inline: auto;
    width: 36px; height: 4px; border-radius: 2px; background: var(--_control-border); }
}
`
