import type { ActivityMessages } from './en.ts'

const ja: ActivityMessages = {
  activity: 'アクティビティ',
  activityLoading: 'アクティビティを読み込み中…',
  activityEmpty: 'まだ取引はありません',
  activityMore: 'さらに表示',
  activityLoadingMore: 'さらに読み込み中…',
  activityRetry: '再試行',
  activitySend: '送金',
  activityReceive: '受け取り',
  activitySelf: '自分宛てに送金',
  activityTrade: 'スワップ',
  activityOnramp: '購入',
  activityTo: '宛先 {address}',
  activityFrom: '送信元 {address}',
}

export default ja
