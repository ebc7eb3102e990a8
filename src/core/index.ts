/**
 * The framework-free core: create an instance, read its stores, call its actions.
 * @module
 */

export { close, shake } from './actions/close.ts'
export type { ConnectErrorType, ConnectParameters, ConnectReturnType } from './actions/connect.ts'
export { connect } from './actions/connect.ts'
export type { DisconnectParameters } from './actions/disconnect.ts'
export { disconnect } from './actions/disconnect.ts'
export { fetchBalance } from './actions/fetchBalance.ts'
export { getProvider } from './actions/getProvider.ts'
export { loadNetworks } from './actions/loadNetworks.ts'
export { navigate } from './actions/navigate.ts'
export type { OpenParameters } from './actions/open.ts'
export { open } from './actions/open.ts'
export { reconnect } from './actions/reconnect.ts'
export { reportError } from './actions/reportError.ts'
export { switchNetwork } from './actions/switchNetwork.ts'
export { balanceKey } from './balanceKey.ts'
export type { ConnectionEvent, ConnectionStatus } from './connection/machine.ts'
export { transition } from './connection/machine.ts'
export type {
  AccountState,
  BalanceState,
  Config,
  ConnectingState,
  ConnectionRecord,
  CreateConfigParameters,
  ModalState,
  NetworkState,
} from './createConfig.ts'
export { createConfig } from './createConfig.ts'
export type { WalletEventMap, WalletEventName } from './events/types.ts'
export { formatBalance, shortAddress } from './format.ts'
export * from './modal/router.ts'
export type { Platform } from './platform.ts'
export { browserPlatform } from './platform.ts'
