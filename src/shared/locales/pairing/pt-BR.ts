import type { PairingMessages } from './en.ts'

const ptBR: PairingMessages = {
  qrLabel: 'Código QR para conectar {name}',
  qrLabelAnyWallet: 'Código QR para conectar uma carteira',
  scanWith: 'Escaneie com {name} ou abra o link neste dispositivo',
  scanWithAnyWallet: 'Escaneie com a carteira do seu celular ou abra o link neste dispositivo',
  noApp: 'Não tem {name}?',
  getIt: 'Baixar',
  approveInApp: 'Aprove a conexão no {name} e depois volte aqui',
  appDidNotOpen: 'Não abriu? O {name} pode não estar instalado.',
  getOnAppStore: 'Baixar {name} na App Store',
  getOnGooglePlay: 'Baixar {name} no Google Play',
}

export default ptBR
