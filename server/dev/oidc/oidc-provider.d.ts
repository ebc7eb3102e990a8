// The part of `oidc-provider` (which ships no types) the local stand-in uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export type KoaContextWithOIDC = unknown
  export interface Interaction {
    uid: string
    params: Record<string, unknown>
  }
  export interface Grant {
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    save(): Promise<string>
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    proxy: boolean
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    Grant: new (properties: {
      accountId: string
      clientId: string
    }) => Grant
    AccessToken: {
      find(token: string): Promise<{ accountId: string; isExpired: boolean } | undefined>
    }
  }
}
