/**
 * The Bitcoin networks' one table: CAIP-2 id, address prefixes (bech32 and base58 version bytes) and
 * BIP-84 coin type of mainnet, testnet, signet and Bitcoin Core's regtest. The modal's network entries
 * (src/chains/bip122/networks.ts), the embedded wallet's accounts (./embedded/bitcoin.ts), the service
 * and the demo wallets all read it. Data only, no import: it may sit in any bundle.
 */

/** One Bitcoin network's parameters. */
export interface BitcoinNetworkParameters {
  /** `bip122:` and the first 32 hex characters of the genesis block hash. */
  readonly caipNetworkId: `bip122:${string}`
  /** The bech32 prefix of its segwit addresses. */
  readonly hrp: 'bc' | 'tb' | 'bcrt'
  /** The base58 version byte of its P2PKH addresses. */
  readonly pubKeyHash: number
  /** The base58 version byte of its P2SH addresses. */
  readonly scriptHash: number
  /** The version byte of its WIF private keys. */
  readonly wif: number
  /** BIP-44's coin type in its BIP-84 paths: 0 on mainnet, 1 on every test network. */
  readonly coinType: 0 | 1
}

const TEST_VERSIONS = { pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef, coinType: 1 } as const

/**
 * The Bitcoin networks by kind. Testnet (3), signet and regtest share the base58 versions and the coin
 * type; regtest has its own bech32 prefix (`bcrt`).
 *
 * @example
 * BITCOIN_NETWORKS.regtest.hrp // 'bcrt'
 * BITCOIN_NETWORKS.mainnet.caipNetworkId // 'bip122:000000000019d6689c085ae165831e93'
 */
export const BITCOIN_NETWORKS = {
  mainnet: {
    caipNetworkId: 'bip122:000000000019d6689c085ae165831e93',
    hrp: 'bc',
    pubKeyHash: 0x00,
    scriptHash: 0x05,
    wif: 0x80,
    coinType: 0,
  },
  testnet: { caipNetworkId: 'bip122:000000000933ea01ad0ee984209779ba', hrp: 'tb', ...TEST_VERSIONS },
  signet: { caipNetworkId: 'bip122:00000008819873e925422c1ff0f99f7c', hrp: 'tb', ...TEST_VERSIONS },
  regtest: { caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', hrp: 'bcrt', ...TEST_VERSIONS },
} as const satisfies Record<string, BitcoinNetworkParameters>

/** Which Bitcoin network a CAIP-2 id names. */
export type BitcoinNetworkKind = keyof typeof BITCOIN_NETWORKS

/** The kinds, in the table's order. */
export const BITCOIN_NETWORK_KINDS = Object.keys(BITCOIN_NETWORKS) as BitcoinNetworkKind[]

/**
 * Which Bitcoin network a CAIP-2 id names (mainnet, testnet, signet, regtest), or undefined.
 *
 * @example
 * bitcoinNetworkKind('bip122:0f9188f13cb7b2c71f2a335e3a4fc328') // 'regtest'
 * bitcoinNetworkKind('eip155:1') // undefined
 */
export function bitcoinNetworkKind(caipNetworkId: string): BitcoinNetworkKind | undefined {
  return BITCOIN_NETWORK_KINDS.find((kind) => BITCOIN_NETWORKS[kind].caipNetworkId === caipNetworkId)
}

/**
 * A network's parameters in `@scure/btc-signer`'s shape (`{ bech32, pubKeyHash, scriptHash, wif }`),
 * without importing that library.
 *
 * @example
 * btcSignerNetwork('regtest') // { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }
 */
export function btcSignerNetwork(kind: BitcoinNetworkKind): {
  bech32: string
  pubKeyHash: number
  scriptHash: number
  wif: number
} {
  const { hrp, pubKeyHash, scriptHash, wif } = BITCOIN_NETWORKS[kind]
  return { bech32: hrp, pubKeyHash, scriptHash, wif }
}

/**
 * The `@scure/btc-signer` parameters of the network whose segwit addresses start with `hrp`: its base58
 * versions too, so a test network's `m…`, `n…` and `2…` addresses read as its own and mainnet's `1…`
 * and `3…` do not (testnet and signet share both).
 *
 * @example
 * btcSignerNetworkOfHrp('tb') // { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }
 */
export function btcSignerNetworkOfHrp(
  hrp: BitcoinNetworkParameters['hrp'],
): ReturnType<typeof btcSignerNetwork> {
  return btcSignerNetwork(
    BITCOIN_NETWORK_KINDS.find((kind) => BITCOIN_NETWORKS[kind].hrp === hrp) ?? 'mainnet',
  )
}
