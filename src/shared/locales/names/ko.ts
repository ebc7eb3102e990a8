// The name and on-ramp views' words in ko (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: '주소 대신 송금받을 이름을 선택하세요.',
  nameField: '이름',
  checking: '확인 중…',
  nameAvailable: '{name}은(는) 사용할 수 있습니다',
  nameTaken: '{name}은(는) 이미 사용 중입니다. 비슷한 빈 이름:',
  register: '{name} 등록',
  changeNameHint: '이름은 {name}입니다. 다른 이름을 선택하거나, 누구나 쓸 수 있도록 해제하세요.',
  releaseName: '{name} 해제',
  signInWallet: '지갑에서 메시지에 서명하세요…',
  nameRegistered: '{name}이(가) 등록되었습니다',
  nameRegisteredHint: '이제 주소 대신 {name}(으)로 보낼 수 있습니다.',
  buyToken: '토큰',
  payWith: '결제 수단',
  card: '카드',
  ach_bank_account: '은행 이체 (ACH)',
  amountIn: '{currency} 금액',
  quoteLoading: '견적을 가져오는 중…',
  youGet: '약 {amount} {symbol}을(를) 받습니다 (수수료 {fee})',
  continueToPayment: '결제 계속',
  checkoutOpened: '결제 페이지가 새 탭에서 열렸습니다. 결제 후 토큰이 여기에 도착합니다.',
  checkoutBlocked:
    '브라우저가 결제 페이지를 차단했습니다. 아래 버튼으로 여세요. 결제 후 토큰이 여기에 도착합니다.',
  openCheckout: '결제 페이지 열기',
  purchaseArrived: '{amount} {symbol}이(가) 지갑에 도착했습니다',
  purchaseFailed: '결제가 완료되지 않았습니다.',
  nameRuleError: '지갑 이름: 문자, 숫자, 하이픈, 4자 이상',
  amountRangeError: '{min}에서 {max} {currency} 사이의 금액을 입력하세요',
  onrampUnavailable: '여기서는 암호화폐를 구매할 수 없습니다',
  failedWith: '실패했습니다: {message}',
  imageField: '프로필 이미지 링크 (https://)',
  setImage: '이미지 설정',
  imageSet: '프로필 이미지가 설정되었습니다',
  imageRuleError: '프로필 이미지: 512자 이하의 https:// URL',
  'error.registerNameFirst': '먼저 이름을 등록하세요',
}

export default names
