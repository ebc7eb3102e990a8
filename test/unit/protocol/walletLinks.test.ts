import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { isSafeWalletLink, type WalletLinkKind } from '../../../src/protocol/api/catalogue.ts'

describe('isSafeWalletLink', () => {
  const cases: [WalletLinkKind, string, boolean][] = [
    ['mobile_link', 'rainbow:', true],
    ['mobile_link', 'trust://', true],
    ['mobile_link', 'metamask://wc', true],
    ['mobile_link', 'https://link.trustwallet.com/', true],
    ['desktop_link', 'ledgerlive:', true],
    ['webapp_link', 'https://app.example.com/connect?x=1', true],
    ['webapp_link', 'https://app.example.com:8443', true],
    ['webapp_link', 'rainbow:', false],
    ['mobile_link', 'javascript:alert(1)', false],
    ['mobile_link', 'JAVASCRIPT:alert(1)', false],
    ['mobile_link', 'data:text/html;base64,PHNjcmlwdD4=', false],
    ['mobile_link', 'vbscript:msgbox(1)', false],
    ['mobile_link', 'file:///etc/passwd', false],
    ['mobile_link', 'http://wallet.example', false],
    ['mobile_link', 'blob:https://x/1', false],
    ['mobile_link', 'https://user:pw@evil.example', false],
    ['mobile_link', 'https://', false],
    ['mobile_link', 'https:evil.example', false],
    ['mobile_link', '1inch:', false],
    ['mobile_link', 'rainbow: x', false],
    ['mobile_link', 'rain\u0000bow:', false],
    ['mobile_link', '//evil.example', false],
    ['mobile_link', '', false],
  ]
  for (const [kind, link, expected] of cases) {
    test(`${expected ? 'default' : 'error'}: ${kind} ${JSON.stringify(link)} is ${expected ? 'accepted' : 'refused'}`, () => {
      assert.equal(isSafeWalletLink(kind, link), expected)
    })
  }
})
