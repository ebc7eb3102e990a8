import { FrameError } from '../../errors/embedded.ts'
import type { BaseError } from '../../errors/index.ts'
import { StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../config.ts'
import { completeEmbeddedLogin, embeddedConnector } from '../embedded.ts'
import { embeddedState } from '../embeddedState.ts'

export type ConnectFarcasterErrorType = BaseError

/** A Farcaster sign-in channel: the link its QR code encodes, when it expires, and the domain it names. */
export interface FarcasterChannel {
  url: string
  expiresAt: string
  /** The wallet frame's host, which the sign-in message names: the Farcaster app shows it as the site. */
  domain: string
}

export interface ConnectFarcasterParameters {
  /** Told the channel once it is open (the view shows its QR code and link). */
  onChannel(channel: FarcasterChannel): void
  /** Stops waiting (the view went away or a fresh code was asked for). */
  signal?: AbortSignal
}

/** The frame's error in the page's language when it is one of Farcaster's outcomes. */
export function farcasterInWords(error: unknown): unknown {
  if (!(error instanceof FrameError)) return error
  const { reason } = error
  const message = error.shortMessage
  switch (reason) {
    case 'FARCASTER_EXPIRED':
      return new FrameError({ message, reason, messageId: 'farcasterExpired' })
    case 'FARCASTER_DECLINED':
      return new FrameError({ message, reason, messageId: 'farcasterDeclined' })
    case 'FARCASTER_WRONG_NONCE':
      return new FrameError({ message, reason, messageId: 'farcasterWrongNonce' })
    case 'FARCASTER_WRONG_DOMAIN':
      return new FrameError({ message, reason, messageId: 'farcasterWrongDomain' })
    case 'FARCASTER_WRONG_SIGNER':
      return new FrameError({ message, reason, messageId: 'farcasterWrongSigner' })
    case 'FARCASTER_FAILED':
      return new FrameError({ message, reason, messageId: 'farcasterFailed' })
    default:
      return error
  }
}

/**
 * Signs in to the embedded wallet with Farcaster (SPEC 1, 7): the frame opens a sign-in channel
 * (CONNECT_FARCASTER `start`), the page shows its QR code and link, and the frame waits for the
 * visitor's approval in their Farcaster app (`finish`, asked again while it is pending). Every
 * namespace of the site connects; the username (SPEC 3) and profile picture are kept. An expired
 * channel, a declined request and a refused approval reject with their own messages.
 *
 * @example
 * await connectFarcaster(config, { onChannel: ({ url }) => showQr(url), signal })
 */
export async function connectFarcaster(
  config: Config,
  parameters: ConnectFarcasterParameters,
): Promise<void> {
  const { signal } = parameters
  try {
    const connector = await embeddedConnector(config)
    const channel = await connector.frame.request('CONNECT_FARCASTER', { step: 'start' }, { signal })
    if (!('url' in channel) || typeof channel.url !== 'string')
      throw new FrameError({ reason: 'INVALID_RESPONSE' })
    parameters.onChannel({
      url: channel.url,
      expiresAt: channel.expiresAt as string,
      domain: channel.domain as string,
    })
    for (;;) {
      try {
        await connector.frame.request('CONNECT_FARCASTER', { step: 'finish' }, { signal })
        break
      } catch (error) {
        if (!(error instanceof FrameError && error.reason === 'FARCASTER_PENDING')) throw error
      }
    }
    await completeEmbeddedLogin(config, connector)
    const user = connector.user()
    if (user?.userName) config.storage.set(StorageKey.socialUsername, user.userName)
    const state = embeddedState(config)
    state.setKey('userName', user?.userName)
    state.setKey('userImage', user?.userImage)
  } catch (error) {
    throw farcasterInWords(error)
  }
}
