import type { ActivityMessages } from './en.ts'

const de: ActivityMessages = {
  activity: 'Aktivität',
  activityLoading: 'Aktivität wird geladen…',
  activityEmpty: 'Noch keine Transaktionen',
  activityMore: 'Mehr anzeigen',
  activityLoadingMore: 'Weitere werden geladen…',
  activityRetry: 'Erneut versuchen',
  activitySend: 'Gesendet',
  activityReceive: 'Empfangen',
  activitySelf: 'An dich selbst gesendet',
  activityTrade: 'Getauscht',
  activityOnramp: 'Gekauft',
  activityTo: 'An {address}',
  activityFrom: 'Von {address}',
}

export default de
