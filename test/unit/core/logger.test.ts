import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createConfig } from '../../../src/core/createConfig.ts'
import { LOGGER_BUFFER_BYTES } from '../../../src/protocol/constants.ts'

const SIGNATURE = `0x${'ab'.repeat(65)}`
const JWT = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJkaWQ6a2V5In0.c2lnbmF0dXJl'

describe('client log (SPEC 9)', () => {
  test('default: off unless enableLogger (the debug attribute) asks', async () => {
    const config = createConfig({})
    config.events.emit('open', { view: 'Connect' })
    config.logger.log('warn', 'something')
    assert.deepEqual(await config.logger.entries(), [])
    config.update({ enableLogger: 'true' })
    config.events.emit('open', { view: 'Connect' })
    assert.deepEqual(
      (await config.logger.entries()).map(({ level, message, data }) => ({ level, message, data })),
      [{ level: 'info', message: 'open', data: { view: 'Connect' } }],
    )
  })

  test('behavior: kept up to about 1,024,000 bytes, the oldest dropped first', async () => {
    const config = createConfig({ enableLogger: true })
    const line = 'x'.repeat(1_000)
    for (let index = 0; index < 2_000; index++) config.logger.log('info', `${index} ${line}`)
    const entries = await config.logger.entries()
    const bytes = entries.reduce((sum, entry) => sum + Buffer.byteLength(JSON.stringify(entry)), 0)
    assert.ok(bytes <= LOGGER_BUFFER_BYTES, `${bytes} bytes kept`)
    assert.ok(bytes > LOGGER_BUFFER_BYTES - 1_100, 'the buffer is used up to its size')
    assert.ok(entries[0]?.message.startsWith(`${2_000 - entries.length} `), 'the oldest went first')
    assert.ok(entries.at(-1)?.message.startsWith('1999 '), 'the newest is kept')
  })

  test('error: no signatures, tokens, codes, keys or upstream paths in the log', async () => {
    const config = createConfig({ enableLogger: true })
    config.events.emit('sign-in', {
      data: { accountAddress: '0x1111111111111111111111111111111111111111', chainId: 'eip155:1' },
      message: 'example.org wants you to sign in',
      signature: SIGNATURE,
      cacao: { s: { s: SIGNATURE } },
    } as never)
    config.events.emit('error', { code: 4001, message: `wallet said ${SIGNATURE}` })
    config.logger.log('info', `token ${JWT}`, {
      token: 'opaque-session-token',
      accessToken: 'abc',
      otp: '123456',
      code: '654321',
      privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
      apiKey: 'k-123',
      url: 'https://mainnet.example/v3/SECRET-API-KEY?x=1',
      nested: [{ signature: 'sig' }],
    })
    const text = JSON.stringify(await config.logger.entries())
    for (const secret of [
      SIGNATURE.slice(2, 40),
      JWT,
      'opaque-session-token',
      '"abc"',
      '123456',
      '654321',
      '59c6995e998f97a5',
      'k-123',
      'SECRET-API-KEY',
      '"sig"',
    ])
      assert.ok(!text.includes(secret), `${secret} leaked: ${text}`)
    // What a support page needs stays: events, error codes, where a request went.
    assert.ok(text.includes('"code":4001'))
    assert.ok(text.includes('https://mainnet.example/…'))
    assert.ok(text.includes('0x1111111111111111111111111111111111111111'))
  })
})
