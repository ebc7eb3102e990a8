import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as z from 'zod/mini'
import { formatIssue, validate } from '../../../src/protocol/index.ts'

describe('validate', () => {
  it('default: returns the parsed value', () => {
    assert.deepEqual(validate(z.object({ a: z.string() }), { a: 'x', b: 1 }), { ok: true, value: { a: 'x' } })
  })

  it('error: first issue only, with its path', () => {
    assert.deepEqual(validate(z.object({ a: z.string(), b: z.number() }), {}), {
      ok: false,
      message: 'Required',
      path: ['a'],
    })
  })

  it('behavior: a schema message wins over the generic one', () => {
    assert.equal(
      (validate(z.string({ error: 'Name please' }), undefined) as { message: string }).message,
      'Name please',
    )
  })
})

describe('formatIssue', () => {
  const message = (schema: z.ZodMiniType, value: unknown) =>
    (validate(schema, value) as { message: string }).message

  it('default: Required and Expected X, received Y', () => {
    assert.equal(message(z.string(), undefined), 'Required')
    assert.equal(message(z.string(), 1), 'Expected string, received number')
    assert.equal(message(z.number(), 'x'), 'Expected number, received string')
    assert.equal(message(z.object({}), null), 'Expected object, received null')
    assert.equal(message(z.object({}), []), 'Expected object, received array')
    assert.equal(message(z.number(), Number.NaN), 'Expected number, received nan')
    assert.equal(message(z.literal('a'), 'b'), 'Expected "a", received "b"')
  })

  it('default: sizes, formats and keys', () => {
    assert.equal(message(z.string().check(z.minLength(3)), 'ab'), 'Must be at least 3 characters')
    assert.equal(message(z.string().check(z.maxLength(2)), 'abc'), 'Must be at most 2 characters')
    assert.equal(message(z.array(z.string()).check(z.minLength(1)), []), 'Must have at least 1 items')
    assert.equal(message(z.number().check(z.lte(5)), 6), 'Must be at most 5')
    assert.equal(message(z.url(), 'nope'), 'Invalid url')
    assert.equal(message(z.string().check(z.regex(/^a/)), 'b'), 'Invalid format')
    assert.equal(message(z.strictObject({}), { x: 1 }), 'Unrecognized keys: x')
    assert.equal(message(z.union([z.string(), z.number()]), true), 'Invalid input')
  })

  it('behavior: usable as a per-parse error map', () => {
    const result = z.safeParse(z.string(), 1, { error: formatIssue })
    assert.equal(result.error?.issues[0]?.message, 'Expected string, received number')
  })
})
