import type { ActivityMessages } from './en.ts'

const ar: ActivityMessages = {
  activity: 'النشاط',
  activityLoading: 'جارٍ تحميل النشاط…',
  activityEmpty: 'لا توجد معاملات بعد',
  activityMore: 'عرض المزيد',
  activityLoadingMore: 'جارٍ تحميل المزيد…',
  activityRetry: 'أعد المحاولة',
  activitySend: 'تم الإرسال',
  activityReceive: 'تم الاستلام',
  activitySelf: 'تم الإرسال إلى نفسك',
  activityTrade: 'تمت المبادلة',
  activityOnramp: 'تم الشراء',
  activityTo: 'إلى {address}',
  activityFrom: 'من {address}',
}

export default ar
