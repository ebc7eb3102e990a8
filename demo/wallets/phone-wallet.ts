/**
 * The Demo Phone Wallet: a page that plays a phone wallet over WalletConnect, the wallet side of
 * `@walletconnect/sign-client`. Open `/wallets/phone.html`, paste a `wc:` URI (or open
 * `/wallets/phone.html?uri=wc:…`), approve or reject the dapp's proposal, then each of its requests.
 * It signs with a dev account of the test mnemonic and sends transactions to the local chains.
 *
 * Page URL parameters (read once at load):
 * - `uri=wc:…`: pair at load (removed from the address bar afterwards, so a reload does not pair again)
 * - `account=N`: index of the dev account (default 0)
 *
 * Build-time settings (`import.meta.env`, set by `npm start` and the test stack): `VITE_PROJECT_ID`,
 * `VITE_RELAY_URL`, `VITE_LOCAL_RPC_URL` (chain 31337), `VITE_LOCAL2_RPC_URL` (chain 31338),
 * `VITE_LOCAL_BITCOIN_URL` (the regtest node).
 *
 * The client keeps pairings, proposals, sessions and unanswered requests in the browser's storage
 * (prefix `demo-phone-wallet`), so they survive a reload.
 * Test controls are on `window.phoneWallet` ({@link PhoneWalletControls}).
 *
 * Answers:
 * - `personal_sign`, `eth_signTypedData_v4`: the signature
 * - `eth_sendTransaction`: the hash (nonce, gas and fees filled from the chain, signed here, sent raw)
 * - `wallet_switchEthereumChain`: `null`, after the `chainChanged` session event (data: the chain id as
 *   a number, event chainId: `eip155:<id>`); a chain outside the session is added to it first
 * - `wallet_addEthereumChain`: `null` (its first http(s) RPC URL is remembered for transactions)
 * - Reject: `getSdkError('USER_REJECTED')` (code 5000); other methods: `getSdkError('UNSUPPORTED_METHODS')`
 *
 * Other namespaces, approved when a dapp asks for them (optional namespaces), from the same mnemonic:
 * - `bip122` on the local regtest network (`phone/bip122.ts`: BIP-84 P2WPKH, the node's funded dev
 *   address 0): getAccountAddresses, signMessage (BIP-137 ECDSA), signPsbt (`broadcast: true` finalizes
 *   and sends it to the node, answering `{ psbt, txid }`), sendTransfer (`phone/bip122-transfer.ts`: the
 *   payment built from the node's coins, signed and broadcast, answering `{ txid }`)
 * - `polkadot` (`phone/polkadot.ts`): an ed25519 key, not sr25519 (a stand-in: Polkadot accepts ed25519
 *   signatures); polkadot_signMessage signs `<Bytes>…</Bytes>`, polkadot_signTransaction the SCALE payload
 * - `cosmos` (`phone/cosmos.ts`: secp256k1, m/44'/118'/0'/0/0): cosmos_getAccounts, cosmos_signDirect
 *   (SHA-256 of the SignDoc bytes), cosmos_signAmino (SHA-256 of the canonical JSON)
 */
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { SignClient } from '@walletconnect/sign-client'
import { DEV_MNEMONIC, devAccount } from './dev-account.ts'
import { bip122Signer } from './phone/bip122.ts'
import { cosmosSigner } from './phone/cosmos.ts'
import { errorMessage } from './phone/errors.ts'
import { polkadotSigner } from './phone/polkadot.ts'
import type { Client, PhoneWalletControls } from './phone/types.ts'
import { createPhoneWallet } from './phone/wallet.ts'
import { mountPhoneUi } from './phone-ui.ts'

export { WalletRpcError } from './phone/errors.ts'
export { buildNamespaces } from './phone/namespaces.ts'
export { decodeMessage } from './phone/readable.ts'
export type * from './phone/types.ts'
export { createPhoneWallet, type PhoneWalletOptions } from './phone/wallet.ts'

declare global {
  interface Window {
    /** The Demo Phone Wallet's test controls (its page only). */
    phoneWallet?: PhoneWalletControls
  }
}

// ---------------------------------------------------------------------------------------------------
// The page

/** Connects the client, shows the UI, installs `window.phoneWallet` and pairs `?uri=` if given. */
async function start(): Promise<void> {
  const params = new URLSearchParams(location.search)
  const index = Number(params.get('account') ?? 0)
  const account = devAccount(Number.isSafeInteger(index) && index >= 0 ? index : 0)
  const ui = mountPhoneUi(document, account.address)
  ui.status('Connecting to the relay…')

  let client: Client
  try {
    client = await SignClient.init({
      projectId: import.meta.env.VITE_PROJECT_ID ?? 'dev-project',
      relayUrl: import.meta.env.VITE_RELAY_URL ?? 'ws://127.0.0.1:8789',
      metadata: {
        name: 'Demo Phone Wallet',
        description: 'A phone wallet stand-in for the wallet-elements demo, over WalletConnect',
        url: location.origin,
        icons: [],
      },
      telemetryEnabled: false,
      // Its own keys in the origin's storage, apart from any other client on the demo's origin.
      customStoragePrefix: 'demo-phone-wallet',
    })
  } catch (error) {
    ui.status(`Could not start the WalletConnect client: ${errorMessage(error)}`, 'error')
    throw error
  }

  // Beyond EVM, the same mnemonic's accounts on the local Bitcoin regtest network, Polkadot and Cosmos.
  const seed = mnemonicToSeedSync(DEV_MNEMONIC)
  const root = HDKey.fromMasterSeed(seed)
  const wallet = createPhoneWallet({
    client,
    account,
    signers: [
      bip122Signer(root, { nodeUrl: import.meta.env.VITE_LOCAL_BITCOIN_URL ?? 'http://127.0.0.1:8794' }),
      polkadotSigner(seed),
      cosmosSigner(root),
    ],
    rpcUrls: {
      31337: import.meta.env.VITE_LOCAL_RPC_URL ?? 'http://127.0.0.1:8545',
      31338: import.meta.env.VITE_LOCAL2_RPC_URL ?? 'http://127.0.0.1:8546',
    },
  })
  ui.attach(wallet)

  window.phoneWallet = {
    address: wallet.address,
    pair: (uri) => wallet.pair(uri),
    approveProposal: () => wallet.approveProposal(),
    rejectProposal: () => wallet.rejectProposal(),
    approveRequest: () => wallet.approveRequest(),
    rejectRequest: () => wallet.rejectRequest(),
    disconnectAll: () => wallet.disconnectAll(),
    sessions: () =>
      wallet
        .state()
        .sessions.map(({ topic, accounts, dappName, chainId }) => ({ topic, accounts, dappName, chainId })),
    pendingRequests: () => wallet.state().requests,
    pendingProposals: () => wallet.state().proposals,
    autoApprove: (on) => wallet.setAutoApprove(on),
  }

  const uri = params.get('uri')
  if (uri) {
    // Pair once: a reload of this address must not try the same pairing again.
    params.delete('uri')
    const query = params.toString()
    history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`)
    await wallet.pair(uri).catch(() => {})
  }
}

if (typeof document !== 'undefined' && document.querySelector('[data-phone-wallet]')) {
  void start()
}
