/**
 * The framework-free core: create an instance, read its stores, call its actions.
 * @module
 */

export type {
  AccountAddress,
  Bip122Provider,
  SendTransferParams,
  SendTransferResult,
  SignPsbtParams,
  SignPsbtResult,
} from '../protocol/bip122.ts'
export type { CaipNetworkId, ChainNamespace } from '../protocol/caip.ts'
export type {
  Feature,
  ModalOptions,
  ModalOptionsInput,
  OptionIssue,
  SiwxMode,
  SiwxSession,
  SiwxVerifier,
} from '../protocol/config.ts'
export type { Network } from '../protocol/entities.ts'
export { formatBalance, shortAddress } from '../shared/format.ts'
export { close, shake } from './actions/close.ts'
export type { ConnectErrorType, ConnectParameters, ConnectReturnType } from './actions/connect.ts'
export { connect } from './actions/connect.ts'
export { connectThroughModal } from './actions/connectThroughModal.ts'
export type { DisconnectParameters } from './actions/disconnect.ts'
export { disconnect } from './actions/disconnect.ts'
export { editSend, resetSend } from './actions/editSend.ts'
export { editSwap, resetSwap } from './actions/editSwap.ts'
export { fetchBalance } from './actions/fetchBalance.ts'
export type {
  ActivityState,
  FetchTransactionsErrorType,
  FetchTransactionsParameters,
  FetchTransactionsReturnType,
} from './actions/fetchTransactions.ts'
export { activityState, fetchTransactions } from './actions/fetchTransactions.ts'
export type { SolanaProvider } from './actions/getProvider.ts'
export { getProvider } from './actions/getProvider.ts'
export { loadCatalogue } from './actions/loadCatalogue.ts'
export { loadNetworks } from './actions/loadNetworks.ts'
export { loadSwap } from './actions/loadSwap.ts'
export { loadWallets } from './actions/loadWallets.ts'
export { maxSendAmount } from './actions/maxSendAmount.ts'
export { navigate } from './actions/navigate.ts'
export type { OpenParameters } from './actions/open.ts'
export { open } from './actions/open.ts'
export type { OpenWalletAppReturnType } from './actions/openWalletApp.ts'
export { openWalletApp } from './actions/openWalletApp.ts'
export { makesPairingsAhead, preparePairing } from './actions/preparePairing.ts'
export type { QuoteSwapParameters } from './actions/quoteSwap.ts'
export { quoteSwap } from './actions/quoteSwap.ts'
export { reconnect } from './actions/reconnect.ts'
export { reportError } from './actions/reportError.ts'
export { installedConnector, selectWallet } from './actions/selectWallet.ts'
export type { SendTokenParameters } from './actions/sendToken.ts'
export { NATIVE_TOKEN, sendToken } from './actions/sendToken.ts'
export type { SignOutEverywhereErrorType } from './actions/signOutEverywhere.ts'
export { signOutEverywhere } from './actions/signOutEverywhere.ts'
export type { StartPairingParameters } from './actions/startPairing.ts'
export { startPairing } from './actions/startPairing.ts'
export type { SwapTokensReturnType } from './actions/swapTokens.ts'
export { swapTokens } from './actions/swapTokens.ts'
export { switchNetwork } from './actions/switchNetwork.ts'
export { watchAnalytics } from './analytics/watch.ts'
export { balanceKey } from './balanceKey.ts'
export type {
  AccountState,
  AppLaunch,
  BalanceState,
  CatalogueState,
  Config,
  ConnectingState,
  ConnectionRecord,
  CreateConfigParameters,
  ModalState,
  NetworkState,
  PairingState,
  PairingWallet,
  SendForm,
  SendState,
  SwapForm,
  SwapState,
  SwapToken,
  TokenHolding,
  WalletListState,
} from './config.ts'
export type { ConnectionEvent, ConnectionStatus } from './connection/machine.ts'
export { transition } from './connection/machine.ts'
export { createConfig } from './createConfig.ts'
export type { WalletEventMap, WalletEventName } from './events/types.ts'
export { blockTimeMs, freshBalances } from './freshBalances.ts'
export type { InAppBrowser, InAppBrowserId, InAppBrowserOs, OpenInBrowser } from './inAppBrowser.ts'
export { detectInAppBrowser, openInBrowser } from './inAppBrowser.ts'
export * from './modal/router.ts'
export type { MobileOs, WalletAppLinks } from './pairing/links.ts'
export { appLink, mobileOs, storeLink } from './pairing/links.ts'
export {
  APP_OPEN_CHECK_MS,
  canRetryPairing,
  isPairingExpired,
  keepsPairing,
  linkableUri,
  pairingRefreshAt,
  preparesPairing,
  walletConnectConfigured,
} from './pairing/rules.ts'
export type { Platform } from './platform.ts'
export { browserPlatform } from './platform.ts'
export { recentWallets } from './recentWallets.ts'
export { rpcUrlFor } from './rpcUrl.ts'
export { serviceClient } from './service.ts'
export type { SolanaSendConnection, SolanaSendOptions, SolanaTransactionLike } from './solana/transactions.ts'
export { tokenImageUrl } from './tokenImageUrl.ts'
export { usdValue } from './usd.ts'
export { DEFAULT_RELAY_URL, walletConnectConnector } from './walletConnect.ts'
export { walletImageUrl } from './walletImageUrl.ts'
