import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ModalOptions } from '../../../src/protocol/config.ts'
import { DEFAULT_OPTIONS, FEATURES, OPTION_ATTRIBUTES, parseOptions } from '../../../src/protocol/config.ts'

type Input = Parameters<typeof parseOptions>[0]

/** Parses one option and returns its value and the issue messages. */
function one<K extends keyof ModalOptions>(option: K, value: unknown, base: ModalOptions = DEFAULT_OPTIONS) {
  const { options, issues } = parseOptions({ [option]: value } as Input, base)
  return { value: options[option], messages: issues.map((issue) => issue.message) }
}

const allFeatures = (on: readonly string[]) =>
  Object.fromEntries(FEATURES.map((feature) => [feature, on.includes(feature)]))

describe('parseOptions', () => {
  test('default', () => {
    const { options, issues } = parseOptions({})
    assert.deepEqual(issues, [])
    assert.deepEqual(options, DEFAULT_OPTIONS)
    assert.deepEqual(DEFAULT_OPTIONS, {
      projectId: undefined,
      apiUrl: undefined,
      relayUrl: undefined,
      walletConnectProjectId: undefined,
      frameUrl: undefined,
      networks: ['eip155:1'],
      defaultNetwork: undefined,
      theme: 'system',
      accent: undefined,
      features: allFeatures(['send', 'activity']),
      socials: [],
      defaultAccountType: 'eoa',
      siwx: 'off',
      siwxVerifier: undefined,
      locale: undefined,
      inline: false,
      announce: true,
      rpcUrls: {},
      customNetworks: [],
      analytics: false,
      enableLogger: false,
      featuredWalletIds: [],
      includeWalletIds: [],
      excludeWalletIds: [],
    })
  })

  test('default: the result is a new object; the defaults are not changed', () => {
    const snapshot = structuredClone(DEFAULT_OPTIONS)
    const { options } = parseOptions({ theme: 'dark', networks: 'eip155:10' })
    assert.notEqual(options, DEFAULT_OPTIONS)
    assert.deepEqual(DEFAULT_OPTIONS, snapshot)
  })

  test('behavior: valid values of each option', () => {
    assert.deepEqual(one('projectId', 'abc123').value, 'abc123')
    assert.equal(one('apiUrl', 'https://api.example.org').value, 'https://api.example.org')
    assert.equal(one('relayUrl', 'wss://relay.example.org').value, 'wss://relay.example.org')
    assert.equal(one('walletConnectProjectId', 'a1b2c3').value, 'a1b2c3')
    assert.equal(OPTION_ATTRIBUTES.walletConnectProjectId, 'walletconnect-project-id')
    assert.equal(one('frameUrl', 'http://127.0.0.1:5174/frame').value, 'http://127.0.0.1:5174/frame')
    assert.deepEqual(one('networks', 'eip155:1, eip155:8453 solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp').value, [
      'eip155:1',
      'eip155:8453',
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    ])
    assert.deepEqual(one('networks', ['eip155:10', 'eip155:10', 'eip155:1']).value, ['eip155:10', 'eip155:1'])
    assert.equal(one('defaultNetwork', 'eip155:8453').value, 'eip155:8453')
    for (const theme of ['light', 'dark', 'system']) assert.equal(one('theme', theme).value, theme)
    for (const accent of ['#3b82f6', 'hsl(220 90% 56%)', 'rgb(0, 0, 0)', 'teal'])
      assert.equal(one('accent', accent).value, accent)
    assert.deepEqual(one('socials', 'google, github x').value, ['google', 'github', 'x'])
    assert.deepEqual(one('socials', ['apple', 'discord']).value, ['apple', 'discord'])
    for (const siwx of ['off', 'optional', 'required']) assert.equal(one('siwx', siwx).value, siwx)
    assert.equal(one('locale', 'pt-BR').value, 'pt-BR')
    // One URL or several, in the order to try them (SPEC 9: fallback).
    assert.deepEqual(one('rpcUrls', { 'eip155:1': 'http://127.0.0.1:8545' }).value, {
      'eip155:1': ['http://127.0.0.1:8545'],
    })
    assert.deepEqual(one('rpcUrls', { 'eip155:1': ['http://127.0.0.1:8545', 'https://rpc.example'] }).value, {
      'eip155:1': ['http://127.0.0.1:8545', 'https://rpc.example'],
    })
    // `<wallet-modal debug>` keeps the client log.
    assert.equal(one('enableLogger', '').value, true)
    assert.equal(one('enableLogger', 'off').value, false)
    const custom = [{ caipNetworkId: 'eip155:999' }]
    assert.equal(one('customNetworks', custom).value, custom)
    assert.equal(one('analytics', true).value, true)
    // A bare attribute (`<wallet-modal inline>`) is an empty string that means on.
    assert.equal(one('inline', '').value, true)
    assert.equal(one('inline', 'false').value, false)
    // `announce="off"` keeps the embedded wallet off the page's wallet lists (on by default).
    assert.equal(one('announce', 'off').value, false)
    assert.equal(one('announce', false).value, false)
    assert.equal(parseOptions({ announce: '' }).options.announce, true)
  })

  test('error: networks: foo -> Invalid CAIP-2 network id', () => {
    const { options, issues } = parseOptions({ networks: 'foo' })
    assert.deepEqual(issues, [
      { option: 'networks', source: 'networks', message: 'Invalid CAIP-2 network id' },
    ])
    assert.deepEqual(options.networks, ['eip155:1'])
  })

  test('error: networks: one bad entry, an empty list or a non-list', () => {
    assert.deepEqual(one('networks', 'eip155:1,eip155').messages, ['Invalid CAIP-2 network id'])
    assert.deepEqual(one('networks', 'a:b:c').messages, ['Invalid CAIP-2 network id'])
    assert.deepEqual(one('networks', ' , ').messages, ['Invalid CAIP-2 network id'])
    assert.deepEqual(one('networks', []).messages, ['Invalid CAIP-2 network id'])
    assert.deepEqual(one('networks', 42).messages, ['Expected a list of CAIP-2 network ids'])
  })

  test('error: theme: purple -> Expected "light" | "dark" | "system", received "purple"', () => {
    const { options, issues } = parseOptions({ theme: 'purple' })
    assert.deepEqual(issues, [
      {
        option: 'theme',
        source: 'theme',
        message: 'Expected "light" | "dark" | "system", received "purple"',
      },
    ])
    assert.equal(options.theme, 'system')
    assert.deepEqual(one('theme', 3).messages, ['Expected "light" | "dark" | "system", received 3'])
  })

  test('default-account-type: eoa or smartAccount; a bad value is refused with its message and eoa stays', () => {
    assert.equal(parseOptions({}).options.defaultAccountType, 'eoa')
    for (const type of ['eoa', 'smartAccount']) assert.equal(one('defaultAccountType', type).value, type)
    const { options, issues } = parseOptions({ defaultAccountType: 'smart' })
    assert.deepEqual(issues, [
      {
        option: 'defaultAccountType',
        source: 'default-account-type',
        message: 'Expected "eoa" | "smartAccount", received "smart"',
      },
    ])
    assert.equal(options.defaultAccountType, 'eoa')
    assert.deepEqual(one('defaultAccountType', 1).messages, ['Expected "eoa" | "smartAccount", received 1'])
  })

  test('args: frame-integrity is a text option (its form is checked when the frame loads)', () => {
    const pin = `sha384-${'A1+/'.repeat(16)}`
    assert.equal(OPTION_ATTRIBUTES.frameIntegrity, 'frame-integrity')
    assert.equal(one('frameIntegrity', pin).value, pin)
    assert.equal(DEFAULT_OPTIONS.frameIntegrity, undefined)
    assert.deepEqual(one('frameIntegrity', 'x'.repeat(201)).messages, ['Must be at most 200 characters'])
    assert.deepEqual(one('frameIntegrity', 384).messages, ['Expected string, received number'])
  })

  test('error: invalid values of the other options, with their messages', () => {
    assert.deepEqual(one('projectId', 5).messages, ['Expected string, received number'])
    assert.deepEqual(one('projectId', 'x'.repeat(201)).messages, ['Must be at most 200 characters'])
    assert.deepEqual(one('walletConnectProjectId', 5).messages, ['Expected string, received number'])
    for (const option of ['apiUrl', 'relayUrl', 'frameUrl'] as const) {
      assert.deepEqual(one(option, 'ftp://example.org').messages, ['Expected an http(s) or ws(s) URL'])
      assert.deepEqual(one(option, 'javascript:alert(1)').messages, ['Expected an http(s) or ws(s) URL'])
    }
    assert.deepEqual(one('defaultNetwork', 'eip155').messages, ['Invalid CAIP-2 network id'])
    for (const accent of ['red;}', 'url(https://x)', '#12', 'var(--x)'])
      assert.deepEqual(one('accent', accent).messages, ['Invalid accent colour'], accent)
    assert.deepEqual(one('socials', 'google,myspace').messages, [
      'Expected "google" | "github" | "apple" | "facebook" | "x" | "discord", received "myspace"',
    ])
    assert.deepEqual(one('socials', 5).messages, ['Expected array, received number'])
    assert.deepEqual(one('siwx', 'maybe').messages, ['Expected off, optional or required'])
    assert.deepEqual(one('locale', 'EN').messages, ['Invalid locale'])
    assert.deepEqual(one('rpcUrls', { 'eip155:1': 'ftp://x' }).messages, ['Expected an http(s) or ws(s) URL'])
    assert.deepEqual(one('rpcUrls', 'http://x').messages, ['Expected record, received string'])
    assert.deepEqual(one('customNetworks', [1]).messages, ['Expected an array of network definitions'])
    assert.deepEqual(one('customNetworks', {}).messages, ['Expected an array of network definitions'])
    assert.deepEqual(one('analytics', 'yes').messages, ['Expected true or false'])
    assert.deepEqual(one('featuredWalletIds', 'a,b c').value, ['a', 'b', 'c'])
    assert.deepEqual(one('excludeWalletIds', 'ok,<script>').messages, ['Invalid wallet id'])
  })

  test('behavior: each issue names the attribute or property it came from', () => {
    const input: Input = {
      projectId: 5,
      defaultNetwork: 'x',
      rpcUrls: 'x',
      customNetworks: 'x',
      analytics: 'x',
    }
    const { issues } = parseOptions(input)
    assert.deepEqual(
      issues.map(({ option, source }) => [option, source]),
      [
        ['projectId', 'project-id'],
        ['defaultNetwork', 'default-network'],
        ['rpcUrls', 'config.rpcUrls'],
        ['customNetworks', 'config.customNetworks'],
        ['analytics', 'analytics'],
      ],
    )
    for (const issue of issues) assert.equal(issue.source, OPTION_ATTRIBUTES[issue.option])
  })

  test('behavior: a bad value keeps the previous value, good ones apply', () => {
    const base = parseOptions({ theme: 'dark', networks: 'eip155:10', siwx: 'optional' }).options
    const { options, issues } = parseOptions({ theme: 'purple', networks: 'foo', siwx: 'required' }, base)
    assert.equal(options.theme, 'dark')
    assert.deepEqual(options.networks, ['eip155:10'])
    assert.equal(options.siwx, 'required')
    assert.deepEqual(
      issues.map((issue) => issue.option),
      ['theme', 'networks'],
    )
  })

  test('behavior: an empty, null or undefined value resets the option to its default', () => {
    const base = parseOptions({ theme: 'dark', projectId: 'abc', networks: 'eip155:10' }).options
    const { options, issues } = parseOptions({ theme: '', projectId: null, networks: undefined }, base)
    assert.deepEqual(issues, [])
    assert.equal(options.theme, 'system')
    assert.equal(options.projectId, undefined)
    assert.deepEqual(options.networks, ['eip155:1'])
  })

  test('behavior: unknown option names are ignored here (the config property reports them)', () => {
    const { options, issues } = parseOptions({ colour: 'red' } as unknown as Input)
    assert.deepEqual(issues, [])
    assert.deepEqual(options, DEFAULT_OPTIONS)
  })

  test('behavior: features as a list turn on exactly the listed ones', () => {
    assert.deepEqual(one('features', 'email, swaps onramp').value, allFeatures(['email', 'swaps', 'onramp']))
    assert.deepEqual(one('features', ['send']).value, allFeatures(['send']))
    assert.deepEqual(one('features', []).value, allFeatures([]))
  })

  test('behavior: features as an object override the defaults one by one', () => {
    assert.deepEqual(one('features', { email: true, activity: false }).value, allFeatures(['email', 'send']))
  })

  test('error: unknown feature', () => {
    assert.deepEqual(one('features', 'email,teleport').messages, ['Unknown feature: teleport'])
    assert.deepEqual(one('features', ['email', 7]).messages, ['Unknown feature: 7'])
    assert.deepEqual(one('features', { teleport: true }).messages, ['Unknown feature: teleport'])
    assert.deepEqual(one('features', 5).messages, ['Expected a list of features'])
    assert.deepEqual(one('features', 'email,teleport').value, DEFAULT_OPTIONS.features)
  })

  test("siwx as an object: the site's own verifier, its required flag giving the mode", () => {
    const verifier = {
      required: true,
      addSession: async () => {},
      getSessions: async () => [],
      revokeSession: async () => {},
    }
    const { options, issues } = parseOptions({ siwx: verifier })
    assert.deepEqual(issues, [])
    assert.equal(options.siwx, 'required')
    assert.equal(options.siwxVerifier, verifier)
    assert.equal(parseOptions({ siwx: { ...verifier, required: undefined } }).options.siwx, 'optional')
    // Back to a mode string: the service verifies again.
    assert.equal(parseOptions({ siwx: 'optional' }, options).options.siwxVerifier, undefined)
  })

  test('error: a siwx object without its functions is refused and nothing changes', () => {
    const { options, issues } = parseOptions({ siwx: { required: true, addSession: 'no' } })
    assert.equal(options.siwx, 'off')
    assert.equal(options.siwxVerifier, undefined)
    assert.equal(issues.length, 1)
    assert.equal(issues[0]?.source, 'config.siwx')
    assert.match(issues[0]?.message ?? '', /addSession must be a function|getSessions must be a function/)
  })
})
