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
    ['app_store', 'https://apps.apple.com/us/app/rainbow-ethereum-wallet/id1457119021', true],
    ['play_store', 'https://play.google.com/store/apps/details?id=me.rainbow', true],
    ['app_store', 'javascript:alert(document.cookie)//', false],
    ['app_store', 'itms-apps://apps.apple.com/app/id1457119021', false],
    ['app_store', 'http://apps.apple.com/app/id1457119021', false],
    ['play_store', 'market://details?id=me.rainbow', false],
    ['play_store', 'intent://details?id=me.rainbow#Intent;scheme=market;end', false],
    ['play_store', 'data:text/html,<script>alert(1)</script>', false],
  ]
  for (const [kind, link, expected] of cases) {
    test(`${expected ? 'default' : 'error'}: ${kind} ${JSON.stringify(link)} is ${expected ? 'accepted' : 'refused'}`, () => {
      assert.equal(isSafeWalletLink(kind, link), expected)
    })
  }
})
