import { reset } from './reset.ts'

export const modalStyles = `${reset}
:host { display: contents; }
.overlay { position: fixed; inset: 0; background: var(--_overlay); z-index: var(--_z-index); display: flex;
  align-items: center; justify-content: center; padding: 16px; animation: fade 150ms ease-out; }
.panel { position: relative; width: 100%; max-width: 380px; max-height: min(640px, calc(100vh - 32px)); overflow: auto;
  background: var(--_background); color: var(--_foreground); border-radius: var(--_radius); border: 1px solid var(--_border);
  box-shadow: 0 20px 60px rgba(0, 0, 0, 0.3); padding: 16px; display: flex; flex-direction: column; gap: 12px;
  animation: rise 180ms ease-out; }
.panel[data-shake] { animation: shake 500ms ease-in-out; }
@keyframes fade { from { opacity: 0; } }
@keyframes rise { from { transform: translateY(12px); opacity: 0; } }
@keyframes shake { 10%, 90% { transform: translateX(-2px); } 20%, 80% { transform: translateX(4px); }
  30%, 50%, 70% { transform: translateX(-8px); } 40%, 60% { transform: translateX(8px); } }
@media (prefers-reduced-motion: reduce) {
  .overlay, .panel { animation: none; }
  .panel[data-shake] { animation: none; outline: 2px solid var(--_danger); }
}
@media (max-width: 480px) { .overlay { align-items: flex-end; padding: 0; }
  .panel { max-width: none; border-radius: var(--_radius) var(--_radius) 0 0; } }
.header { display: grid; grid-template-columns: 40px 1fr 40px; align-items: center; min-height: 40px; }
.header h2 { margin: 0; font-size: 16px; font-weight: 600; text-align: center; }
.icon-button { width: 40px; height: 40px; border-radius: 12px; justify-content: center; color: var(--_muted); }
.icon-button:hover { background: var(--_surface); color: var(--_foreground); }
.list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.item { width: 100%; min-height: 56px; padding: 8px 12px; border-radius: 12px; background: var(--_surface); text-align: start; }
.item:hover:not(:disabled) { background: var(--_surface-hover); }
.item[aria-current='true'] { outline: 2px solid var(--_accent); }
.item .name { flex: 1; font-weight: 500; }
.item img, .wallet-icon { width: 40px; height: 40px; border-radius: 10px; flex: none; background: var(--_background); }
.badge { font-size: 12px; padding: 2px 8px; border-radius: 999px; background: var(--_background); color: var(--_muted); }
.section-title { margin: 4px 4px 0; font-size: 13px; font-weight: 600; color: var(--_muted); }
.empty { padding: 24px 8px; text-align: center; color: var(--_muted); }
.empty strong { display: block; color: var(--_foreground); margin-bottom: 4px; }
.center { display: flex; flex-direction: column; align-items: center; text-align: center; gap: 12px; padding: 8px 8px 12px; }
.center .wallet-icon { width: 72px; height: 72px; border-radius: 20px; }
.center p { margin: 0; color: var(--_muted); }
.center h3 { margin: 0; font-size: 18px; }
.error-text { color: var(--_danger); }
.primary { min-height: 44px; padding: 0 18px; border-radius: 12px; background: var(--_accent); color: var(--_accent-foreground);
  font-weight: 600; justify-content: center; }
.secondary { min-height: 44px; padding: 0 18px; border-radius: 12px; background: var(--_surface); font-weight: 600; justify-content: center; }
.secondary:hover { background: var(--_surface-hover); }
.danger { color: var(--_danger); }
.account { display: flex; flex-direction: column; align-items: center; gap: 8px; padding: 8px 0; }
.account .avatar { width: 64px; height: 64px; border-radius: 50%; }
.address-row { display: flex; align-items: center; gap: 4px; font-weight: 600; font-size: 18px; }
.balance-text { color: var(--_muted); font-variant-numeric: tabular-nums; }
.actions { display: flex; flex-direction: column; gap: 8px; }
.actions > button { width: 100%; }
.status { min-height: 20px; font-size: 14px; color: var(--_muted); text-align: center; }
.qr { position: relative; margin: 0 auto; border-radius: 16px; overflow: hidden; background: #fff; }
.qr svg { display: block; }
.qr.placeholder { display: flex; align-items: center; justify-content: center; gap: 8px; background: var(--_surface); color: var(--_muted); }
.qr-logo { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); border-radius: 12px; background: #fff; padding: 4px; }
.wallet-icon.qr-icon { background: repeating-conic-gradient(var(--_foreground) 0 25%, var(--_background) 0 50%) 0 0 / 10px 10px; border: 4px solid var(--_background); }
.sections { display: flex; flex-direction: column; gap: 12px; }
.alert { padding: 10px 12px; border-radius: 12px; background: var(--_danger); color: var(--_background); font-weight: 600; font-size: 14px; }
.search { width: 100%; min-height: 44px; padding: 0 14px; border-radius: 12px; border: 1px solid var(--_border);
  background: var(--_surface); color: var(--_foreground); font: inherit; margin: 0 0 8px; display: block; }
.search:focus-visible { outline: 2px solid var(--_accent); outline-offset: 1px; }
.virtual { margin: 0 -4px; padding: 0 4px; }
.virtual .item { height: 100%; }
.wallet-icon.placeholder { display: inline-flex; align-items: center; justify-content: center; color: var(--_muted); background: var(--_background); }
.wallet-icon.grid { background: conic-gradient(from 45deg, var(--_accent), var(--_success), var(--_accent)); opacity: 0.8; }
a.primary, a.secondary { display: inline-flex; align-items: center; text-decoration: none; color: inherit; }
a.primary { color: var(--_accent-foreground); }
.fallback.small { min-height: 48px; }
.tokens { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.tokens li { display: flex; justify-content: space-between; gap: 8px; padding: 8px 12px; border-radius: 12px; background: var(--_surface); font-variant-numeric: tabular-nums; }
.tokens .symbol { font-weight: 600; }
.form { display: flex; flex-direction: column; gap: 12px; }
.field { display: flex; flex-direction: column; gap: 4px; font-size: 14px; font-weight: 500; }
.field input, .field select { min-height: 44px; padding: 0 12px; border-radius: 12px; border: 1px solid var(--_border);
  background: var(--_surface); color: var(--_foreground); font: inherit; font-weight: 400; }
.field input:focus-visible, .field select:focus-visible { outline: 2px solid var(--_accent); outline-offset: 1px; }
.field .hint { color: var(--_muted); font-weight: 400; font-size: 13px; display: flex; justify-content: space-between; }
.link-button { color: var(--_accent); font-weight: 600; font-size: 13px; padding: 0; }
.fallback { min-height: 160px; display: flex; align-items: center; justify-content: center; color: var(--_muted); gap: 8px; }
`
