// The name and on-ramp views' words in pt-BR (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: 'Escolha um nome para o qual possam enviar em vez do seu endereço.',
  nameField: 'Nome',
  checking: 'Verificando…',
  nameAvailable: '{name} está disponível',
  nameTaken: '{name} já está em uso. Nomes livres parecidos:',
  register: 'Registrar {name}',
  changeNameHint: 'Seu nome é {name}. Escolha outro ou libere-o para que qualquer pessoa possa usá-lo.',
  releaseName: 'Liberar {name}',
  signInWallet: 'Assine a mensagem na sua carteira…',
  nameRegistered: '{name} é seu',
  nameRegisteredHint: 'Agora podem enviar para {name} em vez do seu endereço.',
  buyToken: 'Token',
  payWith: 'Pagar com',
  card: 'Cartão',
  ach_bank_account: 'Transferência bancária (ACH)',
  amountIn: 'Valor em {currency}',
  quoteLoading: 'Obtendo uma cotação…',
  youGet: 'Você recebe cerca de {amount} {symbol} (taxa {fee})',
  continueToPayment: 'Continuar para o pagamento',
  checkoutOpened:
    'A página de pagamento está aberta em outra aba. Seus tokens chegam aqui depois do pagamento.',
  checkoutBlocked:
    'Seu navegador bloqueou a página de pagamento. Abra-a com o botão abaixo; seus tokens chegam aqui depois do pagamento.',
  openCheckout: 'Abrir a página de pagamento',
  purchaseArrived: '{amount} {symbol} chegaram à sua carteira',
  purchaseFailed: 'O pagamento não foi concluído.',
  nameRuleError: 'Nome da carteira: letras, dígitos e hifens, pelo menos 4 caracteres',
  amountRangeError: 'Informe um valor de {min} a {max} {currency}',
  onrampUnavailable: 'Comprar cripto não está disponível aqui',
  failedWith: 'Não funcionou: {message}',
  imageField: 'Link da imagem de perfil (https://)',
  setImage: 'Definir imagem',
  imageSet: 'Sua imagem de perfil foi definida',
  imageRuleError: 'Imagem de perfil: uma URL https:// de no máximo 512 caracteres',
  'error.registerNameFirst': 'Registre um nome primeiro',
}

export default names
