// The name and on-ramp views' words in ar (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: 'اختر اسمًا يمكن الإرسال إليه بدلًا من عنوانك.',
  nameField: 'الاسم',
  checking: 'جارٍ التحقق…',
  nameAvailable: '{name} متاح',
  nameTaken: '{name} محجوز. أسماء متاحة مشابهة:',
  register: 'تسجيل {name}',
  changeNameHint: 'اسمك {name}. اختر اسمًا آخر، أو حرّره ليتمكن أي شخص من أخذه.',
  releaseName: 'تحرير {name}',
  signInWallet: 'وقّع الرسالة في محفظتك…',
  nameRegistered: '{name} أصبح لك',
  nameRegisteredHint: 'يمكن الآن الإرسال إلى {name} بدلًا من عنوانك.',
  buyToken: 'الرمز',
  payWith: 'الدفع عبر',
  card: 'بطاقة',
  ach_bank_account: 'تحويل بنكي (ACH)',
  amountIn: 'المبلغ بعملة {currency}',
  quoteLoading: 'جارٍ الحصول على عرض سعر…',
  youGet: 'ستحصل على نحو {amount} {symbol} (الرسوم {fee})',
  continueToPayment: 'متابعة إلى الدفع',
  checkoutOpened: 'فُتحت صفحة الدفع في علامة تبويب جديدة. تصل رموزك إلى هنا بعد الدفع.',
  purchaseArrived: 'وصل {amount} {symbol} إلى محفظتك',
  purchaseFailed: 'لم تكتمل عملية الدفع.',
  nameRuleError: 'اسم المحفظة: حروف وأرقام وشرطات، 4 أحرف على الأقل',
  amountRangeError: 'أدخل مبلغًا من {min} إلى {max} {currency}',
  onrampUnavailable: 'شراء العملات المشفرة غير متاح هنا',
  failedWith: 'لم ينجح ذلك: {message}',
  imageField: 'رابط صورة الملف الشخصي (https://)',
  setImage: 'تعيين الصورة',
  imageSet: 'تم تعيين صورة ملفك الشخصي',
  imageRuleError: 'صورة الملف الشخصي: عنوان https:// لا يتجاوز 512 حرفًا',
  'error.registerNameFirst': 'سجّل اسمًا أولًا',
}

export default names
