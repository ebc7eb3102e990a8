import type { ActivityMessages } from './en.ts'

const fr: ActivityMessages = {
  activity: 'Activité',
  activityLoading: 'Chargement de l’activité…',
  activityEmpty: 'Aucune transaction pour l’instant',
  activityMore: 'Afficher plus',
  activityLoadingMore: 'Chargement…',
  activityRetry: 'Réessayer',
  activitySend: 'Envoyé',
  activityReceive: 'Reçu',
  activitySelf: 'Envoyé à vous-même',
  activityTrade: 'Échangé',
  activityOnramp: 'Acheté',
  activityTo: 'À {address}',
  activityFrom: 'De {address}',
}

export default fr
