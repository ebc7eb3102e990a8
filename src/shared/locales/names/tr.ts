// The name and on-ramp views' words in tr (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: 'Adresin yerine sana gönderim yapılabilecek bir ad seç.',
  nameField: 'Ad',
  checking: 'Kontrol ediliyor…',
  nameAvailable: '{name} kullanılabilir',
  nameTaken: '{name} alınmış. Benzer boş adlar:',
  register: '{name} kaydet',
  changeNameHint: 'Adın {name}. Başka bir ad seç ya da herkesin alabilmesi için bırak.',
  releaseName: '{name} adını bırak',
  signInWallet: 'Cüzdanında mesajı imzala…',
  nameRegistered: '{name} artık senin',
  nameRegisteredHint: 'Artık adresin yerine {name} adına gönderim yapılabilir.',
  buyToken: 'Token',
  payWith: 'Ödeme yöntemi',
  card: 'Kart',
  ach_bank_account: 'Banka havalesi (ACH)',
  amountIn: '{currency} tutarı',
  quoteLoading: 'Teklif alınıyor…',
  youGet: 'Yaklaşık {amount} {symbol} alırsın (ücret {fee})',
  continueToPayment: 'Ödemeye devam et',
  checkoutOpened: 'Ödeme sayfası yeni sekmede açıldı. Ödeme yapınca tokenların buraya gelir.',
  checkoutBlocked:
    'Tarayıcın ödeme sayfasını engelledi. Aşağıdaki düğmeyle aç; ödeme yapınca tokenların buraya gelir.',
  openCheckout: 'Ödeme sayfasını aç',
  purchaseArrived: '{amount} {symbol} cüzdanına ulaştı',
  purchaseFailed: 'Ödeme tamamlanmadı.',
  nameRuleError: 'Cüzdan adı: harf, rakam ve kısa çizgi, en az 4 karakter',
  amountRangeError: '{min} ile {max} {currency} arasında bir tutar gir',
  onrampUnavailable: 'Burada kripto satın alınamıyor',
  failedWith: 'Olmadı: {message}',
  imageField: 'Profil resmi bağlantısı (https://)',
  setImage: 'Resmi ayarla',
  imageSet: 'Profil resminiz ayarlandı',
  imageRuleError: 'Profil resmi: en fazla 512 karakterlik bir https:// URL’si',
  'error.registerNameFirst': 'Önce bir ad kaydedin',
}

export default names
