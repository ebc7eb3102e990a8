import { z } from 'zod'
import { blankToUndefined, ConfigError, isHttpUrl } from '../config/env.ts'
import { readTokenListFile, TokenListError, type TokenLists } from './tokenLists.ts'

/** The blockchain data API's slice of the service configuration. */
export interface BlockchainConfig {
  /** Token lists and markets per CAIP-2 network, from `TOKEN_LIST_FILE` (none by default). */
  tokenLists: TokenLists
  /**
   * The operator's price source (`PRICE_SOURCE_URL`) for networks without a market; null: none, and
   * prices there are absent.
   */
  priceSourceUrl: string | null
}

/** The blockchain data API's variables: `TOKEN_LIST_FILE`, `PRICE_SOURCE_URL`. */
export const blockchainEnv = z.object({
  TOKEN_LIST_FILE: z.preprocess(blankToUndefined, z.string().optional()),
  // Problems name the variable, never the URL (which may hold an API key).
  PRICE_SOURCE_URL: z.preprocess(
    blankToUndefined,
    z.string().refine(isHttpUrl, 'PRICE_SOURCE_URL must be an http:// or https:// URL').optional(),
  ),
})

/**
 * The blockchain slice; reads the token list file, throwing a {@link ConfigError} with its problems.
 *
 * @example
 * const blockchain = blockchainConfig(blockchainEnv.parse({ TOKEN_LIST_FILE: 'tokens.json' }))
 */
export function blockchainConfig(values: z.output<typeof blockchainEnv>): BlockchainConfig {
  let tokenLists: TokenLists = {}
  if (values.TOKEN_LIST_FILE !== undefined) {
    try {
      tokenLists = readTokenListFile(values.TOKEN_LIST_FILE)
    } catch (error) {
      if (!(error instanceof TokenListError)) throw error
      throw new ConfigError(error.problems.map((problem) => `TOKEN_LIST_FILE: ${problem}`))
    }
  }
  return { tokenLists, priceSourceUrl: values.PRICE_SOURCE_URL ?? null }
}
