// The name and on-ramp views' words in ja (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: 'アドレスの代わりに送金先として使える名前を選んでください。',
  nameField: '名前',
  checking: '確認中…',
  nameAvailable: '{name} は利用できます',
  nameTaken: '{name} は使用済みです。似た空き名前:',
  register: '{name} を登録',
  changeNameHint: 'あなたの名前は {name} です。別の名前を選ぶか、誰でも使えるように解放してください。',
  releaseName: '{name} を解放',
  signInWallet: 'ウォレットでメッセージに署名してください…',
  nameRegistered: '{name} はあなたのものです',
  nameRegisteredHint: 'アドレスの代わりに {name} へ送金できるようになりました。',
  buyToken: 'トークン',
  payWith: '支払い方法',
  card: 'カード',
  ach_bank_account: '銀行振込 (ACH)',
  amountIn: '{currency} での金額',
  quoteLoading: '見積もりを取得中…',
  youGet: '約 {amount} {symbol} を受け取ります (手数料 {fee})',
  continueToPayment: '支払いへ進む',
  checkoutOpened: '支払いページを新しいタブで開きました。支払い後、トークンがここに届きます。',
  checkoutBlocked:
    'ブラウザーが支払いページをブロックしました。下のボタンから開いてください。支払い後、トークンがここに届きます。',
  openCheckout: '支払いページを開く',
  purchaseArrived: '{amount} {symbol} がウォレットに届きました',
  purchaseFailed: '支払いは完了しませんでした。',
  nameRuleError: 'ウォレット名: 英字、数字、ハイフンで 4 文字以上',
  amountRangeError: '{min} から {max} {currency} の金額を入力してください',
  onrampUnavailable: 'ここでは暗号資産を購入できません',
  failedWith: 'うまくいきませんでした: {message}',
  imageField: 'プロフィール画像のリンク (https://)',
  setImage: '画像を設定',
  imageSet: 'プロフィール画像を設定しました',
  imageRuleError: 'プロフィール画像: 512 文字以内の https:// URL',
  'error.registerNameFirst': '先に名前を登録してください',
}

export default names
