import type { PairingMessages } from './en.ts'

const tr: PairingMessages = {
  qrLabel: '{name} uygulamasını bağlamak için QR kodu',
  qrLabelAnyWallet: 'Cüzdan bağlamak için QR kodu',
  scanWith: '{name} uygulamasıyla tarayın veya bağlantıyı bu cihazda açın',
  scanWithAnyWallet: 'Telefonunuzdaki cüzdanla tarayın veya bağlantıyı bu cihazda açın',
  noApp: '{name} uygulaması sizde yok mu?',
  getIt: 'İndirin',
  approveInApp: 'Bağlantıyı {name} uygulamasında onaylayın, ardından buraya dönün',
  appDidNotOpen: 'Açılmadı mı? {name} uygulaması yüklü olmayabilir.',
  getOnAppStore: '{name} uygulamasını App Store’dan indirin',
  getOnGooglePlay: '{name} uygulamasını Google Play’den indirin',
}

export default tr
