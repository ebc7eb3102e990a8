import type { CaipNetworkId } from '../../protocol/caip.ts'
import { LOCAL_SOLANA_NETWORK_ID } from './networks.ts'

/** The SPL Token program (the classic one; Token-2022 is not covered yet). */
export const TOKEN_PROGRAM_ADDRESS = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'

/** The Associated Token Account program, which owns the derivation of each owner's token account. */
export const ASSOCIATED_TOKEN_PROGRAM_ADDRESS = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'

/** An SPL token the modal can name without asking the network. */
export interface KnownToken {
  /** The mint's address. */
  readonly mint: string
  readonly symbol: string
  readonly name: string
  readonly decimals: number
}

/**
 * Known SPL tokens per Solana network (CAIP-2 id). Data only; tokens not listed still show, as
 * unknown ones. The local entry is the test token `npm start` mints (server/dev/solana/genesis.ts).
 *
 * @example
 * solanaTokens['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']?.map((token) => token.symbol) // ['USDC', 'USDT']
 */
export const solanaTokens: Readonly<Partial<Record<CaipNetworkId, readonly KnownToken[]>>> = {
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': [
    { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', symbol: 'USDC', name: 'USD Coin', decimals: 6 },
    { mint: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', symbol: 'USDT', name: 'Tether USD', decimals: 6 },
  ],
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': [
    { mint: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU', symbol: 'USDC', name: 'USD Coin', decimals: 6 },
  ],
  [LOCAL_SOLANA_NETWORK_ID]: [
    { mint: '3NgR9cyptmChF72pCdDbrajWsehczWmp6iEbBnnFkHPU', symbol: 'TEST', name: 'Test Token', decimals: 6 },
  ],
}

/**
 * The known token with this mint on this network, if any.
 *
 * @example
 * knownToken('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')?.symbol // 'USDC'
 */
export function knownToken(caipNetworkId: CaipNetworkId, mint: string): KnownToken | undefined {
  return solanaTokens[caipNetworkId]?.find((token) => token.mint === mint)
}
