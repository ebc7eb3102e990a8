import type { ActivityMessages } from './en.ts'

const es: ActivityMessages = {
  activity: 'Actividad',
  activityLoading: 'Cargando actividad…',
  activityEmpty: 'Aún no hay transacciones',
  activityMore: 'Ver más',
  activityLoadingMore: 'Cargando más…',
  activityRetry: 'Reintentar',
  activitySend: 'Enviado',
  activityReceive: 'Recibido',
  activitySelf: 'Enviado a ti mismo',
  activityTrade: 'Intercambiado',
  activityOnramp: 'Comprado',
  activityTo: 'A {address}',
  activityFrom: 'De {address}',
}

export default es
