import type { PairingMessages } from './en.ts'

const ru: PairingMessages = {
  qrLabel: 'QR-код для подключения {name}',
  qrLabelAnyWallet: 'QR-код для подключения кошелька',
  scanWith: 'Отсканируйте код в {name} или откройте ссылку на этом устройстве',
  scanWithAnyWallet: 'Отсканируйте код кошельком на телефоне или откройте ссылку на этом устройстве',
  noApp: 'Нет {name}?',
  getIt: 'Установить',
  approveInApp: 'Подтвердите подключение в {name}, затем вернитесь сюда',
  appDidNotOpen: 'Не открылось? Возможно, приложение {name} не установлено.',
  getOnAppStore: 'Скачать {name} в App Store',
  getOnGooglePlay: 'Скачать {name} в Google Play',
}

export default ru
