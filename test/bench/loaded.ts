/**
 * Which JS a script-tag page loads through a whole EVM session (first paint, open, connect a
 * browser wallet, Account, Send, Networks), read from the browser's own resource list: the budget
 * check proves an EVM-only page never fetches a `solana-*` chunk, and the bench reports what a
 * page with Solana networks adds.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { launchBrowser, newContext } from '../e2e/harness.ts'
import { serveDist } from './page.ts'

/**
 * A tiny EIP-6963 wallet in the page (the size check needs a connected account, not a real chain):
 * one account on chain 31337, approving everything.
 */
export const WALLET = `<script>
  const provider = {
    request: async ({ method }) => ({
      eth_requestAccounts: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
      eth_accounts: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
      eth_chainId: '0x7a69',
    })[method] ?? null,
    on() {}, removeListener() {},
  }
  const detail = Object.freeze({ info: { uuid: '1', name: 'Size Wallet', icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>', rdns: 'dev.size' }, provider })
  const announce = () => dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  addEventListener('eip6963:requestProvider', announce)
  announce()
</script>`

const page = (networks: string) => `<!doctype html><html><head><meta charset="utf-8"><title>size</title>
${WALLET}<script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button><wallet-modal networks="${networks}"></wallet-modal></body></html>`

export const EVM_ONLY_NETWORKS = 'eip155:31337,eip155:1'
export const WITH_SOLANA_NETWORKS = 'eip155:31337,eip155:1,solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9'

export interface LoadedJs {
  files: { file: string; gzip: number }[]
  gzip: number
  solanaFiles: string[]
}

/** Loads the page, connects the in-page wallet and walks Account, Send and Networks. */
export async function measureLoadedJs(networks: string): Promise<LoadedJs> {
  const server = await serveDist({ '/size.html': page(networks) })
  const browser = await launchBrowser()
  try {
    const context = await newContext(browser)
    const tab = await context.newPage()
    await tab.goto(`${server.url}size.html`)
    const button = tab.locator('wallet-button').getByRole('button')
    await button.and(tab.locator(':enabled')).waitFor()
    await button.click()
    const dialog = tab.getByRole('dialog')
    await dialog.getByRole('button', { name: /Size Wallet/ }).click()
    await dialog.waitFor({ state: 'detached' })
    await button.click()
    await dialog.getByRole('button', { name: 'Send' }).click()
    await dialog.getByLabel('Receiver address').waitFor()
    await dialog.getByRole('button', { name: 'Back' }).click()
    await dialog
      .getByRole('button', { name: /Network/ })
      .first()
      .click()
    await dialog.locator('[data-network-id]').first().waitFor()
    await tab.waitForTimeout(300)
    const urls = await tab.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .concat([...document.scripts].map((script) => script.src))
        .filter((url) => url.endsWith('.js')),
    )
    await context.close()
    const dist = resolve('dist')
    const files = [...new Set(urls.map((url) => new URL(url).pathname.slice(1)))].map((file) => ({
      file,
      gzip: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length,
    }))
    return {
      files,
      gzip: files.reduce((sum, file) => sum + file.gzip, 0),
      solanaFiles: files.map((f) => f.file).filter((file) => /(^|\/)solana-/.test(file)),
    }
  } finally {
    await browser.close()
    await server.close()
  }
}
