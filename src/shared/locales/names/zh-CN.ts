// The name and on-ramp views' words in zh-CN (keys of ./en.ts).
import type { NamesMessages } from './en.ts'

const names: NamesMessages = {
  registerNameHint: '选择一个名称，别人可以用它代替你的地址向你转账。',
  nameField: '名称',
  checking: '正在检查…',
  nameAvailable: '{name} 可用',
  nameTaken: '{name} 已被占用。类似的可用名称：',
  register: '注册 {name}',
  changeNameHint: '你的名称是 {name}。可以换一个，或释放它让任何人都能使用。',
  releaseName: '释放 {name}',
  signInWallet: '请在钱包中签署消息…',
  nameRegistered: '{name} 归你了',
  nameRegisteredHint: '现在别人可以向 {name} 转账，而不必使用你的地址。',
  buyToken: '代币',
  payWith: '支付方式',
  card: '银行卡',
  ach_bank_account: '银行转账 (ACH)',
  amountIn: '金额（{currency}）',
  quoteLoading: '正在获取报价…',
  youGet: '你将收到约 {amount} {symbol}（手续费 {fee}）',
  continueToPayment: '继续付款',
  checkoutOpened: '付款页面已在新标签页中打开。付款后代币会到账。',
  purchaseArrived: '{amount} {symbol} 已到账',
  purchaseFailed: '付款未完成。',
  nameRuleError: '钱包名称：字母、数字和连字符，至少 4 个字符',
  amountRangeError: '请输入 {min} 到 {max} {currency} 之间的金额',
  onrampUnavailable: '此处无法购买加密货币',
  failedWith: '操作失败：{message}',
  imageField: '头像图片链接 (https://)',
  setImage: '设置图片',
  imageSet: '头像已设置',
  imageRuleError: '头像：不超过 512 个字符的 https:// 网址',
  'error.registerNameFirst': '请先注册名称',
}

export default names
