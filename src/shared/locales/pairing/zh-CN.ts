import type { PairingMessages } from './en.ts'

const zhCN: PairingMessages = {
  qrLabel: '用于连接 {name} 的二维码',
  qrLabelAnyWallet: '用于连接钱包的二维码',
  scanWith: '请用 {name} 扫码，或在此设备上打开链接',
  scanWithAnyWallet: '请用手机钱包扫码，或在此设备上打开链接',
  noApp: '还没有 {name}？',
  getIt: '立即获取',
  approveInApp: '请在 {name} 中批准连接，然后返回此处',
  appDidNotOpen: '没有打开？可能尚未安装 {name}。',
  getOnAppStore: '从 App Store 获取 {name}',
  getOnGooglePlay: '从 Google Play 获取 {name}',
}

export default zhCN
