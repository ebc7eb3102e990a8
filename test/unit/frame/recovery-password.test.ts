// The recovery password's rules, and the English words the frame shows for each refusal.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { MIN_PASSWORD_LENGTH, passwordProblem } from '../../../src/frame/recoveryPassword.ts'
import embedded from '../../../src/shared/locales/embedded/en.ts'

describe('the recovery password rules', () => {
  it('default: 12 characters mixing two kinds, typed twice the same, pass', () => {
    assert.equal(MIN_PASSWORD_LENGTH, 12)
    assert.equal(passwordProblem('granite-owl-42', 'granite-owl-42'), undefined)
    assert.equal(passwordProblem('correct horse battery', 'correct horse battery'), undefined)
    assert.equal(passwordProblem('пароль восстан', 'пароль восстан'), undefined)
  })

  it('error: shorter than 12 characters (counted as seen, not as bytes)', () => {
    assert.equal(passwordProblem('abc123!', 'abc123!'), 'frameRecoveryTooShort')
    // 11 characters of 2 to 4 bytes each: still too short.
    assert.equal(passwordProblem('éééééé12345', 'éééééé12345'), 'frameRecoveryTooShort')
    assert.equal(embedded.frameRecoveryTooShort, 'Use at least 12 characters')
  })

  it('error: one kind of character only (letters, or digits, or symbols)', () => {
    assert.equal(passwordProblem('abcdefghijklmnop', 'abcdefghijklmnop'), 'frameRecoveryTooSimple')
    assert.equal(passwordProblem('123456789012', '123456789012'), 'frameRecoveryTooSimple')
    assert.equal(passwordProblem('!!!!!!!!!!!!', '!!!!!!!!!!!!'), 'frameRecoveryTooSimple')
    assert.equal(
      embedded.frameRecoveryTooSimple,
      'Mix at least two of: letters, digits, other characters (a space counts)',
    )
  })

  it('error: the repetition differs', () => {
    assert.equal(passwordProblem('granite-owl-42', 'granite-owl-43'), 'frameRecoveryMismatch')
    assert.equal(embedded.frameRecoveryMismatch, 'The two passwords are not the same')
  })
})
