/**
 * Sign-in with the wallet (SIWX): building and reading the message text (EIP-4361 for `eip155`, CAIP-122
 * for `solana`), its CAIP-74 CACAO, and the address encodings both need. Shared by the modal and the
 * service.
 *
 * @example
 * import { createSiwxMessage, parseSiwxMessage } from './protocol/siwx/index.ts'
 */
export { decodeBase58, encodeBase58 } from './base58.ts'
export { type Cacao, type CacaoSignatureType, cacaoSignatureType, createCacao } from './cacao.ts'
export { isChecksumAddress, toChecksumAddress } from './checksum.ts'
export {
  createSiwxMessage,
  isSiwxDateTime,
  parseSiwxMessage,
  type SiwxMessage,
  type SiwxMessageFields,
  type SiwxNamespace,
  siwxChain,
  siwxChainNames,
} from './message.ts'
