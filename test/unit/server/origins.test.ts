import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  isOriginAllowed,
  isOriginPattern,
  normalizeOriginPattern,
  originMatches,
  originPatternWarning,
} from '../../../server/projects/origins.ts'

describe('originMatches', () => {
  const cases: [pattern: string, origin: string, expected: boolean][] = [
    // exact
    ['https://app.example.com', 'https://app.example.com', true],
    ['https://app.example.com', 'http://app.example.com', false],
    ['https://app.example.com', 'https://app.example.co', false],
    ['https://app.example.com', 'https://xapp.example.com', false],
    // a wildcard label is exactly one whole label: not two, not none
    ['https://*.example.com', 'https://app.example.com', true],
    ['https://*.example.com', 'https://a.b.example.com', false],
    ['https://*.example.com', 'https://a.b.c.example.com', false],
    ['https://*.example.com', 'https://.example.com', false],
    ['https://*.example.com', 'https://example.com', false],
    ['https://*.example.com', 'https://app.example.com.evil.test', false],
    ['https://*.example.com', 'https://evil-example.com', false],
    ['https://*.example.com', 'https://app.example.com:8443', false],
    // wildcard inside a label (preview hosts)
    ['https://my-app-*.vercel.app', 'https://my-app-git-main.vercel.app', true],
    ['https://my-app-*.vercel.app', 'https://other-app-git-main.vercel.app', false],
    ['https://my-app-*.vercel.app', 'https://my-app-x.evil.vercel.app', false],
    ['https://my-app-*.vercel.app', 'https://my-app-.vercel.app', false],
    ['https://*-preview.example.com', 'https://pr-1-preview.example.com', true],
    ['https://*-preview.example.com', 'https://a.pr-1-preview.example.com', false],
    // ports
    ['http://localhost:5173', 'http://localhost:5173', true],
    ['http://localhost:5173', 'http://localhost:5174', false],
    ['http://localhost:5173', 'http://localhost', false],
    ['http://localhost', 'http://localhost:80', false],
    ['http://localhost:*', 'http://localhost:3000', true],
    ['http://localhost:*', 'http://localhost', true],
    ['http://localhost:*', 'http://localhost.evil.test:3000', false],
    // no scheme: http and https
    ['example.com', 'https://example.com', true],
    ['example.com', 'http://example.com', true],
    ['example.com', 'chrome-extension://example.com', false],
    ['*.example.com', 'http://shop.example.com', true],
    ['*.example.com', 'http://a.shop.example.com', false],
    // a wildcard elsewhere than the leftmost label matches nothing (the pattern is refused)
    ['https://app.*.example.com', 'https://app.x.example.com', false],
    // everything
    ['*', 'https://anything.test', true],
    // case and trailing slash
    ['HTTPS://App.Example.com/', 'https://app.example.com', true],
    ['https://app.example.com', 'HTTPS://APP.EXAMPLE.COM', true],
    // regular-expression characters are literal
    ['https://a.b', 'https://aXb', false],
  ]
  for (const [pattern, origin, expected] of cases) {
    test(`behavior: ${pattern} ${expected ? 'allows' : 'refuses'} ${origin}`, () => {
      assert.equal(originMatches(pattern, origin), expected)
    })
  }

  test('behavior: isOriginAllowed checks every pattern', () => {
    const list = ['http://localhost:5173', 'https://*.example.com']
    assert.equal(isOriginAllowed(list, 'https://shop.example.com'), true)
    assert.equal(isOriginAllowed(list, 'http://localhost:4173'), false)
    assert.equal(isOriginAllowed([], 'http://localhost:5173'), false)
  })
})

describe('isOriginPattern', () => {
  for (const pattern of [
    '*',
    'https://a.example.com',
    'http://127.0.0.1:8787',
    'https://*.example.com',
    'localhost:*',
  ]) {
    test(`default: ${pattern} is a pattern`, () => assert.equal(isOriginPattern(pattern), true))
  }
  for (const pattern of [
    '',
    'https://',
    'https://a.example.com/path',
    'https://a b.com',
    'http://x:99999',
    'https://a.com?q',
    'https://app.*.example.com',
    'https://*.*.example.com',
    'https://example.*',
    'https://*',
    '*:3000',
  ]) {
    test(`error: "${pattern}" is not a pattern`, () => assert.equal(isOriginPattern(pattern), false))
  }
  test('default: normalizeOriginPattern trims, lowers and drops the trailing slash', () => {
    assert.equal(normalizeOriginPattern('  HTTPS://App.Example.com/ '), 'https://app.example.com')
  })
})

describe('originPatternWarning', () => {
  const warned: [string, RegExp][] = [
    [
      'https://*.vercel.app',
      /^https:\/\/\*\.vercel\.app allows sites on vercel\.app, a shared hosting domain where anyone can publish one \(https:\/\/attacker\.vercel\.app would pass\)/,
    ],
    [
      'https://my-app-*.vercel.app',
      /allows sites on vercel\.app.*\(https:\/\/my-app-attacker\.vercel\.app would pass\)/,
    ],
    ['https://*.github.io', /allows sites on github\.io/],
    ['*.pages.dev', /allows sites on pages\.dev/],
    ['https://*.com', /allows every site under the top-level domain \.com/],
    ['*', /^\* allows every origin/],
  ]
  for (const [pattern, warning] of warned) {
    test(`behavior: ${pattern} is warned about`, () =>
      assert.match(originPatternWarning(pattern) ?? '', warning))
  }
  for (const pattern of [
    'https://*.example.com',
    'https://shop.vercel.app',
    'http://localhost:*',
    'https://app.example.com',
  ]) {
    test(`default: ${pattern} needs no warning`, () => assert.equal(originPatternWarning(pattern), null))
  }
})
