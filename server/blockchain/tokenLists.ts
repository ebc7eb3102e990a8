import { readFileSync } from 'node:fs'
import { getAddress, isAddress } from 'viem'
import { z } from 'zod'
import { isCaip2, resourceId } from '../../src/protocol/api/index.ts'

/** Multicall3's address, the same on most EVM networks. */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** keccak256 of Uniswap V2's pair creation code: what its router uses to find a pair. */
export const UNISWAP_V2_INIT_CODE_HASH = '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f'

const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'Expected 0x and 64 hex digits')

/** Any address of the network's kind (an EVM one is checked and written with its checksum). */
const address = z.string().regex(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/, 'Expected an address')
const evmAddress = z
  .string()
  .refine((value) => isAddress(value, { strict: false }), 'Expected an EVM address')
  .transform((value) => getAddress(value))

const listedToken = z.object({
  address,
  symbol: z.string().min(1).max(32),
  name: z.string().min(1).max(100),
  decimals: z.number().int().min(0).max(255),
  /** Id of the token's image for `/public/getTokenImage/{id}`; the symbol when absent. */
  imageId: z
    .string()
    .refine((value) => resourceId.safeParse(value).success, 'Expected an image id')
    .optional(),
})

const uniswapV2 = z.object({
  factory: evmAddress,
  router: evmAddress,
  /** Wrapped native currency, as the router knows it (WETH). */
  weth: evmAddress,
  initCodeHash: hex32.default(UNISWAP_V2_INIT_CODE_HASH),
})

const networkTokenList = z
  .object({
    tokens: z.array(listedToken).max(1000),
    /** The USD stablecoin pool prices are measured against (a token of the list; its price is 1). */
    stablecoin: evmAddress.optional(),
    /** A Uniswap V2 deployment: swaps, and prices from its pools against the stablecoin. */
    uniswapV2: uniswapV2.optional(),
    /** Multicall3 on this network (EVM); its usual address when absent. */
    multicall: evmAddress.optional(),
  })
  .superRefine((list, context) => {
    const listed = (value: string | undefined) =>
      value === undefined || list.tokens.some((token) => token.address.toLowerCase() === value.toLowerCase())
    if (!listed(list.stablecoin))
      context.addIssue({
        code: 'custom',
        path: ['stablecoin'],
        message: 'The stablecoin must be a listed token',
      })
    if (!listed(list.uniswapV2?.weth))
      context.addIssue({
        code: 'custom',
        path: ['uniswapV2', 'weth'],
        message: 'WETH must be a listed token',
      })
    if (list.uniswapV2 && !list.stablecoin)
      context.addIssue({
        code: 'custom',
        path: ['stablecoin'],
        message: 'A Uniswap V2 market needs a stablecoin',
      })
  })

/**
 * The token list file (`TOKEN_LIST_FILE`): per CAIP-2 network, its tokens and, optionally, a Uniswap V2
 * market (which turns on swaps and pool prices there) and the stablecoin prices are measured against.
 *
 * @example
 * tokenListFile.parse({ networks: { 'eip155:1': { tokens: [{ address: '0xA0b8…', symbol: 'USDC', name: 'USD Coin', decimals: 6 }] } } })
 */
export const tokenListFile = z.object({
  networks: z.record(z.string(), networkTokenList).superRefine((networks, context) => {
    for (const [chainId, list] of Object.entries(networks)) {
      if (!isCaip2(chainId))
        context.addIssue({
          code: 'custom',
          path: [chainId],
          message: 'Expected a CAIP-2 network id such as eip155:1',
        })
      else if (!chainId.startsWith('eip155:')) {
        // Markets, stablecoins and Multicall3 are EVM contracts: on another network they would be
        // called with EVM JSON-RPC that network does not speak.
        for (const field of ['uniswapV2', 'stablecoin', 'multicall'] as const) {
          if (list[field] !== undefined)
            context.addIssue({
              code: 'custom',
              path: [chainId, field],
              message: `Only EVM (eip155) networks can have ${field}`,
            })
        }
      }
    }
  }),
})

export type TokenListFile = z.input<typeof tokenListFile>
export type NetworkTokenList = z.output<typeof networkTokenList>
export type TokenLists = Record<string, NetworkTokenList>

/** One token of a network's list, as configured. */
export type ConfiguredToken = NetworkTokenList['tokens'][number]

/**
 * Checks token lists (the file's `networks`), writing EVM addresses with their checksum. Throws a list
 * of problems, each naming where it is.
 *
 * @example
 * const lists = parseTokenLists(JSON.parse(text))
 */
export function parseTokenLists(value: unknown): TokenLists {
  const parsed = tokenListFile.safeParse(value)
  if (!parsed.success) {
    throw new TokenListError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'the file'}: ${issue.message}`),
    )
  }
  const lists: TokenLists = {}
  for (const [chainId, list] of Object.entries(parsed.data.networks)) {
    lists[chainId] = {
      ...list,
      tokens: list.tokens.map((token) => ({
        ...token,
        address: chainId.startsWith('eip155:') ? checksummed(token.address) : token.address,
      })),
    }
  }
  return lists
}

/**
 * Reads and checks a token list file.
 *
 * @example
 * const lists = readTokenListFile('.data/local-market.json')
 */
export function readTokenListFile(path: string): TokenLists {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new TokenListError([`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`])
  }
  try {
    return parseTokenLists(JSON.parse(text))
  } catch (error) {
    if (error instanceof TokenListError) throw error
    throw new TokenListError([`${path} is not valid JSON`])
  }
}

function checksummed(value: string): string {
  if (!isAddress(value, { strict: false })) throw new TokenListError([`${value} is not an EVM address`])
  return getAddress(value)
}

/** Thrown by {@link parseTokenLists} with one line per problem. */
export class TokenListError extends Error {
  override name = 'TokenListError'
  readonly problems: readonly string[]
  constructor(problems: readonly string[]) {
    super(`Invalid token list: ${problems.join('; ')}`)
    this.problems = problems
  }
}
