import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { createPublicClient, erc20Abi, http, parseEther, parseUnits } from 'viem'
import { devAccount } from '../../server/dev/chain/index.ts'
import { MARKET_DEPLOYER_INDEX, ONRAMP_SENDER_INDEX } from '../../server/dev/chain/market.ts'
import { nameRegistrationMessage } from '../../src/protocol/api/names.ts'
import { axeClean, focusIs, launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * Names and the on-ramp, end to end: the Demo Wallet registers a name (a taken one offers
 * suggestions, `abc` breaks the SPEC rule) and sets its profile image on the success view (a
 * `javascript:` link refused), the button and Account show both, Send takes a receiver by name (and
 * viem's `getEnsAddress`, `getEnsName` and `getEnsText` find them on the local chain), and 50 USD of USDC is bought through the local on-ramp stand-in's checkout and arrives on chain.
 */
describe('names and on-ramp end to end', { timeout: 240_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const demo = devAccount(0)
  const other = devAccount(1)

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    // Another account holds `taken-name` already (registered through the service's API as any site would).
    const message = nameRegistrationMessage({
      domain: new URL(stack.urls.demo).host,
      name: 'taken-name.wallet.test',
      address: other.address,
      chainId: 'eip155:31337',
      issuedAt: new Date().toISOString(),
    })
    const response = await fetch(
      `${stack.urls.service}/names/v1/register?projectId=dev-project&st=test&sv=1`,
      {
        method: 'POST',
        headers: { origin: new URL(stack.urls.demo).origin, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'taken-name',
          address: other.address,
          chainId: 'eip155:31337',
          message,
          signature: await other.signMessage({ message }),
        }),
      },
    )
    assert.equal(response.status, 200, await response.text())
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
  const approveInWallet = (page: Page) =>
    page.waitForFunction(() => window.demoWallet?.approve() === true, undefined, { polling: 50 })
  const chain = () => createPublicClient({ transport: http(stack.urls.chain) })

  async function connect() {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(stack.urls.demo)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await approveInWallet(page)
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .waitFor()
    return { page, context }
  }

  it('registers a name for the Demo Wallet account: abc is refused by the SPEC rule, a taken name offers suggestions, the button and Account show the name, Send takes it', async () => {
    const { page, context } = await connect()
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Register a name' }).click()
    await focusIs(page, { inModal: true, tag: 'input' }, 'RegisterAccountName takes focus on its field')

    const field = modal(page).getByLabel('Name', { exact: true })
    await field.fill('abc')
    await modal(page)
      .getByRole('alert')
      .getByText('Wallet-side name: letters, digits and hyphens, at least 4 characters')
      .waitFor()
    assert.equal(await field.getAttribute('aria-invalid'), 'true')

    await field.fill('taken-name')
    await modal(page).getByText('taken-name.wallet.test is taken. Free names like it:').waitFor()
    const suggestions = modal(page).locator('[part="name-suggestions"] button')
    await suggestions.first().waitFor()
    assert.equal(await suggestions.count(), 3)
    await axeClean(page, 'RegisterAccountName with suggestions')

    await field.fill('demo-user')
    await modal(page).getByText('demo-user.wallet.test is available').waitFor()
    await modal(page).getByRole('button', { name: 'Register demo-user.wallet.test' }).click()
    await approveInWallet(page)
    await modal(page).getByRole('heading', { name: 'demo-user.wallet.test is yours' }).waitFor()
    await focusIs(page, { inModal: true, name: 'Done' }, 'RegisterAccountNameSuccess takes focus on Done')
    await axeClean(page, 'RegisterAccountNameSuccess')

    // The account sets its profile image there: a javascript: link is refused, an https one signed for.
    const image = 'https://images.example.com/demo-user.png'
    const imageField = modal(page).getByLabel('Profile image link (https://)')
    await imageField.fill('javascript:alert(1)')
    await modal(page).getByRole('button', { name: 'Set image' }).click()
    await modal(page)
      .getByRole('alert')
      .getByText('Profile image: an https:// URL of at most 512 characters')
      .waitFor()
    assert.equal(await imageField.getAttribute('aria-invalid'), 'true')
    await imageField.fill(image)
    await modal(page).getByRole('button', { name: 'Set image' }).click()
    await approveInWallet(page)
    await modal(page).getByText('Your profile image is set').waitFor()
    await axeClean(page, 'RegisterAccountNameSuccess with the image set')

    await modal(page).getByRole('button', { name: 'Done' }).click()
    await modal(page).locator('[part="profile-name"]').getByText('demo-user.wallet.test').waitFor()
    await modal(page).locator(`.account img.avatar[src="${image}"]`).waitFor({ state: 'attached' })
    await axeClean(page, 'Account with a profile image')
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /^demo-user\.wallet\.test.*, Account$/ })
      .waitFor()
    // A fresh page reads the name and image from the service (the identity cache is per page).
    await page.reload()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /^demo-user\.wallet\.test.*, Account$/ })
      .waitFor()
    await page.locator('wallet-button').locator(`img.avatar[src="${image}"]`).waitFor({ state: 'attached' })

    // Standard ENS tooling finds it too: viem, the local universal resolver, the service's gateway.
    assert.equal(
      await chain().getEnsAddress({
        name: 'demo-user.wallet.test',
        universalResolverAddress: stack.ens.universalResolver,
      }),
      demo.address,
    )
    // And back: getEnsName reads addr.reverse through the gateway and checks the name forward.
    assert.equal(
      await chain().getEnsName({
        address: demo.address,
        universalResolverAddress: stack.ens.universalResolver,
      }),
      'demo-user.wallet.test',
    )

    // ENS has the image as the name's avatar record.
    assert.equal(
      await chain().getEnsText({
        name: 'demo-user.wallet.test',
        key: 'avatar',
        universalResolverAddress: stack.ens.universalResolver,
      }),
      image,
    )

    // Send to a name: the first address of its addresses list receives the ETH.
    const before = await chain().getBalance({ address: other.address })
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Send', exact: true }).click()
    await modal(page).getByLabel('Amount').fill('0.5')
    await modal(page).getByLabel('Receiver address').fill('taken-name.wallet.test')
    await modal(page).getByRole('button', { name: 'Send', exact: true }).click()
    await approveInWallet(page)
    await modal(page)
      .getByText(/^Sent 0\.5 ETH to/)
      .waitFor()
    assert.equal((await chain().getBalance({ address: other.address })) - before, parseEther('0.5'))

    // An unknown name is refused under the field, nothing sent.
    await modal(page).getByRole('button', { name: 'Done' }).click()
    await modal(page).getByRole('button', { name: 'Send', exact: true }).click()
    await modal(page).getByLabel('Amount').fill('0.5')
    await modal(page).getByLabel('Receiver address').fill('nobody-here.wallet.test')
    await modal(page).getByRole('button', { name: 'Send', exact: true }).click()
    await modal(page)
      .getByRole('alert')
      .getByText('nobody-here.wallet.test is not a registered name')
      .waitFor()
    assert.equal(await page.evaluate(() => window.demoWallet?.pending() ?? 0), 0)
    await context.close()
  })

  it('buys 50 USD of USDC through the on-ramp stand-in: the quote, the checkout page with the test card, the tokens on chain and the purchase recorded; limits outside card and ACH bounds are refused', async () => {
    const { page, context } = await connect()
    const usdc = stack.market.tokens.USDC.address
    const before = await chain().readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [demo.address],
    })
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Buy crypto' }).click()
    await focusIs(page, { inModal: true, tag: 'select' }, 'OnRamp takes focus on its first field')
    const amount = modal(page).getByLabel('Amount in USD')

    await amount.fill('5')
    await modal(page).getByRole('alert').getByText('Enter an amount from 10.00 to 7500.00 USD').waitFor()
    await amount.fill('7500.01')
    await modal(page).getByRole('alert').getByText('Enter an amount from 10.00 to 7500.00 USD').waitFor()
    await modal(page).getByLabel('Pay with').selectOption('ach_bank_account')
    await amount.fill('25000.01')
    await modal(page).getByRole('alert').getByText('Enter an amount from 10.00 to 25000.00 USD').waitFor()
    // The service refuses the same amounts whatever a page sends.
    const refused = await fetch(
      `${stack.urls.service}/onramp/v1/quote?projectId=dev-project&st=test&sv=1&purchaseCurrency=USDC&paymentCurrency=USD&amount=25000.01&network=eip155:31337&paymentMethod=ach_bank_account`,
      { headers: { origin: new URL(stack.urls.demo).origin } },
    )
    assert.equal(refused.status, 400)
    assert.equal(
      ((await refused.json()) as { error: { message: string } }).error.message,
      'Bank transfer (ACH) payments take 10.00 to 25000.00 USD',
    )

    await modal(page).getByLabel('Pay with').selectOption('card')
    await amount.fill('50')
    // Amounts to 3 decimals as everywhere else in the modal; the fee as money.
    await modal(page).getByText('You get about 49.250 USDC (fee $0.75)').waitFor()
    // One "Buy crypto" heading: the dialog's.
    assert.equal(await modal(page).getByRole('heading', { name: 'Buy crypto' }).count(), 1)
    await axeClean(page, 'OnRamp with a quote')

    const checkoutOpened = context.waitForEvent('page')
    await modal(page).getByRole('button', { name: 'Continue to payment' }).click()
    const checkout = await checkoutOpened
    await checkout.waitForURL(/\/checkout\//)
    assert.ok(checkout.url().startsWith(stack.urls.onramp), checkout.url())
    assert.equal(await checkout.evaluate(() => window.opener), null)
    // Once the payment started, its status is the view's result and Done its main action: no second payment.
    await modal(page)
      .locator('[part="onramp-purchase"]')
      .getByRole('heading', { name: /^The payment page is open in a new tab\./ })
      .waitFor()
    assert.equal(await modal(page).getByRole('button', { name: 'Continue to payment' }).count(), 0)
    assert.equal(await modal(page).getByRole('button', { name: 'Done' }).getAttribute('class'), 'primary')

    // A declined card first, then the test card.
    await checkout.getByLabel('Card number').fill('4000 0000 0000 0002')
    await checkout.getByLabel('Expiry (MM/YY)').fill('12/30')
    await checkout.getByLabel('CVC').fill('123')
    await checkout.getByRole('button', { name: 'Pay 50.00 USD' }).click()
    await checkout.getByRole('alert').getByText('Your card was declined: use the test card.').waitFor()
    await checkout.getByLabel('Card number').fill('4242 4242 4242 4242')
    await checkout.getByLabel('Expiry (MM/YY)').fill('12/30')
    await checkout.getByLabel('CVC').fill('123')
    await checkout.getByRole('button', { name: 'Pay 50.00 USD' }).click()
    await checkout.getByRole('heading', { name: 'Payment complete' }).waitFor()

    await modal(page)
      .locator('[part="onramp-purchase"]')
      .getByRole('heading', { name: '49.250 USDC arrived in your wallet' })
      .waitFor()
    const after = await chain().readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [demo.address],
    })
    assert.equal(after - before, parseUnits('49.25', 6))

    // Recorded by the service, completed by the provider's signed webhook, with the delivery's transaction.
    const { onrampPurchases } = await import('../../server/db/schema.ts')
    const rows = await stack.serviceDatabase?.db.select().from(onrampPurchases)
    assert.equal(rows?.length, 1)
    const [row] = rows ?? []
    assert.equal(row?.status, 'completed')
    assert.equal(row?.purchaseAmount, '49.250000')
    assert.equal(row?.address, demo.address)
    const txHash = await checkout.locator('[data-tx]').textContent()
    assert.equal(row?.txHash, txHash)
    const receipt = await chain().getTransactionReceipt({ hash: txHash as `0x${string}` })
    // Delivered from the configured on-ramp sender (the address the history indexer marks as on-ramp):
    // its own account, not the market's deployer, so the demo's own funding is not shown as a purchase.
    assert.equal(receipt.from.toLowerCase(), devAccount(ONRAMP_SENDER_INDEX).address.toLowerCase())
    assert.notEqual(ONRAMP_SENDER_INDEX, MARKET_DEPLOYER_INDEX)

    // In Activity, marked as an on-ramp delivery, once the service's indexer has passed its block.
    const { historyNetworks } = await import('../../server/db/schema.ts')
    // Bounded, so a stuck indexer fails this test in a minute instead of holding the suite.
    for (const deadline = Date.now() + 60_000; ; ) {
      const networks = await stack.serviceDatabase?.db.select().from(historyNetworks)
      const local = networks?.find((network) => network.chainId === 'eip155:31337')
      if (local && local.nextBlock > Number(receipt.blockNumber)) break
      if (Date.now() > deadline)
        throw new Error(`Timed out waiting for the indexer to pass block ${receipt.blockNumber}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await page.reload()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    const delivery = modal(page).locator(`[data-transaction="${txHash}"]`)
    await delivery.waitFor()
    assert.equal(await delivery.getAttribute('data-operation'), 'onramp')
    await context.close()
  })
  it('changes and releases the account’s name from the modal, each signed in the wallet', async () => {
    const { page, context } = await connect()
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).locator('[part="profile-name"]').getByText('demo-user.wallet.test').waitFor()
    // With a name, Account offers to change it (not to register one).
    assert.equal(await modal(page).getByRole('button', { name: 'Register a name' }).count(), 0)
    await modal(page).getByRole('button', { name: 'Change name' }).click()
    await modal(page).getByText('Your name is demo-user.wallet.test.', { exact: false }).waitFor()
    const field = modal(page).getByLabel('Name', { exact: true })
    // The same rules as a registration.
    await field.fill('abc')
    await modal(page)
      .getByRole('alert')
      .getByText('Wallet-side name: letters, digits and hyphens, at least 4 characters')
      .waitFor()
    await field.fill('demo-renamed')
    await modal(page).getByText('demo-renamed.wallet.test is available').waitFor()
    await modal(page).getByRole('button', { name: 'Register demo-renamed.wallet.test' }).click()
    await approveInWallet(page)
    await modal(page).getByRole('heading', { name: 'demo-renamed.wallet.test is yours' }).waitFor()
    await modal(page).getByRole('button', { name: 'Done' }).click()
    await modal(page).locator('[part="profile-name"]').getByText('demo-renamed.wallet.test').waitFor()
    const resolve = (name: string) =>
      fetch(`${stack.urls.service}/names/v1/resolve?projectId=dev-project&st=test&sv=1&name=${name}`, {
        headers: { origin: new URL(stack.urls.demo).origin },
      })
    assert.equal((await resolve('demo-user.wallet.test')).status, 404)
    assert.equal((await resolve('demo-renamed.wallet.test')).status, 200)

    await modal(page).getByRole('button', { name: 'Change name' }).click()
    await modal(page).getByRole('button', { name: 'Release demo-renamed.wallet.test' }).click()
    await approveInWallet(page)
    await modal(page).getByRole('button', { name: 'Register a name' }).waitFor()
    assert.equal(await modal(page).locator('[part="profile-name"]').count(), 0)
    assert.equal((await resolve('demo-renamed.wallet.test')).status, 404)
    await context.close()
  })
})
