import type { ActivityMessages } from './en.ts'

const zhCN: ActivityMessages = {
  activity: '活动',
  activityLoading: '正在加载活动…',
  activityEmpty: '暂无交易',
  activityMore: '显示更多',
  activityLoadingMore: '正在加载更多…',
  activityRetry: '重试',
  activitySend: '已发送',
  activityReceive: '已收到',
  activitySelf: '已发送给自己',
  activityTrade: '已兑换',
  activityOnramp: '已购买',
  activityTo: '至 {address}',
  activityFrom: '来自 {address}',
}

export default zhCN
