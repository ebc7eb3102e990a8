import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as constants from '../../../src/protocol/constants.ts'
import * as limits from '../../../src/protocol/embedded/limits.ts'

describe('constants (SPEC 9)', () => {
  it('default: e-mail login and frame', () => {
    assert.equal(limits.EMAIL_LOGIN_COOLDOWN_MS, 30_000)
    assert.equal(constants.SIGN_OUT_TIMEOUT_MS, 3_000)
    assert.equal(limits.FRAME_LOAD_TIMEOUT_MS, 20_000)
    assert.equal(limits.FRAME_READY_DELAY_MS, 500)
    assert.equal(limits.EMBEDDED_REQUEST_TIMEOUT_MS, 30_000)
    assert.equal(limits.EMBEDDED_SDK_VERSION, 4)
    assert.ok(constants.FRAME_ANCESTORS_DEFAULT.some((origin) => origin.includes('localhost')))
  })

  it('default: caches', () => {
    assert.equal(constants.BALANCE_CACHE_MS, 30_000)
    assert.equal(constants.PORTFOLIO_CACHE_MS, 30_000)
    assert.equal(constants.NAME_CACHE_MS, 300_000)
    assert.equal(constants.IDENTITY_CACHE_MS, 300_000)
    assert.equal(constants.BALANCE_RETRY_BLOCK_MS, 30_000)
    assert.equal(constants.CACHE_GC_MS, 300_000)
  })

  it('default: wallet lists', () => {
    assert.equal(constants.RECENT_WALLETS_MAX, 2)
    assert.equal(constants.FEATURED_WALLETS_DEFAULT, 4)
    assert.equal(constants.RECOMMENDED_WALLETS, 4)
    assert.equal(constants.WALLETS_PAGE_SIZE, 40)
    assert.equal(constants.WALLETS_PAGE_IMAGES, 20)
    assert.equal(constants.WALLET_SEARCH_MAX, 100)
    assert.equal(constants.WALLET_SEARCH_DEBOUNCE_MS, 300)
  })

  it('default: account, send and swap', () => {
    assert.equal(constants.MAX_PENDING_TRANSACTIONS, 99)
    assert.equal(constants.BALANCE_DECIMALS, 3)
    assert.equal(constants.SLIPPAGE_PERCENT, 1)
    assert.equal(constants.DEFAULT_NETWORK_ID, 'eip155:1')
  })

  it('default: on-ramp limits for USD and EUR', () => {
    for (const id of ['USD', 'EUR']) {
      const currency = constants.ONRAMP_DEFAULT_PAYMENT_CURRENCIES.find((c) => c.id === id)
      assert.deepEqual(currency?.payment_method_limits, [
        { id: 'card', min: '10.00', max: '7500.00' },
        { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
      ])
    }
  })

  it('default: RPC and HTTP', () => {
    assert.equal(constants.RPC_TIMEOUT_MS, 10_000)
    assert.equal(constants.RPC_BATCH_MAX, 1000)
    assert.equal(constants.RPC_FALLBACK_PING_MS, 4_000)
    assert.deepEqual(constants.HTTP_RETRY_STATUSES, [403, 408, 413, 429, 500, 502, 503, 504])
    assert.equal(constants.HTTP_RETRY_COUNT, 3)
    assert.equal(constants.HTTP_RETRY_BASE_DELAY_MS, 150)
  })

  it('behavior: query back-off starts at 1 s, doubles, stops at 30 s', () => {
    const delays = Array.from({ length: 7 }, (_, attempt) =>
      Math.min(
        constants.QUERY_RETRY_BASE_DELAY_MS * constants.QUERY_RETRY_FACTOR ** attempt,
        constants.QUERY_RETRY_MAX_DELAY_MS,
      ),
    )
    assert.deepEqual(delays, [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000])
  })

  it('default: images, motion and pairing', () => {
    assert.equal(constants.IMAGE_PRELOAD_RACE_MS, 2_000)
    assert.equal(constants.SHAKE_MS, 500)
    assert.equal(constants.PAIRING_LIFETIME_MS, 4 * 60_000)
    assert.equal(constants.PAIRING_EXPIRY_MARGIN_MS, 10_000)
    assert.equal(constants.PAIRING_RETRY_MS, 1_000)
  })

  it('default: logging and telemetry', () => {
    assert.equal(constants.LOGGER_BUFFER_BYTES, 1_024_000)
    assert.equal(constants.ERROR_TELEMETRY_MAX_EVENTS, 5)
    assert.equal(constants.ERROR_TELEMETRY_WINDOW_MS, 60_000)
  })
})
