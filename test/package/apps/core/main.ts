// Only the framework-free core, from the main entry: the build must not contain React.
import { createConfig } from 'wallet-elements'

const config = createConfig({ networks: ['eip155:1', 'eip155:8453'] })
document.body.textContent = config.$options.get().networks.join(',')
