import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { BaseError, isBaseError, UserRejectedRequestError } from '../../../src/errors/index.ts'

describe('BaseError', () => {
  it('default: short message, code 5000, name', () => {
    const error = new BaseError('Something broke')
    assert.equal(error.message, 'Something broke')
    assert.equal(error.shortMessage, 'Something broke')
    assert.equal(error.code, 5000)
    assert.equal(error.name, 'BaseError')
    assert.equal(error.details, undefined)
    assert.equal(error.cause, undefined)
    assert.ok(error instanceof Error)
  })

  it('args: meta lines, details, docs path and code', () => {
    const error = new BaseError('Something broke', {
      details: 'socket closed',
      metaMessages: ['Method: eth_chainId'],
      docsPath: '/errors#something-broke',
      code: 4100,
    })
    assert.equal(error.message, 'Something broke\n\nMethod: eth_chainId\n\nDetails: socket closed')
    assert.equal(error.docsPath, '/errors#something-broke')
    assert.equal(error.code, 4100)
  })

  it('behavior: details come from the cause', () => {
    assert.equal(new BaseError('Outer', { cause: new Error('inner') }).details, 'inner')
    assert.equal(
      new BaseError('Outer', { cause: new BaseError('Inner', { details: 'deep' }) }).details,
      'deep',
    )
    assert.equal(new BaseError('Outer', { cause: new BaseError('Inner') }).details, 'Inner')
    assert.equal(
      new BaseError('Outer', { cause: { code: 1, message: 'rpc said no' } }).details,
      'rpc said no',
    )
    assert.equal(new BaseError('Outer', { cause: new Error('inner'), details: 'mine' }).details, 'mine')
  })

  it('behavior: details equal to the short message are not repeated', () => {
    assert.equal(new BaseError('Same', { details: 'Same' }).message, 'Same')
  })
})

describe('walk', () => {
  const root = new Error('root')
  const middle = new UserRejectedRequestError({ cause: root })
  const top = new BaseError('top', { cause: middle })

  it('default: returns the innermost cause', () => {
    assert.equal(top.walk(), root)
    assert.equal(new BaseError('alone').walk() instanceof BaseError, true)
  })

  it('args: returns the first match, itself included', () => {
    assert.equal(
      top.walk((error) => (error as Error).name === 'UserRejectedRequestError'),
      middle,
    )
    assert.equal(
      top.walk((error) => (error as Error).name === 'BaseError'),
      top,
    )
  })

  it('args: null when nothing matches', () => {
    assert.equal(
      top.walk(() => false),
      null,
    )
  })
})

describe('isBaseError', () => {
  it('default: true for catalogue errors, also from another copy', () => {
    assert.equal(isBaseError(new UserRejectedRequestError()), true)
    const foreign = { name: 'UserRejectedRequestError', shortMessage: 'x', walk: () => undefined }
    assert.equal(isBaseError(foreign), true)
  })

  it('error: false for anything else', () => {
    for (const value of [new Error('x'), { message: 'x' }, 'x', null, undefined])
      assert.equal(isBaseError(value), false)
  })
})
