// What Svelte 5 type-checks markup against (svelte/elements), with wallet-elements/svelte loaded.
import type { SvelteHTMLElements } from 'svelte/elements'
import type {} from 'wallet-elements/svelte'

export const modal: SvelteHTMLElements['wallet-modal'] = {
  theme: 'dark',
  networks: 'eip155:1,eip155:8453',
  debug: '',
  config: { networks: ['eip155:1'], features: ['send'], rpcUrls: { 'eip155:1': ['https://rpc.example'] } },
  'onwallet-connect': (event) => console.log(event.detail.address),
}
export const button: SvelteHTMLElements['wallet-button'] = { size: 'sm', label: 'Connect' }

// @ts-expect-error 'purple' is not a theme
export const wrongTheme: SvelteHTMLElements['wallet-modal'] = { theme: 'purple' }
// @ts-expect-error the config property takes typed options
export const wrongConfig: SvelteHTMLElements['wallet-modal'] = { config: { theme: 'purple' } }
// @ts-expect-error debug is on or off
export const wrongDebug: SvelteHTMLElements['wallet-modal'] = { debug: 'loud' }
// @ts-expect-error sizes are sm, md and lg
export const wrongSize: SvelteHTMLElements['wallet-button'] = { size: 'xl' }
