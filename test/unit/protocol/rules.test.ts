import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  AccentSchema,
  AccountNameSchema,
  CallListSchema,
  EmailSchema,
  emailCooldownMessage,
  OtpSchema,
  SendFormSchema,
  SocialProviderSchema,
  ThemeAttributeSchema,
  ThemeModeSchema,
  type TokenBalance,
  validate,
  validateSendForm,
} from '../../../src/protocol/index.ts'

const rejects = (schema: Parameters<typeof validate>[0], value: unknown, message: string) =>
  assert.equal((validate(schema, value) as { message?: string }).message, message)
const accepts = (schema: Parameters<typeof validate>[0], value: unknown) =>
  assert.equal(validate(schema, value).ok, true, String(value))

describe('EmailSchema', () => {
  it('default: accepts e-mail addresses', () => {
    for (const email of ['ada@example.com', 'a.b+tag@mail.example.co.uk', 'x_y@sub.example.org'])
      accepts(EmailSchema, email)
  })

  it('error: rejects anything else', () => {
    for (const email of ['ada', 'ada@', '@example.com', 'ada@example', 'ada @example.com', ''])
      rejects(EmailSchema, email, 'Invalid email address')
    rejects(EmailSchema, undefined, 'Required')
    rejects(EmailSchema, 1, 'Expected string, received number')
  })
})

describe('OtpSchema', () => {
  it('default: any string', () => {
    accepts(OtpSchema, '123456')
    accepts(OtpSchema, '')
  })

  it('error: a number is not a code', () => rejects(OtpSchema, 123456, 'Expected string, received number'))
})

describe('SocialProviderSchema', () => {
  it('default: the six providers', () => {
    for (const provider of ['google', 'github', 'apple', 'facebook', 'x', 'discord'])
      accepts(SocialProviderSchema, provider)
  })

  it('error: rejects others', () =>
    rejects(
      SocialProviderSchema,
      'twitter',
      'Expected "google" | "github" | "apple" | "facebook" | "x" | "discord", received "twitter"',
    ))
})

describe('ThemeModeSchema and ThemeAttributeSchema', () => {
  it('default: light and dark; the attribute also takes system', () => {
    accepts(ThemeModeSchema, 'light')
    accepts(ThemeModeSchema, 'dark')
    accepts(ThemeAttributeSchema, 'system')
  })

  it('error: system is not a mode', () => {
    rejects(ThemeModeSchema, 'system', 'Expected "light" | "dark", received "system"')
    rejects(ThemeAttributeSchema, 'auto', 'Expected "light" | "dark" | "system", received "auto"')
  })
})

describe('CallListSchema', () => {
  it('default: destination and data start with 0x', () => {
    accepts(CallListSchema, [])
    accepts(CallListSchema, [{ to: '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb' }])
    accepts(CallListSchema, [
      { to: '0x01', data: '0xa9059cbb', value: '0x1' },
      { to: '0x02', value: 5n },
    ])
  })

  it('error: destination without 0x', () =>
    assert.deepEqual(validate(CallListSchema, [{ to: '0x01' }, { to: 'ab16' }]), {
      ok: false,
      message: 'Call destination must start with 0x',
      path: [1, 'to'],
    }))

  it('error: data without 0x', () =>
    rejects(CallListSchema, [{ to: '0x01', data: 'a9059cbb' }], 'Call data must start with 0x'))

  it('error: missing destination', () =>
    assert.deepEqual(validate(CallListSchema, [{ data: '0x' }]), {
      ok: false,
      message: 'Required',
      path: [0, 'to'],
    }))

  it('error: not a list', () => rejects(CallListSchema, { to: '0x01' }, 'Expected array, received object'))
})

describe('validateSendForm', () => {
  const token: TokenBalance = {
    address: 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    symbol: 'USDC',
    quantity: { numeric: '12.5', decimals: 6 },
    price: 1,
  }
  const receiverAddress = '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb'

  it('default: a complete form passes', () => {
    const result = validateSendForm({ token, sendTokenAmount: '1.25', receiverAddress, loading: false })
    assert.equal(result.ok, true)
    assert.equal(result.ok && result.value.token.symbol, 'USDC')
  })

  it('error: amount missing', () =>
    assert.deepEqual(validateSendForm({ token, receiverAddress, loading: false }), {
      ok: false,
      message: 'An amount and receiver address are required',
      path: ['sendTokenAmount'],
    }))

  it('error: receiver missing or empty', () => {
    for (const form of [
      { token, sendTokenAmount: '1' },
      { token, sendTokenAmount: '1', receiverAddress: '' },
    ])
      assert.equal(
        (validateSendForm(form) as { message: string }).message,
        'An amount and receiver address are required',
      )
  })

  it('error: amount and receiver come before the token', () =>
    rejects(SendFormSchema, { loading: false }, 'An amount and receiver address are required'))

  it('error: token missing', () =>
    assert.deepEqual(validateSendForm({ sendTokenAmount: '1', receiverAddress, loading: false }), {
      ok: false,
      message: 'A token is required',
      path: ['token'],
    }))

  it('error: amount that is not a number', () =>
    assert.equal(
      (validateSendForm({ token, sendTokenAmount: 'ten', receiverAddress }) as { message: string }).message,
      'Invalid amount',
    ))
})

describe('AccountNameSchema', () => {
  it('default: letters, digits and hyphens, 4 or more', () => {
    for (const name of ['ada1', 'Ada-Lovelace', '1234', 'a-b-c-d']) accepts(AccountNameSchema, name)
  })

  it('error: too short', () => {
    for (const name of ['', 'ada', 'a-b'])
      rejects(AccountNameSchema, name, 'Name must be at least 4 characters')
  })

  it('error: other characters', () => {
    for (const name of ['ada lovelace', 'ada.eth', 'ada_1', 'ädä1'])
      rejects(AccountNameSchema, name, 'Name can only contain letters, digits and hyphens')
  })
})

describe('emailCooldownMessage', () => {
  it('default: names the seconds left', () => {
    assert.equal(emailCooldownMessage(30), 'Please try again after 30 seconds')
    assert.equal(emailCooldownMessage(1), 'Please try again after 1 seconds')
  })

  it('args: rounds partial seconds up', () =>
    assert.equal(emailCooldownMessage(12.2), 'Please try again after 13 seconds'))
})

describe('AccentSchema', () => {
  it('default: hex, functions and colour words', () => {
    for (const colour of [
      '#fff',
      '#FFFA',
      '#3b82f6',
      '#3b82f680',
      'rgb(59, 130, 246)',
      'rgba(59,130,246,0.5)',
      'rgb(59 130 246 / 50%)',
      'hsl(220 90% 56%)',
      'hsla(220deg, 90%, 56%, .5)',
      'rebeccapurple',
      'Tomato',
    ])
      accepts(AccentSchema, colour)
  })

  it('error: injections and non-colours', () => {
    for (const value of [
      'red;background:url(https://evil.example)',
      'red}body{display:none',
      'url(https://evil.example/x.png)',
      'URL(x)',
      '#ggg',
      '#12345',
      'rgb(calc(1))',
      'var(--x)',
      'red blue',
      '',
    ])
      rejects(AccentSchema, value, 'Invalid accent colour')
  })
})
