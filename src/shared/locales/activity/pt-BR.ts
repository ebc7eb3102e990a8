import type { ActivityMessages } from './en.ts'

const ptBR: ActivityMessages = {
  activity: 'Atividade',
  activityLoading: 'Carregando atividade…',
  activityEmpty: 'Nenhuma transação ainda',
  activityMore: 'Mostrar mais',
  activityLoadingMore: 'Carregando mais…',
  activityRetry: 'Tentar novamente',
  activitySend: 'Enviado',
  activityReceive: 'Recebido',
  activitySelf: 'Enviado para você mesmo',
  activityTrade: 'Trocado',
  activityOnramp: 'Comprado',
  activityTo: 'Para {address}',
  activityFrom: 'De {address}',
}

export default ptBR
