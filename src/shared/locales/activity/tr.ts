import type { ActivityMessages } from './en.ts'

const tr: ActivityMessages = {
  activity: 'Etkinlik',
  activityLoading: 'Etkinlik yükleniyor…',
  activityEmpty: 'Henüz işlem yok',
  activityMore: 'Daha fazla göster',
  activityLoadingMore: 'Daha fazlası yükleniyor…',
  activityRetry: 'Tekrar dene',
  activitySend: 'Gönderildi',
  activityReceive: 'Alındı',
  activitySelf: 'Kendinize gönderildi',
  activityTrade: 'Takas edildi',
  activityOnramp: 'Satın alındı',
  activityTo: 'Alıcı: {address}',
  activityFrom: 'Gönderen: {address}',
}

export default tr
