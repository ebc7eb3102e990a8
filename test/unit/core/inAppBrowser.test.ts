import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { detectInAppBrowser, type InAppBrowserWindow, openInBrowser } from '../../../src/core/inAppBrowser.ts'

/** A window with only a user agent (and what an app injects). */
const windowWith = (userAgent: string, injected: Omit<InAppBrowserWindow, 'navigator'> = {}) => ({
  navigator: { userAgent },
  ...injected,
})

/** User agents as the apps send them (each app's own token at the end, on a phone's web view). */
const agents = {
  instagramIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 307.0.3.18.107 (iPhone14,5; iOS 17_1_2; en_US; en; scale=3.00; 1170x2532; 532277229)',
  instagramAndroid:
    'Mozilla/5.0 (Linux; Android 13; SM-S908B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 Instagram 309.0.0.40.113 Android (33/13; 480dpi; 1080x2186; samsung; SM-S908B; b0q; qcom; en_US; 537288532)',
  facebookIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/444.0.0.38.115;FBBV/537014340;FBDV/iPhone14,2;FBMD/iPhone;FBSN/iOS;FBSV/17.1.2;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/538925165]',
  facebookAndroid:
    'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/118.0.5993.111 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/439.0.0.29.119;]',
  messengerIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/MessengerForiOS;FBAV/424.0.0.31.110;FBBV/514426545;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/16.6;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/5]',
  xIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.8',
  xAndroid:
    'Mozilla/5.0 (Linux; Android 12; SM-G991B Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/117.0.5938.60 Mobile Safari/537.36 TwitterAndroid',
  lineIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/13.16.0',
  lineAndroid:
    'Mozilla/5.0 (Linux; Android 13; SO-51C Build/61.2.A.0.447; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.5845.114 Mobile Safari/537.36 Line/13.15.1/IAB',
  wechatIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.40(0x1800282b) NetType/WIFI Language/zh_CN',
  wechatAndroid:
    'Mozilla/5.0 (Linux; Android 13; V2227A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/111.0.5563.116 Mobile Safari/537.36 XWEB/5223 MMWEBSDK/20230701 MMWEBID/6418 MicroMessenger/8.0.40.2420(0x28002837) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64',
  telegramAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36 Telegram-Android/11.1.3 (Samsung SM-S918B; Android 14; SDK 34; HIGH)',
  warpcastIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Warpcast/1.0.95',
  safariIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  firefoxDesktop: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
}

describe('detectInAppBrowser', () => {
  test('instagram: iOS and Android (before Facebook, whose tokens some Instagram builds carry)', () => {
    assert.deepEqual(detectInAppBrowser(windowWith(agents.instagramIos)), {
      id: 'instagram',
      name: 'Instagram',
      os: 'ios',
    })
    assert.deepEqual(detectInAppBrowser(windowWith(agents.instagramAndroid)), {
      id: 'instagram',
      name: 'Instagram',
      os: 'android',
    })
    assert.equal(detectInAppBrowser(windowWith(`${agents.instagramIos} [FBAN/FBIOS]`))?.id, 'instagram')
  })

  test('facebook: FBAN/FBAV on iOS, FB_IAB on Android, Messenger counts as Facebook', () => {
    assert.deepEqual(detectInAppBrowser(windowWith(agents.facebookIos)), {
      id: 'facebook',
      name: 'Facebook',
      os: 'ios',
    })
    assert.deepEqual(detectInAppBrowser(windowWith(agents.facebookAndroid)), {
      id: 'facebook',
      name: 'Facebook',
      os: 'android',
    })
    assert.equal(detectInAppBrowser(windowWith(agents.messengerIos))?.id, 'facebook')
  })

  test('x: Twitter for iPhone, TwitterAndroid', () => {
    assert.deepEqual(detectInAppBrowser(windowWith(agents.xIos)), { id: 'x', name: 'X', os: 'ios' })
    assert.deepEqual(detectInAppBrowser(windowWith(agents.xAndroid)), { id: 'x', name: 'X', os: 'android' })
  })

  test('line: Line/<version> on both systems', () => {
    assert.deepEqual(detectInAppBrowser(windowWith(agents.lineIos)), { id: 'line', name: 'LINE', os: 'ios' })
    assert.deepEqual(detectInAppBrowser(windowWith(agents.lineAndroid)), {
      id: 'line',
      name: 'LINE',
      os: 'android',
    })
  })

  test('wechat: MicroMessenger on both systems', () => {
    assert.deepEqual(detectInAppBrowser(windowWith(agents.wechatIos)), {
      id: 'wechat',
      name: 'WeChat',
      os: 'ios',
    })
    assert.equal(detectInAppBrowser(windowWith(agents.wechatAndroid))?.os, 'android')
  })

  test('telegram: its Android user agent, its injected web-view bridge, or a mini app launch', () => {
    assert.deepEqual(detectInAppBrowser(windowWith(agents.telegramAndroid)), {
      id: 'telegram',
      name: 'Telegram',
      os: 'android',
    })
    // Telegram's iOS browser sends Safari's user agent: only its bridge says where the page is.
    assert.deepEqual(detectInAppBrowser(windowWith(agents.safariIos, { TelegramWebviewProxy: {} })), {
      id: 'telegram',
      name: 'Telegram',
      os: 'ios',
    })
    assert.equal(
      detectInAppBrowser(windowWith(agents.safariIos, { Telegram: { WebApp: { initData: 'query_id=AA' } } }))
        ?.id,
      'telegram',
    )
    // The page's own copy of Telegram's script, outside Telegram, has no launch data.
    assert.equal(
      detectInAppBrowser(windowWith(agents.safariIos, { Telegram: { WebApp: { initData: '' } } })),
      undefined,
    )
  })

  test('farcaster: the Warpcast client', () => {
    assert.deepEqual(detectInAppBrowser(windowWith(agents.warpcastIos)), {
      id: 'farcaster',
      name: 'Farcaster',
      os: 'ios',
    })
  })

  test("the phone's own browsers and a desktop one are not in-app browsers; no window, none", () => {
    for (const agent of [agents.safariIos, agents.chromeAndroid, agents.chromeIos, agents.firefoxDesktop])
      assert.equal(detectInAppBrowser(windowWith(agent)), undefined, agent)
    assert.equal(detectInAppBrowser(undefined), undefined)
  })
})

describe('openInBrowser', () => {
  const page = 'https://shop.example/mint?ref=ig#top'

  test("android: an intent to the page's https URL, for the default browser, falling back to the page", () => {
    const way = openInBrowser({ id: 'instagram', name: 'Instagram', os: 'android' }, page)
    assert.equal(way.kind, 'link')
    assert.equal(
      way.kind === 'link' && way.href,
      `intent://shop.example/mint?ref=ig#Intent;scheme=https;action=android.intent.action.VIEW;S.browser_fallback_url=${encodeURIComponent(page)};end`,
    )
    assert.doesNotMatch(way.kind === 'link' ? way.href : '', /package=/)
  })

  test("line: its own openExternalBrowser parameter, on iOS too; the page's query and fragment kept", () => {
    const way = openInBrowser({ id: 'line', name: 'LINE', os: 'ios' }, page)
    assert.deepEqual(way, {
      kind: 'link',
      href: 'https://shop.example/mint?ref=ig&openExternalBrowser=1#top',
    })
  })

  test('iOS web views have no documented way out: the link to copy', () => {
    assert.deepEqual(openInBrowser({ id: 'instagram', name: 'Instagram', os: 'ios' }, page), {
      kind: 'copy',
      url: page,
    })
  })

  test('a page that is not http(s) is only ever copied', () => {
    assert.deepEqual(openInBrowser({ id: 'facebook', name: 'Facebook', os: 'android' }, 'file:///x.html'), {
      kind: 'copy',
      url: 'file:///x.html',
    })
  })
})
