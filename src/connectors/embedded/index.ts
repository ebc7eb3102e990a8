export { EmbeddedRequestTimeoutError, EmbeddedWalletLoadError } from '../../errors/embedded.ts'
export { createEmbeddedConnector, EMBEDDED_ID, type EmbeddedConnector } from './connector.ts'
export { createFrameClient, type FrameClient, type FrameStatus } from './frame.ts'
