/**
 * The embedded wallet's wire formats: the frame protocol (modal <-> frame), the frame's API on the
 * service (frame <-> service), the request classes of SPEC section 6 and the limits all sides share.
 *
 * @example
 * import { appEvent, classifyRequest, embeddedLimits } from './protocol/embedded/index.ts'
 */
export * from './api.ts'
export * from './export.ts'
export * from './frame.ts'
export * from './keys.ts'
export * from './limits.ts'
export * from './methods.ts'
export * from './passkey.ts'
export * from './preview.ts'
export * from './sessionProof.ts'
export * from './sessions.ts'
