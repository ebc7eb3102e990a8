// Plain Node, no DOM: every entry imports, nothing is defined, and the core works on the server.
const entries = [
  'wallet-elements',
  'wallet-elements/core',
  'wallet-elements/elements',
  'wallet-elements/wallet-elements.js',
]
const exports = {}
for (const entry of entries) exports[entry] = Object.keys(await import(entry)).sort()
const { createConfig, loadNetworks } = await import('wallet-elements/core')
const config = createConfig({ networks: 'eip155:1,eip155:8453', theme: 'dark' })
const networks = await loadNetworks(config)
console.log(
  JSON.stringify({
    exports,
    customElements: typeof customElements,
    theme: config.$theme.get(),
    networks: networks.map((network) => network.name),
  }),
)
