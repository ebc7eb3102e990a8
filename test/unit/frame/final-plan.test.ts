// The frame's check of the final plan at Approve (src/frame/finalPlan.ts): only the EOA nonces may move.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { checkedFinalPlan, planChangedMessage } from '../../../src/frame/finalPlan.ts'
import type { SignPlan } from '../../../src/protocol/embedded/signing.ts'

const transaction = (nonce: number, changes: Record<string, unknown> = {}) => ({
  kind: 'evm-transaction' as const,
  transaction: {
    type: 'eip1559' as const,
    chainId: 31337,
    nonce,
    gas: '21000',
    to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    value: '1000',
    maxFeePerGas: '2000000000',
    maxPriorityFeePerGas: '1000000000',
    ...changes,
  },
})
const shown: SignPlan = [transaction(8), transaction(9)]
const refused = {
  message: planChangedMessage,
  payload: { message: planChangedMessage, code: 'PLAN_CHANGED' },
}

describe('the final plan the frame signs', () => {
  it('default: the previewed plan with its nonces moved by one amount is signed as the service numbered it', () => {
    const final = [transaction(7), transaction(8)]
    assert.deepEqual(checkedFinalPlan(shown, final), final)
    assert.deepEqual(checkedFinalPlan(shown, shown), shown)
  })

  it('behavior: keys in another order (as the service’s database keeps them) are the same plan', () => {
    const [first] = shown
    assert.ok(first?.kind === 'evm-transaction')
    const reordered = {
      transaction: Object.fromEntries(Object.entries(first.transaction).reverse()),
      kind: first.kind,
    }
    assert.deepEqual(checkedFinalPlan([first], [reordered as typeof first]), [reordered])
  })

  it('attack: another recipient, amount, call data, gas, fee, chain or type: refused, PLAN_CHANGED', () => {
    for (const changes of [
      { to: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' },
      { value: '1001' },
      { data: '0xa9059cbb' },
      { gas: '90000' },
      { maxFeePerGas: '9000000000' },
      { chainId: 1 },
    ]) {
      assert.throws(() => checkedFinalPlan(shown, [transaction(7, changes), transaction(8)]), refused)
    }
  })

  it('attack: a request added or dropped, or nonces moved apart (a gap, or their order swapped): refused', () => {
    assert.throws(() => checkedFinalPlan(shown, [transaction(7)]), refused)
    assert.throws(() => checkedFinalPlan(shown, [...shown, transaction(10)]), refused)
    assert.throws(() => checkedFinalPlan(shown, [transaction(7), transaction(9)]), refused)
    assert.throws(() => checkedFinalPlan(shown, [transaction(9), transaction(8)]), refused)
    const message = { kind: 'evm-message' as const, message: '0x68656c6c6f' }
    assert.throws(() => checkedFinalPlan([message], [{ ...message, message: '0x6e6f' }]), refused)
  })
})
