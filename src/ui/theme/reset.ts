import { darkTokens, lightTokens, themeToCss } from './tokens.ts'

/** Resets that make the inside of each shadow root immune to the page's stylesheet. */
export const reset = `
:host { all: initial; display: inline-block; }
.root, .root * { box-sizing: border-box; }
.root { ${themeToCss(lightTokens)} font-family: var(--_font-family); font-size: var(--_font-size); line-height: 1.4;
  color: var(--_foreground); -webkit-font-smoothing: antialiased; text-align: start; letter-spacing: normal; }
.root[data-theme='dark'] { ${themeToCss(darkTokens)} }
button { font: inherit; color: inherit; cursor: pointer; display: inline-flex; align-items: center; gap: 8px;
  border: 0; margin: 0; background: none; visibility: visible; opacity: 1; text-transform: none; }
button:disabled { cursor: default; opacity: 0.6; }
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
img { display: block; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.spinner { width: 16px; height: 16px; border-radius: 50%; border: 2px solid currentColor; border-right-color: transparent;
  display: inline-block; animation: spin 0.8s linear infinite; flex: none; }
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 2.4s; } }
`
