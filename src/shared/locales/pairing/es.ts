import type { PairingMessages } from './en.ts'

const es: PairingMessages = {
  qrLabel: 'Código QR para conectar {name}',
  qrLabelAnyWallet: 'Código QR para conectar una billetera',
  scanWith: 'Escanéalo con {name} o abre el enlace en este dispositivo',
  scanWithAnyWallet: 'Escanéalo con la billetera de tu teléfono o abre el enlace en este dispositivo',
  noApp: '¿No tienes {name}?',
  getIt: 'Descárgala',
  approveInApp: 'Aprueba la conexión en {name} y vuelve aquí',
  appDidNotOpen: '¿No se abrió? Puede que {name} no esté instalada.',
  getOnAppStore: 'Descarga {name} en el App Store',
  getOnGooglePlay: 'Descarga {name} en Google Play',
}

export default es
