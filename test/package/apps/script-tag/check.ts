// A page script beside <script src=".../wallet-elements.js">: the file's types give the tags and events.
import type { WalletModalElement } from 'wallet-elements/wallet-elements.js'

const modal: WalletModalElement | null = document.querySelector('wallet-modal')
export const theme: 'light' | 'dark' | 'system' | undefined = modal?.walletConfig.$options.get().theme
document.addEventListener('wallet-connect', (event) =>
  console.log(event.detail.address, event.detail.chainId),
)
// @ts-expect-error the config property takes typed options
if (modal) modal.config = { theme: 'purple' }
// A support page reads the client log (kept with the debug attribute).
export const logs: Promise<{ time: number; level: string; message: string }[]> | undefined = modal?.getLogs()
