import { frameHandshake } from '../protocol/embedded/frame.ts'
import { isOriginAllowed } from '../protocol/origins.ts'

/** What the frame knows when a window message arrives. */
export interface HandshakeInput {
  /** The message as received (`event.data`). */
  data: unknown
  /** `event.origin`: set by the browser, so it cannot be forged. */
  origin: string
  /** `event.source`: the window that posted. */
  source: unknown
  /** `event.ports`. */
  ports: readonly MessagePort[]
  /** `window.parent` and `window` of the frame. */
  parent: unknown
  self: unknown
  /** The nonce this load was given in its URL fragment (undefined: none, never accept). */
  nonce: string | undefined
  /** The project's allow-list (and, in development, localhost), from the frame's server. */
  allowed: readonly string[]
  /**
   * `location.ancestorOrigins` where the browser has it (Chromium, Safari, Firefox from 139);
   * undefined elsewhere. An entry may be `"null"`: masked (the iframe carries
   * `referrerpolicy="no-referrer"`, and Firefox follows the HTML rule that hides the ancestors then)
   * or an opaque origin.
   */
  ancestorOrigins: readonly string[] | undefined
}

/** Why a window message was not taken as the handshake (for the frame's logger). */
export type HandshakeRefusal =
  | 'not-framed'
  | 'not-from-parent'
  | 'not-a-handshake'
  | 'wrong-nonce'
  | 'origin-not-allowed'
  | 'ancestor-not-allowed'
  | 'no-port'

/**
 * Decides whether a window message is this load's handshake: the frame is framed, the message comes
 * from `window.parent`, carries this load's nonce and exactly one port, and the parent's origin and
 * every ancestor's origin are on the allow-list. Answers the port to talk over, or why not.
 *
 * @example
 * const result = acceptHandshake({ data: event.data, origin: event.origin, source: event.source, ports: event.ports, parent: window.parent, self: window, nonce, allowed, ancestorOrigins })
 * if ('port' in result) listen(result.port)
 */
export function acceptHandshake(
  input: HandshakeInput,
): { port: MessagePort } | { refused: HandshakeRefusal } {
  if (input.parent === input.self || input.parent === null || input.parent === undefined)
    return { refused: 'not-framed' }
  if (input.source !== input.parent) return { refused: 'not-from-parent' }
  const parsed = frameHandshake.safeParse(input.data)
  if (!parsed.success) return { refused: 'not-a-handshake' }
  if (input.nonce === undefined || parsed.data.nonce !== input.nonce) return { refused: 'wrong-nonce' }
  if (!isOriginAllowed(input.allowed, input.origin)) return { refused: 'origin-not-allowed' }
  if (input.ancestorOrigins !== undefined && !ancestorsAllowed(input.ancestorOrigins, input)) {
    return { refused: 'ancestor-not-allowed' }
  }
  const [port] = input.ports
  if (input.ports.length !== 1 || !port) return { refused: 'no-port' }
  return { port }
}

/** How `location.ancestorOrigins` names an ancestor it will not (or cannot) tell. */
const MASKED = 'null'

/**
 * The ancestors the browser names must be allowed, the first (the parent) being the sender. A
 * `"null"` entry tells nothing (masked by the iframe's `referrerpolicy`, or an opaque origin): it is
 * neither trusted nor taken as foreign. What covers it is the page's CSP `frame-ancestors`, which the
 * browser checks against every real ancestor before the frame runs (an opaque ancestor matches no
 * source, so a sandboxed ancestor is refused there), and, for the parent, `event.origin` above.
 */
function ancestorsAllowed(
  ancestors: readonly string[],
  input: Pick<HandshakeInput, 'origin' | 'allowed'>,
): boolean {
  const [first] = ancestors
  if (first === undefined) return false
  if (first !== MASKED && first !== input.origin) return false
  return ancestors.every((ancestor) => ancestor === MASKED || isOriginAllowed(input.allowed, ancestor))
}
