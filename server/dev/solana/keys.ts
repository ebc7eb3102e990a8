/**
 * Deterministic keys of the local Solana network: the dev keys (BIP-39 test mnemonic, SLIP-0010 ed25519 along
 * Solana's `m/44'/501'/N'/0'`), the test token's mint, the faucet behind `requestAirdrop`, and the genesis hash.
 */
import { hmac } from '@noble/hashes/hmac.js'
import { pbkdf2 } from '@noble/hashes/pbkdf2.js'
import { sha256, sha512 } from '@noble/hashes/sha2.js'
import { Keypair } from '@solana/web3.js'
import { encodeBase58 } from './codec.ts'

/** The well-known test mnemonic (also the EVM dev chain's): never hold real funds with it. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/** How many dev keys are funded at start. */
export const DEV_KEY_COUNT = 4

/** Lamports each dev key holds at start (1,000 SOL). */
export const DEV_KEY_LAMPORTS = 1_000n * 1_000_000_000n

/** The test SPL token: 6 decimals, 1,000,000 whole tokens minted to dev key 0 at start. */
export const TEST_TOKEN_DECIMALS = 6
export const TEST_TOKEN_SUPPLY = 1_000_000n * 10n ** BigInt(TEST_TOKEN_DECIMALS)

const HARDENED = 0x8000_0000
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** Solana's derivation path for account `index` (Phantom, Solflare, `solana-keygen` with `prompt://?key=N/0`). */
export function devKeyPath(index: number): string {
  return `m/44'/501'/${index}'/0'`
}

/** BIP-39 seed of a mnemonic (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic" + passphrase). */
export function mnemonicToSeed(mnemonic: string, passphrase = ''): Uint8Array {
  return pbkdf2(sha512, utf8(mnemonic.normalize('NFKD')), utf8(`mnemonic${passphrase}`.normalize('NFKD')), {
    c: 2048,
    dkLen: 64,
  })
}

/** SLIP-0010 ed25519 private key (32 bytes) for a path of hardened segments, such as `m/44'/501'/0'/0'`. */
export function deriveEd25519(seed: Uint8Array, path: string): Uint8Array {
  if (!/^m(\/\d+')*$/.test(path)) throw new Error(`ed25519 paths have hardened segments only, got ${path}`)
  let node = hmac(sha512, utf8('ed25519 seed'), seed)
  for (const segment of path.split('/').slice(1)) {
    const index = Number(segment.slice(0, -1))
    if (!Number.isSafeInteger(index) || index >= HARDENED)
      throw new Error(`path segment out of range: ${segment}`)
    const data = new Uint8Array(37)
    data.set(node.subarray(0, 32), 1)
    new DataView(data.buffer).setUint32(33, index + HARDENED)
    node = hmac(sha512, node.subarray(32), data)
  }
  return node.slice(0, 32)
}

let devSeed: Uint8Array | undefined

/** Dev key `index`: the test mnemonic along `m/44'/501'/index'/0'`. */
export function devKeypair(index: number): Keypair {
  devSeed ??= mnemonicToSeed(DEV_MNEMONIC)
  return Keypair.fromSeed(deriveEd25519(devSeed, devKeyPath(index)))
}

/** The first `count` dev keys. */
export function devKeypairs(count = DEV_KEY_COUNT): Keypair[] {
  return Array.from({ length: count }, (_, index) => devKeypair(index))
}

function fixedKeypair(label: string): Keypair {
  return Keypair.fromSeed(sha256(utf8(`wallet-elements/dev/solana/${label}`)))
}

/** The test token's mint account (same address on every start). */
export function testMintKeypair(): Keypair {
  return fixedKeypair('test-token-mint')
}

/** The faucet that pays `requestAirdrop` and the start-up funding. */
export function faucetKeypair(): Keypair {
  return fixedKeypair('faucet')
}

/** The local network's genesis hash (stable, so its CAIP-2 id `solana:<first 32 chars>` is too). */
export const GENESIS_HASH = encodeBase58(sha256(utf8('wallet-elements/dev/solana/genesis')))
