// Compile-time checks, enforced by `npm run typecheck` (an unused @ts-expect-error fails it); the
// runtime part shows the same bad values are still caught for plain JavaScript.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { WalletModalAttributes } from '../../../elements/attributes.ts'
import type { WalletModalElement } from '../../../elements/wallet-modal.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { ModalOptionsInput, OPTION_ATTRIBUTES } from '../../../src/protocol/config.ts'

type AttributeNames = Exclude<(typeof OPTION_ATTRIBUTES)[keyof typeof OPTION_ATTRIBUTES], `config.${string}`>
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

describe('typed options', () => {
  test('error: a wrong theme, network list or feature does not compile, and is still rejected at run time', () => {
    // @ts-expect-error 'purple' is not a theme
    const config = createConfig({ theme: 'purple' })
    assert.deepEqual(
      config.issues.map((issue) => issue.option),
      ['theme'],
    )
    // @ts-expect-error networks are CAIP-2 ids
    createConfig({ networks: [1] })
    // @ts-expect-error not a feature
    createConfig({ features: ['teleport'] })
    // @ts-expect-error not an option
    createConfig({ colour: 'red' })
    const good: ModalOptionsInput = {
      networks: ['eip155:1', 'eip155:8453'],
      theme: 'dark',
      features: { email: true },
      siwx: 'optional',
      rpcUrls: { 'eip155:1': 'https://rpc.example' },
    }
    assert.deepEqual(createConfig(good).issues, [])
  })

  test('error: the config property of <wallet-modal> takes the same typed options', () => {
    const assign = (modal: WalletModalElement) => {
      modal.config = { theme: 'dark', networks: 'eip155:1,eip155:8453' }
      // @ts-expect-error 'purple' is not a theme
      modal.config = { theme: 'purple' }
    }
    assert.equal(typeof assign, 'function')
  })

  test('default: the framework typings list exactly the attributes <wallet-modal> observes', () => {
    const same: Same<AttributeNames, keyof WalletModalAttributes> = true
    assert.equal(same, true)
  })
})
