import { reset } from './reset.ts'

/**
 * Borders of inputs and selects, at least 3:1 against the panel and the input (WCAG 1.4.11). Only
 * the dialog has inputs, so these tokens stay out of the button's first paint.
 */
const controlBorder = {
  light: 'var(--wallet-control-border, #7b828a)',
  dark: 'var(--wallet-control-border, #7d8089)',
}

export const modalStyles = `${reset}
:host { display: contents; }
.root { --_control-border: ${controlBorder.light}; }
.root[data-theme='dark'] { --_control-border: ${controlBorder.dark}; }
.overlay { position: fixed; inset: 0; background: var(--_overlay); z-index: var(--_z-index); display: flex;
  align-items: center; justify-content: center; padding: 16px; animation: fade 150ms ease-out; }
.panel { position: relative; width: 100%; max-width: 380px; max-height: min(640px, 100%); display: flex; flex-direction: column;
  overflow: hidden; background: var(--_background); color: var(--_foreground); border-radius: var(--_radius);
  border: 1px solid var(--_border); box-shadow: 0 20px 60px rgba(0, 0, 0, 0.3); animation: rise 180ms ease-out; }
/* The entrance stays first in the list, so a shake does not replay it (a fade-in from nothing). */
.panel[data-shake] { animation: rise 180ms ease-out, shake 500ms ease-in-out; }
.root[data-inline] .panel { max-height: none; box-shadow: none; animation: none; margin-inline: auto; }
.root[data-inline] .panel[data-shake] { animation: shake 500ms ease-in-out; }
@keyframes fade { from { opacity: 0; } }
@keyframes rise { from { transform: translateY(12px); opacity: 0; } }
@keyframes shake { 10%, 90% { transform: translateX(-2px); } 20%, 80% { transform: translateX(4px); }
  30%, 50%, 70% { transform: translateX(-8px); } 40%, 60% { transform: translateX(8px); } }
@media (prefers-reduced-motion: reduce) {
  .overlay, .panel, .root[data-inline] .panel[data-shake] { animation: none; }
  .panel[data-shake] { animation: none; outline: 2px solid var(--_danger); }
}
@media (max-width: 480px) { .overlay { align-items: flex-end; padding: 24px 0 0; }
  .panel { max-width: none; border-radius: var(--_radius) var(--_radius) 0 0; border-bottom: 0; } }
/* The header stays put; the body scrolls beneath it, with room for focus rings at its edges. */
.header { flex: none; display: grid; grid-template-columns: 44px minmax(0, 1fr) 44px; align-items: center; gap: 4px;
  min-height: 44px; padding: 12px 12px 4px; }
.header h2 { margin: 0; font-size: 16px; font-weight: 600; text-align: center; overflow-wrap: anywhere; }
.header h2:focus { outline: none; }
.body { flex: 1 1 auto; min-height: 0; overflow-y: auto; overscroll-behavior: contain; padding: 8px 16px 16px;
  display: flex; flex-direction: column; gap: 12px; }
.root[data-inline] .body { overflow: visible; }
.alerts:empty { display: none; }
.alerts { display: flex; flex-direction: column; gap: 8px; }
.back-icon:dir(rtl), .root[dir='rtl'] .back-icon { transform: scaleX(-1); }
.icon-button { width: 44px; height: 44px; border-radius: 12px; justify-content: center; color: var(--_muted); }
.icon-button:hover { background: var(--_surface); color: var(--_foreground); }
.list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.item { width: 100%; min-height: 56px; padding: 8px 12px; border-radius: 12px; background: var(--_surface); text-align: start; }
.item:hover:not([aria-disabled='true']) { background: var(--_surface-hover); }
.item .name { flex: 1; min-width: 0; font-weight: 500; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.item > :not(.name) { flex: none; }
/* The current network: a tinted row, an edge, a check and a badge; the focus ring is an outline. */
.item[aria-current='true'] { background: color-mix(in srgb, var(--_accent) 14%, var(--_surface));
  border-inline-start: 4px solid var(--_accent); padding-inline-start: 8px; }
.item .check { color: var(--_accent); display: inline-flex; }
.item img, .wallet-icon { width: 40px; height: 40px; border-radius: 10px; flex: none; background: var(--_background); }
.badge { font-size: 12px; padding: 2px 8px; border-radius: 999px; background: var(--_background); color: var(--_muted); }
.section-title { margin: 4px 4px 8px; font-size: 13px; font-weight: 600; color: var(--_muted); }
.empty { padding: 24px 8px; text-align: center; color: var(--_muted); }
.empty strong { display: block; color: var(--_foreground); margin-bottom: 4px; }
.center { display: flex; flex-direction: column; align-items: center; text-align: center; gap: 12px; padding: 8px 8px 12px; }
.center .wallet-icon { width: 72px; height: 72px; border-radius: 20px; }
.center p { margin: 0; color: var(--_muted); }
.center h3 { margin: 0; font-size: 18px; overflow-wrap: anywhere; }
.live { display: flex; flex-direction: column; align-items: center; gap: 4px; }
.live:empty { display: none; }
.message { display: flex; align-items: flex-start; gap: 6px; margin: 0; font-size: 14px; text-align: start; }
.message.error, .center .message.error { color: var(--_danger); font-weight: 500; }
.message-icon { flex: none; margin-top: 1px; }
.primary { min-height: 44px; padding: 0 18px; border-radius: 12px; background: var(--_accent); color: var(--_accent-foreground);
  font-weight: 600; justify-content: center; }
.secondary { min-height: 44px; padding: 0 18px; border-radius: 12px; background: var(--_surface); font-weight: 600; justify-content: center; }
.secondary:hover:not([aria-disabled='true']) { background: var(--_surface-hover); }
.danger { color: var(--_danger); }
.avatar { width: 64px; height: 64px; border-radius: 50%; flex: none; }
.actions { display: flex; flex-direction: column; gap: 8px; width: 100%; }
.actions > button, .actions > a { width: 100%; }
.status { min-height: 20px; font-size: 14px; color: var(--_muted); text-align: center; }
/* The QR code fits the space (narrow and short screens, 200 % zoom) and keeps a 4-module quiet zone. */
.qr { position: relative; margin: 0 auto; width: min(100%, 280px, max(120px, 100dvh - 240px)); aspect-ratio: 1;
  flex: none; border-radius: 16px; overflow: hidden; background: #fff; }
.qr svg { display: block; width: 100%; height: 100%; }
.qr.placeholder { display: flex; align-items: center; justify-content: center; gap: 8px; background: var(--_surface); color: var(--_muted); }
.qr-logo { position: absolute; left: 50%; top: 50%; width: 22%; height: 22%; transform: translate(-50%, -50%);
  border-radius: 12px; background: #fff; padding: 4px; }
.wallet-icon.qr-icon { background: repeating-conic-gradient(var(--_foreground) 0 25%, var(--_background) 0 50%) 0 0 / 10px 10px; border: 4px solid var(--_background); }
.sections { display: flex; flex-direction: column; gap: 12px; }
.alert { padding: 10px 12px; border-radius: 12px; background: var(--_danger); color: var(--_background); font-weight: 600; font-size: 14px; }
.search { width: 100%; min-height: 44px; padding: 0 14px; border-radius: 12px; border: 1px solid var(--_control-border);
  background: var(--_surface); color: var(--_foreground); font: inherit; margin: 0 0 8px; display: block; }
.search::placeholder, .field input::placeholder { color: var(--_muted); opacity: 1; }
.virtual { margin: 0 -4px; padding: 4px; }
.virtual .item { height: 100%; }
.wallet-icon.placeholder { display: inline-flex; align-items: center; justify-content: center; color: var(--_muted); background: var(--_background); }
.wallet-icon.grid { background: conic-gradient(from 45deg, var(--_accent), var(--_success), var(--_accent)); opacity: 0.8; }
/* Links laid out like the buttons they sit with (a phone's catalogue wallet is a link to its app). */
a.primary, a.secondary, a.item { display: inline-flex; align-items: center; gap: 8px; text-decoration: none; color: inherit; }
a.primary { color: var(--_accent-foreground); }
.status a { color: var(--_accent); font-weight: 600; }
.fallback.small { min-height: 48px; }
.toast-region:empty { display: none; }
.toast-region { position: absolute; inset-inline: 12px; bottom: 12px; z-index: 1; }
.toast { display: flex; align-items: center; gap: 8px; padding: 4px 4px 4px 12px; border-radius: 12px; background: var(--_background);
  border: 1px solid var(--_danger); box-shadow: 0 8px 24px rgba(0, 0, 0, 0.2); }
.toast .message { flex: 1; }
.form { display: flex; flex-direction: column; gap: 12px; }
.field { display: flex; flex-direction: column; gap: 4px; font-size: 14px; font-weight: 500; }
.field input, .field select { min-height: 44px; padding: 0 12px; border-radius: 12px; border: 1px solid var(--_control-border);
  background: var(--_surface); color: var(--_foreground); font: inherit; font-weight: 400; min-width: 0; }
.field [aria-invalid='true'] { border-color: var(--_danger); box-shadow: 0 0 0 1px var(--_danger); }
.field .message { font-size: 13px; }
.field .hint { color: var(--_muted); font-weight: 400; font-size: 13px; display: flex; justify-content: space-between; align-items: center; gap: 8px; }
.link-button { color: var(--_accent); font-weight: 600; font-size: 13px; min-width: 24px; min-height: 24px; padding: 0 8px;
  border-radius: 8px; justify-content: center; }
.link-button:hover:not([aria-disabled='true']) { background: var(--_surface); }
[aria-disabled='true'] { cursor: default; opacity: 0.7; }
.fallback { min-height: 160px; display: flex; align-items: center; justify-content: center; color: var(--_muted); gap: 8px; }
`
