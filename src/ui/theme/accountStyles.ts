/**
 * Styles of the views after connecting (Account's balance and token list, Swap's quote), on the
 * modal's tokens. Apart from modalStyles so the dialog's first open carries none of it; each of those
 * views renders it beside itself, inside the same shadow root.
 */
export const accountStyles = `
.account { display: flex; flex-direction: column; align-items: center; gap: 8px; padding: 8px 0; }
.address-row { display: flex; align-items: center; gap: 4px; font-weight: 600; font-size: 18px; }
.balance-text { color: var(--_muted); font-variant-numeric: tabular-nums; text-align: center; overflow-wrap: anywhere; }
.tokens { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.tokens li { display: flex; align-items: center; gap: 10px; padding: 8px 12px; border-radius: 12px; background: var(--_surface); font-variant-numeric: tabular-nums; }
.tokens .token-name { flex: 1; min-width: 0; display: flex; flex-wrap: wrap; justify-content: space-between; column-gap: 8px; }
.tokens .symbol { font-weight: 600; }
.tokens .amount { overflow-wrap: anywhere; }
.tokens .value { flex: none; color: var(--_muted); min-width: 0; }
.token-icon { width: 32px; height: 32px; border-radius: 50%; flex: none; }
.token-icon.placeholder { display: inline-flex; align-items: center; justify-content: center; background: var(--_background); color: var(--_muted); font-weight: 600; }
.total { font-size: 14px; color: var(--_muted); text-align: center; font-variant-numeric: tabular-nums; }
.total bdi { color: var(--_foreground); font-weight: 600; }
.switch-button { align-self: center; margin: -8px 0; }
.quote { margin: 0; padding: 8px 12px; border-radius: 12px; background: var(--_surface); display: flex; flex-direction: column; gap: 6px; font-size: 14px; }
.quote > div { display: flex; flex-wrap: wrap; justify-content: space-between; column-gap: 12px; }
.quote dt { color: var(--_muted); }
.quote dd { margin: 0; font-variant-numeric: tabular-nums; text-align: end; overflow-wrap: anywhere; }
/* The account type: its rows apart, and its button as wide as Account's other actions. */
.account-type { display: flex; flex-direction: column; gap: 8px; width: 100%; }
.account-type > button { width: 100%; }
.permissions { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.permissions > li { display: flex; flex-direction: column; gap: 4px; padding: 8px 12px; border-radius: 12px; background: var(--_surface); font-variant-numeric: tabular-nums; }
.permission-allows { list-style: none; margin: 0; padding: 0; font-weight: 600; overflow-wrap: anywhere; }
.permission-detail { color: var(--_muted); overflow-wrap: anywhere; }
.permission-state { font-weight: 600; }
.permissions > li > button { align-self: flex-start; }
`
