/**
 * `npm run bench`: builds, then reports bundle sizes (browser-measured), browser timings, the relay's
 * and the service's throughput, the swap quote's latency and the Account view with 20 tokens, the
 * embedded wallet's e-mail path (timings and what it loads), its sign-in with a device share and its
 * recovery on a new device, and the package as installed (test/package). Numbers are reported, never
 * judged: budgets are checked by size only (`npm run size`). Pass `--quick` to skip the load tests and
 * the service-backed timings.
 */
import { execSync } from 'node:child_process'
import { cpus, totalmem } from 'node:os'
import { benchFirstOpen, printFirstOpen } from './firstOpen.ts'
import { benchPage } from './page.ts'
import { measureBrowserSizes, measureSizes, printSizes, reportBudgets } from './size.ts'

const quick = process.argv.includes('--quick')

console.log(`wallet-elements bench, ${new Date().toISOString()}`)
console.log(
  `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
)

execSync('npm run build --silent', { stdio: ['ignore', 'ignore', 'inherit'] })
printSizes(measureSizes())
reportBudgets(await measureBrowserSizes())

{
  // Solana: the chunks only a page with Solana networks loads, and what such a page adds.
  const solana = measureSizes().all.filter((file) => /^wallet-elements\/solana-/.test(file.file))
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  console.log('\nSolana chunks of the script-tag file (never loaded by an EVM-only page):')
  for (const file of solana)
    console.log(`  ${file.file.padEnd(56)} ${kb(file.raw).padStart(10)} ${kb(file.gzip).padStart(10)} gzip`)
  console.log(
    `  ${'total'.padEnd(56)} ${''.padStart(10)} ${kb(solana.reduce((sum, f) => sum + f.gzip, 0)).padStart(10)} gzip`,
  )
  const { measureLoadedJs, WITH_SOLANA_NETWORKS } = await import('./loaded.ts')
  const both = await measureLoadedJs(WITH_SOLANA_NETWORKS)
  console.log(
    '\nJS a script-tag page with EVM and Solana networks loads through connect, Account, Send and Networks:',
  )
  console.log(`  ${kb(both.gzip).padStart(10)} gzip, Solana chunks: ${both.solanaFiles.join(', ') || 'none'}`)
}

const page = await benchPage(5)
const fmt = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ')
console.log('\nScript-tag page in headless Chromium (median of 5 cold loads):')
console.log(
  `  navigation to <wallet-button> visible   ${page.medianButtonVisibleMs.toFixed(0)} ms   (${fmt(page.buttonVisibleMs)})`,
)
console.log(
  `  click to modal visible                  ${page.medianModalOpenMs.toFixed(0)} ms   (${fmt(page.modalOpenMs)})`,
)
printFirstOpen(await benchFirstOpen(7))

if (!quick) {
  const optional = async (name: string, load: () => Promise<unknown>) => {
    try {
      await load()
    } catch (error) {
      console.log(`\n${name}: skipped (${(error as Error).message})`)
    }
  }
  await optional('engines', async () => {
    // Chromium, Firefox and WebKit, each next to the React floor in the same engine.
    const { benchEngines, printEngines } = await import('./engines.ts')
    printEngines(await benchEngines(5))
  })
  await optional('relay', async () => {
    const { benchRelay } = await import('./relay.ts')
    const result = await benchRelay()
    console.log('\nWalletConnect dev relay, 1,000 clients on loopback, ~10 s:')
    console.log(
      `  delivered ${result.deliveredPerSecond.toFixed(0)} msg/s, latency p50 ${result.latencyMs.p50.toFixed(0)} ms, p99 ${result.latencyMs.p99.toFixed(0)} ms`,
    )
    console.log(
      `  relay rss ${(result.relayMemory.before.rss / 2 ** 20).toFixed(0)} MB before, ${(result.relayMemory.idle.rss / 2 ** 20).toFixed(0)} MB with 1,000 idle clients, ${(result.relayMemory.underLoad.rss / 2 ** 20).toFixed(0)} MB under load`,
    )
  })
  await optional('service', async () => {
    const { benchServer } = await import('./server.ts')
    await benchServer()
  })
  await optional('names', async () => {
    const { benchNames, printNames } = await import('./names.ts')
    printNames(await benchNames())
  })
  await optional('ENS resolution', async () => {
    const { benchEns, printEns } = await import('./ens.ts')
    printEns(await benchEns())
  })
  await optional('embedded wallet', async () => {
    const { benchEmbedded, printEmbedded } = await import('./embedded.ts')
    printEmbedded(await benchEmbedded(10))
  })
  await optional('phones: approve a signature', async () => {
    const { benchPhoneApprove, printPhoneApprove } = await import('./phoneApprove.ts')
    printPhoneApprove(await benchPhoneApprove(9))
  })
  await optional('phone e-mail sign-in', async () => {
    const { benchPhone, printPhone } = await import('./phone.ts')
    printPhone(await benchPhone(7))
  })
  await optional('social sign-in', async () => {
    const { benchSocial, printSocial } = await import('./social.ts')
    printSocial(await benchSocial(10))
  })
  await optional('the frame’s key module', async () => {
    // Chromium through web-test-runner: the key module as the frame runs it (median of 10 each).
    execSync('npx wtr --config web-test-runner.config.js --files test/browser/frame-keys.bench.ts', {
      stdio: 'inherit',
    })
  })
  await optional('embedded wallet recovery', async () => {
    const { benchRecovery, printRecovery } = await import('./recovery.ts')
    printRecovery(await benchRecovery(10))
  })
  await optional('farcaster sign-in', async () => {
    const { benchFarcaster, printFarcaster } = await import('./farcaster.ts')
    printFarcaster(await benchFarcaster(10))
  })
  await optional('package', async () => {
    // The package as people install it: its figures are the suite's ℹ lines (install size and
    // package count, React app with and without the elements, the service installed alone).
    console.log('\nThe packed tarball in fixture apps (test/package):')
    execSync('npm run test:package --silent', { stdio: 'inherit' })
  })
  await optional('RPC transport', async () => {
    const { benchRpc } = await import('./rpc.ts')
    await benchRpc()
  })
  await optional('AllWallets', async () => {
    const { benchWallets } = await import('./wallets.ts')
    await benchWallets()
  })
  await optional('ERC-4337', async () => {
    const { benchErc4337, printErc4337 } = await import('./erc4337.ts')
    printErc4337(await benchErc4337(10))
  })
  await optional('permissions (ERC-7715)', async () => {
    const { benchPermissions, printPermissions } = await import('./permissions.ts')
    printPermissions(await benchPermissions(10))
  })
  await optional('tokens and swaps', async () => {
    const { benchTokens } = await import('./tokens.ts')
    await benchTokens()
  })
  await optional('transaction history', async () => {
    const { benchHistory } = await import('./history.ts')
    await benchHistory()
  })
}
process.exit(0)
