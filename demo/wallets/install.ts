// What a demo page loads to get the Demo Wallet, like a browser extension injecting itself: installs
// it from the page's URL parameters (see install-demo-wallet.ts). Tests import demo-wallet.ts without this.
import { installDemoWallet } from './install-demo-wallet.ts'

installDemoWallet(window)
