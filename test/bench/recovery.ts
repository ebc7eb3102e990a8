/**
 * The embedded wallet in user custody, on the local stack with the demo dapp, in headless
 * Chromium with a CDP virtual authenticator that has PRF:
 * - sign-in -> usable on a browser that keeps its device share (a returning person: the code filled ->
 *   the modal closed, connected);
 * - recovery on a new device by passkey (the browser's wallet data wiped, its authenticator kept:
 *   "Use your passkey" clicked -> the modal closed, the same addresses);
 * - recovery on a new device by password (a fresh browser: "Recover" clicked -> the modal closed, the
 *   same addresses).
 * Each run is its own person: the service lets one person have 10 mails and 6 recovery-share reads an
 * hour. Everyone is set up first, so most have waited out the 30 s resend cooldown when they are timed
(the rest wait for it, outside the timed part).
 * Times are the bench's clock around playwright's actions (its polling adds at most 50 ms), medians of
 * `runs` (10 by default), each run listed.
 *
 * Run alone after `npm run build`: `npx tsx test/bench/recovery.ts [runs]`.
 */
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import {
  addPasskeyAuthenticator,
  codeOf,
  connections,
  inbox,
  loseWalletData,
  modal,
  nextMail,
  pressInFrame,
  signInNewBrowser,
  submitEmail,
  submitEmailPastCooldown,
  walletFrame,
} from '../e2e/embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from '../e2e/harness.ts'
import { printMedians } from './signIn.ts'

const PASSWORD = 'granite owl 42 lantern'

type Method = 'passkey' | 'password'

interface Person {
  email: string
  method: Method
  page: Page
  addresses: { evm: string | undefined; solana: string | undefined }
}

export interface RecoveryBenchResult {
  runs: number
  signInMs: number[]
  passkeyRecoveryMs: number[]
  passwordRecoveryMs: number[]
}

const closed = async (page: Page) => (await modal(page).count()) === 0

/** A new person signs in by e-mail and protects the new wallet with `method`. */
async function setUp(browser: Browser, stack: TestStack, method: Method, run: number): Promise<Person> {
  const context = await newContext(browser)
  const page = await context.newPage()
  if (method === 'passkey') await addPasskeyAuthenticator(context, page, true)
  await page.goto(new URL('/dapp.html', stack.urls.demo).href)
  const email = `bench.recovery.${method}.${run}.${Date.now()}@example.com`
  await submitEmail(page, email)
  await modal(page)
    .getByLabel('Code')
    .fill(codeOf(await nextMail(stack, email, 0)))
  const frame = walletFrame(page)
  await frame.getByRole('heading', { name: 'Protect your wallet' }).waitFor({ timeout: 60_000 })
  if (method === 'passkey') await pressInFrame(page, 'Use a passkey', () => closed(page))
  else {
    await frame.getByLabel('Recovery password').fill(PASSWORD)
    await frame.getByLabel('Repeat the password').fill(PASSWORD)
    const busy = frame.getByRole('status').filter({ hasText: 'Securing your wallet…' })
    await pressInFrame(page, 'Set up recovery', async () => (await busy.count()) > 0 || (await closed(page)))
  }
  await modal(page).waitFor({ state: 'detached', timeout: 60_000 })
  const now = await connections(page)
  return {
    email,
    method,
    page,
    addresses: { evm: now.eip155?.address, solana: now.solana?.address },
  }
}

/** Disconnect, then sign in again on the same browser: the code filled -> the modal closed. */
async function timeSignIn(stack: TestStack, person: Person): Promise<number> {
  const { page, email } = person
  await page.locator('wallet-button').getByRole('button').click()
  await modal(page).getByRole('button', { name: 'Disconnect' }).click()
  await page.getByRole('button', { name: 'Connect Wallet' }).waitFor()
  const seen = (await inbox(stack, email)).length
  await submitEmailPastCooldown(page, email)
  const code = codeOf(await nextMail(stack, email, seen))
  const field = modal(page).getByLabel('Code')
  const started = performance.now()
  await field.fill(code)
  await modal(page).waitFor({ state: 'detached', timeout: 60_000 })
  const elapsed = performance.now() - started
  await sameAccounts(person, page)
  return elapsed
}

/**
 * A new device signs in (approved from `approver`), then recovers with the person's method: the click
 * -> the modal closed, connected to the same accounts.
 */
async function timeRecovery(browser: Browser, stack: TestStack, person: Person, approver: Page) {
  let page = person.page
  if (person.method === 'passkey') {
    // The same authenticator (a synced passkey), everything the wallet kept in the browser gone.
    await loseWalletData(page, stack)
  } else {
    const context = await newContext(browser)
    page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
  }
  await signInNewBrowser(stack, page, person.email, approver)
  const frame = walletFrame(page)
  await frame.getByRole('heading', { name: 'Recover your wallet' }).waitFor({ timeout: 60_000 })
  let started: number
  if (person.method === 'passkey') {
    started = performance.now()
    await pressInFrame(page, 'Use your passkey', () => closed(page))
  } else {
    await frame.getByLabel('Recovery password').fill(PASSWORD)
    const busy = frame.getByRole('status').filter({ hasText: 'Opening your wallet…' })
    started = performance.now()
    await pressInFrame(page, 'Recover', async () => (await busy.count()) > 0 || (await closed(page)))
  }
  await modal(page).waitFor({ state: 'detached', timeout: 60_000 })
  const elapsed = performance.now() - started
  await sameAccounts(person, page)
  return elapsed
}

async function sameAccounts(person: Person, page: Page) {
  const now = await connections(page)
  if (now.eip155?.address !== person.addresses.evm || now.solana?.address !== person.addresses.solana)
    throw new Error(`${person.email}: other accounts after sign-in (${JSON.stringify(now)})`)
}

/** Sets up `runs` people per method on a stack of its own, then times their sign-ins and recoveries. */
export async function benchRecovery(runs = 10): Promise<RecoveryBenchResult> {
  const [stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  try {
    const people: Person[] = []
    for (let run = 0; run < runs; run++)
      for (const method of ['passkey', 'password'] as const)
        people.push(await setUp(browser, stack, method, run))
    const signInMs: number[] = []
    for (const person of people.filter((one) => one.method === 'passkey'))
      signInMs.push(await timeSignIn(stack, person))
    const approver = await (await newContext(browser)).newPage()
    const recoveries = { passkey: [] as number[], password: [] as number[] }
    for (const person of people)
      recoveries[person.method].push(await timeRecovery(browser, stack, person, approver))
    return {
      runs,
      signInMs,
      passkeyRecoveryMs: recoveries.passkey,
      passwordRecoveryMs: recoveries.password,
    }
  } finally {
    await browser.close()
    await stack.stop()
  }
}

export function printRecovery(result: RecoveryBenchResult): void {
  const round = (values: number[]) => values.map(Math.round)
  printMedians(`Embedded wallet in user custody (medians of ${result.runs}, each its own person)`, [
    ['sign-in -> usable with the device share', round(result.signInMs)],
    ['recovery on a new device, passkey (PRF)', round(result.passkeyRecoveryMs)],
    ['recovery on a new device, password (scrypt)', round(result.passwordRecoveryMs)],
  ])
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printRecovery(await benchRecovery(Number(process.argv[2] ?? 10)))
  process.exit(0)
}
