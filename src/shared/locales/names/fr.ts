// The name and on-ramp views' words in fr (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: 'Choisissez un nom auquel on peut vous envoyer des fonds à la place de votre adresse.',
  nameField: 'Nom',
  checking: 'Vérification…',
  nameAvailable: '{name} est disponible',
  nameTaken: '{name} est pris. Noms libres similaires :',
  register: 'Enregistrer {name}',
  changeNameHint:
    'Votre nom est {name}. Choisissez-en un autre, ou libérez-le pour que quelqu’un d’autre puisse le prendre.',
  releaseName: 'Libérer {name}',
  signInWallet: 'Signez le message dans votre wallet…',
  nameRegistered: '{name} est à vous',
  nameRegisteredHint: 'On peut maintenant envoyer à {name} au lieu de votre adresse.',
  buyToken: 'Jeton',
  payWith: 'Payer par',
  card: 'Carte',
  ach_bank_account: 'Virement bancaire (ACH)',
  amountIn: 'Montant en {currency}',
  quoteLoading: 'Obtention d’un devis…',
  youGet: 'Vous recevez environ {amount} {symbol} (frais {fee})',
  continueToPayment: 'Continuer vers le paiement',
  checkoutOpened:
    'La page de paiement est ouverte dans un nouvel onglet. Vos jetons arrivent ici après le paiement.',
  checkoutBlocked:
    'Votre navigateur a bloqué la page de paiement. Ouvrez-la avec le bouton ci-dessous ; vos jetons arrivent ici après le paiement.',
  openCheckout: 'Ouvrir la page de paiement',
  purchaseArrived: '{amount} {symbol} sont arrivés dans votre wallet',
  purchaseFailed: 'Le paiement n’a pas abouti.',
  nameRuleError: 'Nom du wallet : lettres, chiffres et tirets, au moins 4 caractères',
  amountRangeError: 'Saisissez un montant de {min} à {max} {currency}',
  onrampUnavailable: 'L’achat de cryptos n’est pas disponible ici',
  failedWith: 'Cela n’a pas fonctionné : {message}',
  imageField: 'Lien de l’image de profil (https://)',
  setImage: 'Définir l’image',
  imageSet: 'Votre image de profil est définie',
  imageRuleError: 'Image de profil : une URL https:// de 512 caractères au plus',
  'error.registerNameFirst': 'Enregistrez d’abord un nom',
}

export default names
