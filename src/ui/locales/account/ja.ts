import type { AccountMessages } from './en.ts'

const ja: AccountMessages = {
  copyAddress: 'アドレスをコピー',
  addressCopied: 'アドレスをコピーしました',
  tokens: 'トークン',
  network: 'ネットワーク',
  unknownNetwork: 'ネットワーク {id}',
  totalValue: '合計額',
  namespaceNetworks:
    '{namespace, select, eip155 {EVM ネットワーク} solana {Solana ネットワーク} other {{namespace} ネットワーク}}',
  currentNetwork: '現在のネットワーク',
  switching: 'ウォレットでネットワークの切り替えを承認してください',
  unsupportedHint:
    'ウォレットは、このサイトがサポートしていないネットワークに接続しています。次のいずれかのネットワークに切り替えてください。',
  token: 'トークン',
  receiver: '送金先アドレス',
  receiverPlaceholder: '{namespace, select, solana {Solana アドレス} other {0x…}}',
  max: '最大',
  available: '利用可能: {amount}',
  sendWaiting: 'ウォレットでトランザクションを承認してください',
  sent: '{amount} を {receiver} に送金しました',
  viewTransaction: 'エクスプローラーで表示',
  done: '完了',
  availableWithValue: '利用可能: {amount}（≈ {value}）',
  amountValue: '≈ {value}',
  swapFrom: '支払う',
  swapTo: '受け取る',
  switchTokens: 'トークンを入れ替える',
  quoting: '見積もりを取得中…',
  expectedOutput: '受け取り予定額',
  priceImpact: '価格への影響',
  minimumReceived: '最低受取額（スリッページ {percent}）',
  networkFee: 'ネットワーク手数料',
  approveAndSwap: '{symbol} を承認してスワップ',
  approveWaiting: 'ウォレットで {symbol} を承認してください',
  swapWaiting: 'ウォレットでスワップを確認してください',
  swapped: '{paid} を {received} にスワップしました',
}

export default ja
