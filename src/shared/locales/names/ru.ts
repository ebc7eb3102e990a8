// The name and on-ramp views' words in ru (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: 'Выберите имя, на которое можно отправлять вместо адреса.',
  nameField: 'Имя',
  checking: 'Проверка…',
  nameAvailable: '{name} свободно',
  nameTaken: '{name} занято. Похожие свободные имена:',
  register: 'Зарегистрировать {name}',
  changeNameHint: 'Ваше имя — {name}. Выберите другое или освободите его, чтобы его мог занять кто угодно.',
  releaseName: 'Освободить {name}',
  signInWallet: 'Подпишите сообщение в кошельке…',
  nameRegistered: '{name} теперь ваше',
  nameRegisteredHint: 'Теперь на {name} можно отправлять вместо вашего адреса.',
  buyToken: 'Токен',
  payWith: 'Способ оплаты',
  card: 'Карта',
  ach_bank_account: 'Банковский перевод (ACH)',
  amountIn: 'Сумма в {currency}',
  quoteLoading: 'Получение котировки…',
  youGet: 'Вы получите около {amount} {symbol} (комиссия {fee})',
  continueToPayment: 'Перейти к оплате',
  checkoutOpened: 'Страница оплаты открыта в новой вкладке. Токены придут сюда после оплаты.',
  checkoutBlocked:
    'Ваш браузер заблокировал страницу оплаты. Откройте её кнопкой ниже; токены придут сюда после оплаты.',
  openCheckout: 'Открыть страницу оплаты',
  purchaseArrived: '{amount} {symbol} поступили в ваш кошелёк',
  purchaseFailed: 'Платёж не прошёл.',
  nameRuleError: 'Имя кошелька: буквы, цифры и дефисы, не менее 4 символов',
  amountRangeError: 'Введите сумму от {min} до {max} {currency}',
  onrampUnavailable: 'Покупка криптовалюты здесь недоступна',
  failedWith: 'Не получилось: {message}',
  imageField: 'Ссылка на изображение профиля (https://)',
  setImage: 'Установить изображение',
  imageSet: 'Изображение профиля установлено',
  imageRuleError: 'Изображение профиля: адрес https:// не длиннее 512 символов',
  'error.registerNameFirst': 'Сначала зарегистрируйте имя',
}

export default names
