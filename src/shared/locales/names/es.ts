// The name and on-ramp views' words in es (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: 'Elige un nombre al que puedan enviarte en lugar de tu dirección.',
  nameField: 'Nombre',
  checking: 'Comprobando…',
  nameAvailable: '{name} está disponible',
  nameTaken: '{name} está ocupado. Nombres libres parecidos:',
  register: 'Registrar {name}',
  changeNameHint: 'Tu nombre es {name}. Elige otro o libéralo para que cualquiera pueda usarlo.',
  releaseName: 'Liberar {name}',
  signInWallet: 'Firma el mensaje en tu wallet…',
  nameRegistered: '{name} es tuyo',
  nameRegisteredHint: 'Ahora pueden enviar a {name} en lugar de a tu dirección.',
  buyToken: 'Token',
  payWith: 'Pagar con',
  card: 'Tarjeta',
  ach_bank_account: 'Transferencia bancaria (ACH)',
  amountIn: 'Importe en {currency}',
  quoteLoading: 'Obteniendo una cotización…',
  youGet: 'Recibes unos {amount} {symbol} (comisión {fee})',
  continueToPayment: 'Continuar al pago',
  checkoutOpened: 'La página de pago está abierta en otra pestaña. Tus tokens llegan aquí cuando pagues.',
  checkoutBlocked:
    'Tu navegador bloqueó la página de pago. Ábrela con el botón de abajo; tus tokens llegan aquí cuando pagues.',
  openCheckout: 'Abrir la página de pago',
  purchaseArrived: '{amount} {symbol} llegaron a tu wallet',
  purchaseFailed: 'El pago no se completó.',
  nameRuleError: 'Nombre del wallet: letras, dígitos y guiones, al menos 4 caracteres',
  amountRangeError: 'Introduce un importe de {min} a {max} {currency}',
  onrampUnavailable: 'Comprar cripto no está disponible aquí',
  failedWith: 'No funcionó: {message}',
  imageField: 'Enlace de la imagen de perfil (https://)',
  setImage: 'Usar imagen',
  imageSet: 'Tu imagen de perfil está lista',
  imageRuleError: 'Imagen de perfil: una URL https:// de 512 caracteres como máximo',
  'error.registerNameFirst': 'Primero registra un nombre',
}

export default names
