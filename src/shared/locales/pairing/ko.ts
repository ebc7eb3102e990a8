import type { PairingMessages } from './en.ts'

const ko: PairingMessages = {
  qrLabel: '{name} 연결용 QR 코드',
  qrLabelAnyWallet: '지갑 연결용 QR 코드',
  scanWith: '{name}(으)로 스캔하거나 이 기기에서 링크를 여세요',
  scanWithAnyWallet: '휴대폰 지갑으로 스캔하거나 이 기기에서 링크를 여세요',
  noApp: '{name}이(가) 없으신가요?',
  getIt: '받기',
  approveInApp: '{name}에서 연결을 승인한 후 이곳으로 돌아오세요',
  appDidNotOpen: '열리지 않았나요? {name}이(가) 설치되어 있지 않을 수 있습니다.',
  getOnAppStore: 'App Store에서 {name} 받기',
  getOnGooglePlay: 'Google Play에서 {name} 받기',
}

export default ko
