import type { ActivityMessages } from './en.ts'

const it: ActivityMessages = {
  activity: 'Attività',
  activityLoading: 'Caricamento attività…',
  activityEmpty: 'Ancora nessuna transazione',
  activityMore: 'Mostra altro',
  activityLoadingMore: 'Caricamento…',
  activityRetry: 'Riprova',
  activitySend: 'Inviato',
  activityReceive: 'Ricevuto',
  activitySelf: 'Inviato a te stesso',
  activityTrade: 'Scambiato',
  activityOnramp: 'Acquistato',
  activityTo: 'A {address}',
  activityFrom: 'Da {address}',
}

export default it
