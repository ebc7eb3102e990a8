import type { PairingMessages } from './en.ts'

const ar: PairingMessages = {
  qrLabel: 'رمز QR لربط {name}',
  qrLabelAnyWallet: 'رمز QR لربط محفظة',
  scanWith: 'امسح الرمز باستخدام {name} أو افتح الرابط على هذا الجهاز',
  scanWithAnyWallet: 'امسح الرمز بمحفظة هاتفك أو افتح الرابط على هذا الجهاز',
  noApp: 'ليس لديك {name}؟',
  getIt: 'احصل عليه',
  approveInApp: 'وافق على الاتصال في {name}، ثم عُد إلى هنا',
  appDidNotOpen: 'لم يُفتح التطبيق؟ ربما لم يتم تثبيت {name}.',
  getOnAppStore: 'احصل على {name} من App Store',
  getOnGooglePlay: 'احصل على {name} من Google Play',
}

export default ar
