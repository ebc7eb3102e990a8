import type { ActivityMessages } from './en.ts'

const ko: ActivityMessages = {
  activity: '활동',
  activityLoading: '활동 불러오는 중…',
  activityEmpty: '아직 거래가 없습니다',
  activityMore: '더 보기',
  activityLoadingMore: '더 불러오는 중…',
  activityRetry: '다시 시도',
  activitySend: '보냄',
  activityReceive: '받음',
  activitySelf: '나에게 보냄',
  activityTrade: '스왑함',
  activityOnramp: '구매함',
  activityTo: '받는 사람 {address}',
  activityFrom: '보낸 사람 {address}',
}

export default ko
