import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { browserWalletJourney, emailJourney } from './engine-journeys.ts'
import { startWebKitTab, type WebKitTab } from './engine-tabs.ts'
import { startTestStack, type TestStack } from './harness.ts'
import { webkitMissing } from './webdriver.ts'

/**
 * In CI (CI=true) WebKit is required: scripts/install-browsers.sh installs it there, and a missing
 * WebKit fails the run instead of skipping. Locally the file skips with the line saying what to install.
 */
const missing = webkitMissing()
if (missing && process.env.CI === 'true') throw new Error(`CI needs WebKit: ${missing}`)

/**
 * The core journeys in WebKit: Debian's WebKitWebDriver (WebDriver classic) driving
 * its MiniBrowser under Xvfb, with the small client of test/e2e/webdriver.ts. One stack and one
 * browser session for the file; the journeys are those of the Firefox file (test/e2e/engine-journeys.ts).
 */
describe('the core journeys in WebKit (WebKitWebDriver, MiniBrowser)', {
  timeout: 300_000,
  skip: missing ?? false,
}, () => {
  let stack: TestStack
  let webkit: WebKitTab

  before(async () => {
    ;[stack, webkit] = await Promise.all([startTestStack({ solana: true }), startWebKitTab()])
  })
  after(async () => {
    await webkit?.stop()
    await stack?.stop()
  })

  it('Demo Wallet: opens the modal, connects, signs, sends, switches network, disconnects', async () => {
    await browserWalletJourney(webkit.tab, stack, (line) => console.log(`  WebKit ${line}`))
  })

  it('e-mail sign-in through the wallet frame, then a message signed with approval', async () => {
    const { approvedIn } = await emailJourney(webkit.tab, stack, `webkit.${Date.now()}@example.com`)
    // WebKit has no IntersectionObserver v2 either: the approval happens in the frame's own window.
    assert.equal(approvedIn, 'window')
  })
})
