/**
 * The local Bitcoin regtest network: `bcoin` 1.0.2, a full node in JavaScript (consensus rules, script and
 * signature checks, a mempool with Bitcoin Core's standardness policy, a miner), in memory on loopback.
 *
 * bcoin's own HTTP API and JSON-RPC serve the wallets and the service (see README.md). Set up here:
 * - Bitcoin Core's regtest address and key prefixes (`bcrt1…`, `m…`/`n…`, `2…`, WIF 0xef, `tpub`), where
 *   bcoin 1.0 has its own (`rb1…`); the chain itself (genesis, rules) is Core's regtest.
 * - standardness enforced in the mempool, as Bitcoin Core does on regtest;
 * - a refused transaction is an error for `POST /broadcast` and `sendrawtransaction` (bcoin would log it and
 *   answer success for policy refusals such as a double spend, and relays raw transactions unchecked);
 * - fee estimates fall back to fixed regtest rates while the estimator has no data;
 * - extra routes: `GET /dev/addresses`, `GET /balance/address/:address`, `POST /dev/mine`.
 *
 * At start, two blocks pay each dev address (`m/84'/1'/0'/0/N`, 50 BTC a block) and 100 more pay the miner,
 * so the dev addresses' coins are mature (101 confirmations); then a block every `blockIntervalMs`.
 */
import { createRequire } from 'node:module'
import { bech32m } from '@scure/base'
import { BITCOIN_NETWORKS } from '../../../src/protocol/bitcoinNetworks.ts'
import { DEV_ADDRESS_COUNT, type DevKey, devKeys, minerKey } from './keys.ts'

export {
  DEV_ADDRESS_COUNT,
  DEV_MNEMONIC,
  type DevKey,
  devKey,
  devKeyPath,
  devKeys,
  minerKey,
  REGTEST_NETWORK,
} from './keys.ts'

// bcoin is CommonJS without types: the few parts used here are typed below.
const require = createRequire(import.meta.url)

/** Bitcoin Core's regtest prefixes, from the protocol's network table. */
const REGTEST = BITCOIN_NETWORKS.regtest

type BcoinTx = { txid(): string; hash(): Buffer }
type BcoinCoin = { height: number; value: number; hash: Buffer; index: number }
type BcoinRequest = { params: Record<string, string>; body: Record<string, unknown> }
type BcoinResponse = { json(status: number, body: unknown): void }
type BcoinRoute = (req: BcoinRequest, res: BcoinResponse) => Promise<void>
type BcoinNode = {
  open(): Promise<void>
  close(): Promise<void>
  chain: { height: number; getCoinsByAddress(addresses: unknown[]): Promise<BcoinCoin[]> }
  mempool: {
    addTX(tx: BcoinTx): Promise<unknown[] | null>
    getCoinsByAddress(addresses: unknown[]): BcoinCoin[]
    isSpent(hash: Buffer, index: number): boolean
    hasOrphan(hash: Buffer): boolean
    removeOrphan(hash: Buffer): void
  }
  fees: { estimateFee(target?: number, smart?: boolean): number }
  rpc: {
    mineBlocks(blocks: number, address: unknown): Promise<string[]>
    calls: Record<string, (args: unknown[], help: boolean) => Promise<unknown>>
  }
  http: {
    get(path: string, route: BcoinRoute): void
    post(path: string, route: BcoinRoute): void
    address(): { port: number }
  }
  sendTX(tx: BcoinTx): Promise<void>
  relay(tx: BcoinTx): void
  on(event: string, listener: (error: Error) => void): void
}
type BcoinScript = { getProgram(): { version: number } | null }
type BcoinAddress = {
  version: number
  hash: Buffer
  fromHash(hash: Buffer, type: number, version: number): BcoinAddress
}
type Bcoin = {
  networks: Record<string, Record<string, unknown>>
  Network: { get(type: string): unknown; fromBech32(prefix: string, network: unknown): unknown }
  FullNode: new (options: Record<string, unknown>) => BcoinNode
  Script: { prototype: BcoinScript & { isStandard(this: BcoinScript): boolean } }
  Address: {
    fromString(address: string, network: unknown): unknown
    getHash(data: unknown, enc?: string, network?: unknown): Buffer | string
    types: { WITNESS: number }
    prototype: BcoinAddress & {
      fromBech32(this: BcoinAddress, text: string, network: unknown): BcoinAddress
      toBech32(this: BcoinAddress, network: unknown): string
    }
  }
  TX: { fromRaw(raw: Buffer): BcoinTx }
}

let bcoinModule: Bcoin | undefined

/** bcoin with Bitcoin Core's regtest prefixes (set once, before bcoin builds its regtest `Network`). */
function loadBcoin(): Bcoin {
  if (bcoinModule) return bcoinModule
  const bcoin = require('bcoin') as Bcoin
  const regtest = bcoin.networks.regtest
  if (!regtest) throw new Error('bcoin has no regtest network')
  regtest.keyPrefix = {
    privkey: REGTEST.wif,
    xpubkey: 0x043587cf,
    xprivkey: 0x04358394,
    xpubkey58: 'tpub',
    xprivkey58: 'tprv',
    coinType: REGTEST.coinType,
  }
  regtest.addressPrefix = {
    pubkeyhash: REGTEST.pubKeyHash,
    scripthash: REGTEST.scriptHash,
    witnesspubkeyhash: 0x7a,
    witnessscripthash: 0x14,
    bech32: REGTEST.hrp,
  }
  // Bitcoin Core refuses non-standard transactions on regtest too (-acceptnonstdtxn=0).
  regtest.requireStandard = true
  // Core's regtest has BIP34, BIP65, BIP66, CSV and segwit in force from the first blocks; bcoin 1.0 buries the
  // first three at heights past 1000 and activates CSV and segwit by BIP9 signalling over 144-block windows.
  // One-block windows with a threshold of one activate both by height 3 (the miner signals for them).
  regtest.block = { ...(regtest.block as object), bip34height: 1, bip65height: 1, bip66height: 1 }
  regtest.minerWindow = 1
  regtest.activationThreshold = 1
  allowWitnessV1(bcoin)
  bcoinModule = bcoin
  return bcoin
}

/**
 * bcoin 1.0 predates taproot: it neither reads nor writes bech32m (BIP-350) addresses and holds outputs to
 * witness versions 1-16 non-standard. Bitcoin Core relays payments to such outputs (WITNESS_UNKNOWN before
 * taproot, P2TR now), so these outputs are made standard and their addresses readable and written in bech32m.
 * Spending them stays refused by the mempool (bcoin does not check taproot signatures, and its standard
 * script flags discourage upgradable witness programs), so no unchecked spend can be mined here.
 */
function allowWitnessV1(bcoin: Bcoin): void {
  const { Address, Script, Network } = bcoin
  const isStandard = Script.prototype.isStandard
  Script.prototype.isStandard = function (this: BcoinScript): boolean {
    if (isStandard.call(this)) return true
    const program = this.getProgram()
    return program !== null && program.version >= 1
  }
  const fromBech32 = Address.prototype.fromBech32
  Address.prototype.fromBech32 = function (this: BcoinAddress, text: string, network: unknown): BcoinAddress {
    let decoded: { prefix: string; words: number[] } | undefined
    try {
      decoded = bech32m.decode(text.toLowerCase() as `${string}1${string}`)
    } catch {
      decoded = undefined
    }
    if (!decoded) {
      const address = fromBech32.call(this, text, network)
      if (address.version !== 0) throw new Error('Witness version 1 and above take bech32m (BIP-350).')
      return address
    }
    const [version = -1, ...words] = decoded.words
    if (version < 1 || version > 16) throw new Error('Witness version 0 takes bech32, not bech32m.')
    const program = Buffer.from(bech32m.fromWords(words))
    if (program.length < 2 || program.length > 40) throw new Error('Bad witness program size.')
    Network.fromBech32(decoded.prefix, network)
    return this.fromHash(program, Address.types.WITNESS, version)
  }
  // bcoin takes any 40- or 64-character string for a hex hash, and regtest P2TR addresses are 64 characters.
  const getHash = Address.getHash
  Address.getHash = (data: unknown, enc?: string, network?: unknown) =>
    typeof data === 'string' && !/^[0-9a-f]*$/i.test(data)
      ? getHash(Address.fromString(data, network), enc)
      : getHash(data, enc, network)
  const toBech32 = Address.prototype.toBech32
  Address.prototype.toBech32 = function (this: BcoinAddress, network: unknown): string {
    if (this.version < 1) return toBech32.call(this, network)
    const prefix = (Network.get(network as string) as { addressPrefix: { bech32: string } }).addressPrefix
      .bech32
    return bech32m.encode(prefix, [this.version, ...bech32m.toWords(this.hash)], 90)
  }
}

/** Fee rates (satoshis per 1,000 virtual bytes) by confirmation target while the estimator has no data. */
export const FALLBACK_FEE_RATES = { fast: 10_000, normal: 5_000, slow: 2_000 } as const

/**
 * The fee rate answered for a confirmation target while the estimator has none: `fast` within 2 blocks,
 * `normal` within 6, `slow` beyond.
 *
 * @example
 * fallbackFeeRate(1) // 10000 sat/kvB (10 sat/vB)
 */
export function fallbackFeeRate(target = 1): number {
  if (target <= 2) return FALLBACK_FEE_RATES.fast
  if (target <= 6) return FALLBACK_FEE_RATES.normal
  return FALLBACK_FEE_RATES.slow
}

export interface StartBitcoinNodeOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string
  /** HTTP API and JSON-RPC port (default 8794; 0 picks a free one). */
  port?: number
  /** A block every this many milliseconds (default 5000); 0 mines only on demand. */
  blockIntervalMs?: number
  /** How many dev addresses are funded at start (default {@link DEV_ADDRESS_COUNT}). */
  devAddressCount?: number
  /** bcoin's log level: error, warning, info, debug, spam (default error). */
  logLevel?: string
}

/** Confirmed and pending balance of an address, in satoshis. */
export type AddressBalance = { address: string; confirmed: number; pending: number; total: number }

export interface BitcoinNode {
  /** HTTP API and JSON-RPC, e.g. `http://127.0.0.1:8794`. */
  url: string
  /** The funded dev keys (`m/84'/1'/0'/0/N`), 100 BTC each at start. */
  devKeys: DevKey[]
  /** The address that takes the rewards of blocks mined after start. */
  minerAddress: string
  /** Mines `blocks` blocks (default 1) paying `address` (default the miner), with the mempool's transactions. */
  mine(blocks?: number, address?: string): Promise<string[]>
  /** Current chain height. */
  height(): number
  /** Confirmed and pending balance of an address. */
  balance(address: string): Promise<AddressBalance>
  stop(): Promise<void>
}

/** What a refused transaction answers, like Bitcoin Core's RPC error -26 (`RPC_VERIFY_REJECTED`). */
class RefusedError extends Error {
  statusCode = 400
  type = 'VerifyError'
  code = -26
}

/**
 * Starts a regtest node on loopback with funded dev addresses and a block every few seconds.
 *
 * @example
 * const node = await startBitcoinNode({ port: 0, blockIntervalMs: 0 })
 * const coins = await fetch(`${node.url}/coin/address/${node.devKeys[0].address}`).then((r) => r.json())
 * await node.mine(1)
 * await node.stop()
 */
export async function startBitcoinNode(options: StartBitcoinNodeOptions = {}): Promise<BitcoinNode> {
  const bcoin = loadBcoin()
  const network = bcoin.Network.get('regtest')
  const host = options.host ?? '127.0.0.1'
  const node = new bcoin.FullNode({
    network: 'regtest',
    memory: true,
    workers: false,
    listen: false,
    indexTX: true,
    indexAddress: true,
    httpHost: host,
    httpPort: options.port ?? 8794,
    cors: true,
    logLevel: options.logLevel ?? 'error',
  })
  // bcoin emits errors it has handled (a refused transaction) as events: keep them from throwing.
  node.on('error', () => {})

  const addressOf = (address: string): unknown => {
    try {
      return bcoin.Address.fromString(address, network)
    } catch {
      throw Object.assign(new Error(`not a regtest address: ${address}`), { statusCode: 400 })
    }
  }

  // Refusals are errors, as in Bitcoin Core's sendrawtransaction.
  node.sendTX = async (tx) => {
    let missing: unknown[] | null
    try {
      missing = await node.mempool.addTX(tx)
    } catch (error) {
      throw new RefusedError((error as Error).message)
    }
    if (missing && missing.length > 0) {
      if (node.mempool.hasOrphan(tx.hash())) node.mempool.removeOrphan(tx.hash())
      throw new RefusedError('bad-txns-inputs-missingorspent')
    }
    // No peers to tell: the node never connects out nor listens for peers (bcoin's broadcast would hold a
    // 60-second timer per transaction, waiting for one).
  }
  node.rpc.calls.sendrawtransaction = async (args) => {
    const hex = args[0]
    if (typeof hex !== 'string' || !/^([0-9a-f]{2})+$/i.test(hex)) throw new Error('Invalid hex string.')
    const tx = bcoin.TX.fromRaw(Buffer.from(hex, 'hex'))
    await node.sendTX(tx)
    return tx.txid()
  }

  const estimateFee = node.fees.estimateFee.bind(node.fees)
  node.fees.estimateFee = (target, smart) => estimateFee(target, smart) || fallbackFeeRate(target)

  const keys = devKeys(options.devAddressCount ?? DEV_ADDRESS_COUNT)
  const miner = minerKey()
  const mine = (blocks = 1, address = miner.address) => node.rpc.mineBlocks(blocks, addressOf(address))

  const balance = async (address: string): Promise<AddressBalance> => {
    const addresses = [addressOf(address)]
    const chainCoins = await node.chain.getCoinsByAddress(addresses)
    let confirmed = 0
    let pending = 0
    for (const coin of chainCoins) {
      confirmed += coin.value
      if (node.mempool.isSpent(coin.hash, coin.index)) pending -= coin.value
    }
    for (const coin of node.mempool.getCoinsByAddress(addresses)) pending += coin.value
    return { address, confirmed, pending, total: confirmed + pending }
  }

  node.http.get('/dev/addresses', async (_req, res) => {
    res.json(200, {
      mnemonic: 'test test test test test test test test test test test junk',
      devAddresses: keys.map(({ path, address }) => ({ path, address })),
      minerAddress: miner.address,
    })
  })
  node.http.get('/balance/address/:address', async (req, res) => {
    res.json(200, await balance(req.params.address ?? ''))
  })
  node.http.post('/dev/mine', async (req, res) => {
    const blocks = req.body.blocks ?? 1
    if (!Number.isInteger(blocks) || (blocks as number) < 1 || (blocks as number) > 1000)
      throw Object.assign(new Error('blocks: a whole number from 1 to 1000'), { statusCode: 400 })
    const address = typeof req.body.address === 'string' ? req.body.address : miner.address
    const hashes = await mine(blocks as number, address)
    res.json(200, { hashes, height: node.chain.height })
  })

  await node.open()
  try {
    for (const key of keys) await mine(2, key.address)
    await mine(100)
  } catch (error) {
    await node.close()
    throw error
  }

  let timer: ReturnType<typeof setInterval> | undefined
  const interval = options.blockIntervalMs ?? 5000
  if (interval > 0) {
    timer = setInterval(() => {
      mine(1).catch(() => {})
    }, interval)
    timer.unref()
  }

  const port = node.http.address().port
  let stopped: Promise<void> | undefined
  return {
    url: `http://${host}:${port}`,
    devKeys: keys,
    minerAddress: miner.address,
    mine,
    height: () => node.chain.height,
    balance,
    stop() {
      if (timer) clearInterval(timer)
      stopped ??= node.close()
      return stopped
    },
  }
}
