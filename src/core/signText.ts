import { getProvider } from './actions/getProvider.ts'
import type { AccountState, Config } from './config.ts'

const toHex = (text: string) =>
  `0x${[...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`

/**
 * The wallet's signature of the message text: EIP-191 `personal_sign` on EVM, ed25519 (base58) on
 * Solana, `signMessage` on Bitcoin (BIP-322 asked for; a wallet may answer the legacy form, base64 either
 * way, and the service reads both). Used by sign-in and by the name registry's signed requests.
 *
 * @example
 * const signature = await signText(config, account, 'Sign in to example.com')
 */
export async function signText(config: Config, account: AccountState, message: string): Promise<string> {
  if (account.namespace === 'solana') {
    const { encodeBase58 } = await import('../protocol/siwx/base58.ts')
    const signature = await getProvider(config, 'solana').signMessage(new TextEncoder().encode(message))
    return encodeBase58(signature)
  }
  if (account.namespace === 'bip122') {
    const answer = await getProvider(config, 'bip122').request({
      method: 'signMessage',
      params: { account: account.address, address: account.address, message, protocol: 'bip322' },
    })
    return answer.signature
  }
  return String(
    await getProvider(config, account.namespace).request({
      method: 'personal_sign',
      params: [toHex(message), account.address],
    }),
  )
}
