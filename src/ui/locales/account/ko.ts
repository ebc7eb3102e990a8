import type { AccountMessages } from './en.ts'

const ko: AccountMessages = {
  copyAddress: '주소 복사',
  addressCopied: '주소를 복사했습니다',
  tokens: '토큰',
  network: '네트워크',
  unknownNetwork: '네트워크 {id}',
  totalValue: '총 가치',
  namespaceNetworks:
    '{namespace, select, eip155 {EVM 네트워크} solana {Solana 네트워크} other {{namespace} 네트워크}}',
  currentNetwork: '현재 네트워크',
  switching: '지갑에서 네트워크 전환을 승인하세요',
  unsupportedHint:
    '지갑이 이 사이트에서 지원하지 않는 네트워크에 있습니다. 다음 네트워크 중 하나로 전환하세요.',
  token: '토큰',
  receiver: '받는 주소',
  receiverPlaceholder: '{namespace, select, solana {Solana 주소} other {0x…}}',
  max: '최대',
  available: '사용 가능: {amount}',
  sendWaiting: '지갑에서 거래를 승인하세요',
  sent: '{receiver}(으)로 {amount}을(를) 보냈습니다',
  viewTransaction: '탐색기에서 보기',
  done: '완료',
  availableWithValue: '사용 가능: {amount} (≈ {value})',
  amountValue: '≈ {value}',
  swapFrom: '지불',
  swapTo: '수령',
  switchTokens: '토큰 위치 바꾸기',
  quoting: '견적을 가져오는 중…',
  expectedOutput: '예상 수령액',
  priceImpact: '가격 영향',
  minimumReceived: '최소 수령액 (슬리피지 {percent})',
  networkFee: '네트워크 수수료',
  approveAndSwap: '{symbol} 승인 후 스왑',
  approveWaiting: '지갑에서 {symbol}을(를) 승인하세요',
  swapWaiting: '지갑에서 스왑을 확인하세요',
  swapped: '{paid}을(를) {received}(으)로 스왑했습니다',
}

export default ko
