import type { ActivityMessages } from './en.ts'

const ru: ActivityMessages = {
  activity: 'Активность',
  activityLoading: 'Загрузка активности…',
  activityEmpty: 'Транзакций пока нет',
  activityMore: 'Показать ещё',
  activityLoadingMore: 'Загрузка…',
  activityRetry: 'Повторить',
  activitySend: 'Отправлено',
  activityReceive: 'Получено',
  activitySelf: 'Отправлено себе',
  activityTrade: 'Обмен',
  activityOnramp: 'Куплено',
  activityTo: 'Кому: {address}',
  activityFrom: 'От: {address}',
}

export default ru
