import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createConfig } from '../../../src/core/createConfig.ts'
import { walletImageUrl } from '../../../src/core/walletImageUrl.ts'
import { SDK_TYPE, SDK_VERSION } from '../../../src/services/http.ts'

describe('the Connect view catalogue state', () => {
  test('behavior: without api-url the catalogue is disabled from the start, so opening loads no catalogue code', () => {
    const config = createConfig({})
    assert.equal(config.$catalogue.get().status, 'disabled')
  })

  test('behavior: with api-url it starts idle; pointing at another service resets it, removing it disables it', () => {
    const config = createConfig({ apiUrl: 'http://127.0.0.1:8787', projectId: 'dev-project' })
    assert.equal(config.$catalogue.get().status, 'idle')
    config.$catalogue.set({ status: 'ready', featured: [], recommended: [], count: 3, error: undefined })
    config.update({ apiUrl: 'http://127.0.0.1:8788', projectId: 'dev-project' })
    assert.deepEqual(config.$catalogue.get(), {
      status: 'idle',
      featured: [],
      recommended: [],
      count: 0,
      error: undefined,
    })
    config.update({ apiUrl: undefined, projectId: 'dev-project' })
    assert.equal(config.$catalogue.get().status, 'disabled')
  })

  test('behavior: wallet logos are service URLs with the project parameters, built without the HTTP client', () => {
    const config = createConfig({ apiUrl: 'http://127.0.0.1:8787/', projectId: 'dev-project' })
    assert.equal(
      walletImageUrl(config, 'logo one'),
      `http://127.0.0.1:8787/getWalletImage/logo%20one?projectId=dev-project&st=${SDK_TYPE}&sv=${SDK_VERSION}`,
    )
    assert.equal(walletImageUrl(createConfig({}), 'logo'), undefined)
  })
})
