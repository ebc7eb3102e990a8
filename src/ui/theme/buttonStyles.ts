import { reset } from './reset.ts'

// The button shrinks with its container and truncates its text rather than overflowing the page.
export const buttonStyles = `${reset}
:host { max-width: 100%; min-width: 0; }
.button { max-width: 100%; min-height: 40px; padding: 0 16px; border-radius: 999px; background: var(--_accent);
  color: var(--_accent-foreground); font-weight: 600; white-space: nowrap; display: inline-flex; justify-content: center; }
.button > span { min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.button[data-size='sm'] { min-height: 32px; padding: 0 12px; font-size: 14px; }
.button[data-size='lg'] { min-height: 48px; padding: 0 20px; }
.button[data-connected] { background: var(--_surface); color: var(--_foreground); border: 1px solid var(--_border); padding-inline-start: 6px; }
.button[data-connected]:hover { background: var(--_surface-hover); }
.button .balance { color: var(--_muted); font-variant-numeric: tabular-nums; }
[part='address'] { flex-shrink: 0; }
/* On a touch screen the button is a 44 px target whatever its size. */
@media (pointer: coarse) { .button, .button[data-size='sm'] { min-height: 44px; } }
.avatar { width: 24px; height: 24px; border-radius: 50%; flex: none; }
`
