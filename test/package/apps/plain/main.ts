// The smallest bundler integration: registering the elements is one import.
import 'wallet-elements/elements'

document.addEventListener('wallet-open', () => document.body.setAttribute('data-opened', ''))
