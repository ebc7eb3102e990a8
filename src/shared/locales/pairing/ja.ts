import type { PairingMessages } from './en.ts'

const ja: PairingMessages = {
  qrLabel: '{name} を接続するための QR コード',
  qrLabelAnyWallet: 'ウォレットを接続するための QR コード',
  scanWith: '{name} でスキャンするか、このデバイスでリンクを開いてください',
  scanWithAnyWallet: 'スマートフォンのウォレットでスキャンするか、このデバイスでリンクを開いてください',
  noApp: '{name} をお持ちでないですか？',
  getIt: '入手する',
  approveInApp: '{name} で接続を承認してから、ここに戻ってください',
  appDidNotOpen: '開きませんでしたか？{name} がインストールされていない可能性があります。',
  getOnAppStore: 'App Store で {name} を入手',
  getOnGooglePlay: 'Google Play で {name} を入手',
}

export default ja
