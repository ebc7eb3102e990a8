// When the frame asks a person to secure their wallet (SECURE_WALLET), including after their project
// left operator custody while the operator still holds their recovery share.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { LazyKeyring } from '../../../src/frame/lazyKeyring.ts'
import type { RecoveryMethods, RecoveryUi } from '../../../src/frame/recoveryView.ts'
import { createSecureWallet } from '../../../src/frame/secureWallet.ts'
import type { FrameSession } from '../../../src/frame/session.ts'
import type { WalletKeyState } from '../../../src/protocol/embedded/index.ts'
import embedded from '../../../src/shared/locales/embedded/en.ts'

type Ready = Extract<WalletKeyState, { state: 'ready' }>

/** A signed-in frame whose keys stand as `keys` on this browser; the views answer `answers` in turn. */
function frameWith(keys: Ready, options: { pending?: boolean; answers?: boolean[] } = {}) {
  const shown: RecoveryMethods[] = []
  const answers = [...(options.answers ?? [])]
  const ui: RecoveryUi = {
    showSetup: async (methods) => {
      shown.push(methods)
      return answers.shift() ?? false
    },
    showRecover: () => Promise.reject(new Error('not asked here')),
    cancel: () => {},
  }
  const keyring = {
    recoveryState: async () => ({ keys, onDevice: true, pending: options.pending ?? false }),
  } as unknown as LazyKeyring
  const session = { token: () => 't'.repeat(43), keys } as unknown as FrameSession
  const { handlers } = createSecureWallet(session, keyring, ui)
  return { shown, ask: (reason: 'sign-in' | 'account' | 'visit') => handlers.SECURE_WALLET({ reason }) }
}

const ready = (custody: Ready['custody'], recovery: Ready['recovery']): Ready => ({
  state: 'ready',
  userId: 'u',
  custody,
  setId: '0123456789abcdef',
  addresses: { eip155: '0x0000000000000000000000000000000000000001', solana: '1'.repeat(32) },
  recovery,
})

describe('SECURE_WALLET: who is asked to set up recovery', () => {
  it("behavior: user custody with the operator's recovery share (the project left operator custody): asked at sign-in and on a visit, in the switch's words; Later puts it off for this load, Account asks again", async () => {
    const frame = frameWith(ready('user', ['operator']))
    const answer = await frame.ask('visit')
    assert.deepEqual(answer, { recovery: { custody: 'user', methods: ['operator'] } })
    assert.equal(frame.shown.length, 1, 'a restored visit asks')
    assert.equal(frame.shown[0]?.custodySwitch, true, 'with the words that say why')
    await frame.ask('sign-in')
    await frame.ask('visit')
    assert.equal(frame.shown.length, 1, 'put off with Later: not again in this load')
    await frame.ask('account')
    assert.equal(frame.shown.length, 2, 'Account asks whenever the person does')
    assert.equal(frame.shown[1]?.custodySwitch, true)

    const atSignIn = frameWith(ready('user', ['operator']))
    await atSignIn.ask('sign-in')
    assert.equal(atSignIn.shown.length, 1, 'the next sign-in asks')
    assert.match(embedded.frameRecoverySwitchIntro, /^This site could recover your wallet until now/)
  })

  it('default: a visit asks nothing of anyone else; a sign-in asks only for keys made now', async () => {
    const cases: [string, Ready, boolean][] = [
      ['user custody without a method, keys made earlier', ready('user', []), false],
      ['a password set', ready('user', ['password']), false],
      ['operator custody', ready('operator', ['operator']), false],
    ]
    for (const [name, keys] of cases) {
      const frame = frameWith(keys)
      await frame.ask('visit')
      await frame.ask('sign-in')
      assert.equal(frame.shown.length, 0, name)
    }
    const fresh = frameWith(ready('user', []), { pending: true })
    await fresh.ask('visit')
    assert.equal(fresh.shown.length, 0, 'a visit never asks for keys made now')
    await fresh.ask('sign-in')
    assert.equal(fresh.shown.length, 1, 'keys made at this sign-in')
    assert.equal(fresh.shown[0]?.custodySwitch, undefined, 'in the usual words')
  })
})
