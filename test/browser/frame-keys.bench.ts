// Figures for BENCHMARKS: the frame's key module in Chromium, median of 10, printed against the 50 ms goal.
// Part of `npm run bench` (not of the browser suite: CI judges sizes, never wall-clock time).
import { addressesOf } from '../../src/frame/keys/derive.ts'
import { deviceShareStore } from '../../src/frame/keys/deviceShare.ts'
import { SCRYPT_PARAMETERS, sealWithPassword } from '../../src/frame/keys/recovery.ts'
import { createSecret, secretFromKeys } from '../../src/frame/keys/secret.ts'
import { reshare, splitSecret, withSharedKeys } from '../../src/frame/keys/shares.ts'
import { signPlan } from '../../src/protocol/embedded/signer.ts'
import type { SignPlan } from '../../src/protocol/embedded/signing.ts'
import { assert } from './helpers.ts'

/** Median of `runs` timings of `run`, in ms. */
async function median(runs: number, run: (index: number) => Promise<unknown>): Promise<number> {
  const times: number[] = []
  for (let index = 0; index < runs; index++) {
    const started = performance.now()
    await run(index)
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return ((times[Math.floor((runs - 1) / 2)] ?? 0) + (times[Math.ceil((runs - 1) / 2)] ?? 0)) / 2
}

const show = (what: string, ms: number) => console.log(`keys bench: ${what.padEnd(52)} ${ms.toFixed(1)} ms`)

describe('the frame’s key module: figures (median of 10)', function () {
  this.timeout(300_000)

  it('approve -> keys: load the device share, combine, derive, zero; and the other steps', async () => {
    const store = deviceShareStore(indexedDB)
    const created = await median(10, async (index) => {
      const secret = createSecret()
      await addressesOf(secret)
      const shares = await splitSecret(secret)
      await store.save(`bench-${index}`, shares.device)
      secret.fill(0)
    })
    show('generate + derive + split + store', created)

    const secret = createSecret()
    const expected = await addressesOf(secret)
    const shares = await splitSecret(secret)
    await store.save('bench', shares.device)
    const opened = await median(10, async () => {
      const device = await store.load('bench')
      assert(device, 'a device share')
      await withSharedKeys([device, shares.auth], expected, (keys) => keys.secp256k1.length)
      device.fill(0)
    })
    show('load device share + combine + derive + zero', opened)

    show(
      'reshare (combine + check + split)',
      await median(10, () => reshare([shares.recovery, shares.auth], expected)),
    )

    const { N, r, p } = SCRYPT_PARAMETERS
    show(
      `scrypt N=2^${Math.log2(N)} r=${r} p=${p} + seal`,
      await median(10, () =>
        sealWithPassword({ share: shares.recovery, password: 'correct horse', userId: 'bench' }),
      ),
    )
    for (const log of [16, 17]) {
      const scrypt = { N: 2 ** log, r: 8, p: 1 }
      show(
        `scrypt N=2^${log} r=8 p=1 + seal (median of 3)`,
        await median(3, () =>
          sealWithPassword({ share: shares.recovery, password: 'x', userId: 'bench', scrypt }),
        ),
      )
    }
    console.log(`keys bench: load + combine + derive ${opened <= 50 ? 'within' : 'over'} the 50 ms goal`)
  })

  it('approve -> signatures: load the device share, combine with the auth share, derive, sign the plan, zero', async () => {
    const store = deviceShareStore(indexedDB)
    const personalSign: SignPlan = [{ kind: 'evm-message', message: '0x68656c6c6f' }]
    const transaction: SignPlan = [
      {
        kind: 'evm-transaction',
        transaction: {
          type: 'eip1559',
          chainId: 31337,
          nonce: 7,
          gas: '21000',
          to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          value: '1000000000000000',
          maxFeePerGas: '2000000000',
          maxPriorityFeePerGas: '1000000000',
        },
      },
    ]
    const secrets = {
      'phrase secret (v1)': createSecret(),
      'raw keys (v2, moved out of custody)': secretFromKeys({
        secp256k1: crypto.getRandomValues(new Uint8Array(32)).fill(1, 0, 1),
        ed25519: crypto.getRandomValues(new Uint8Array(32)),
      }),
    }
    for (const [name, secret] of Object.entries(secrets)) {
      const expected = await addressesOf(secret)
      const shares = await splitSecret(secret)
      await store.save('bench-sign', shares.device)
      for (const [method, plan] of [
        ['personal_sign', personalSign],
        ['eth_sendTransaction', transaction],
      ] as const) {
        const ms = await median(10, async () => {
          const device = await store.load('bench-sign')
          assert(device, 'a device share')
          const signatures = await withSharedKeys([device, shares.auth.slice()], expected, (keys) =>
            signPlan({ method, plan, keys, ownAccounts: [] }),
          )
          device.fill(0)
          assert(signatures.length === 1, 'one signature')
        })
        show(`${method}, ${name}`, ms)
      }
    }
  })
})
