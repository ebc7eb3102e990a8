import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  DEV_KEY_LAMPORTS,
  devKeypair,
  type LocalSolana,
  startSolana,
  TEST_TOKEN_DECIMALS,
  TEST_TOKEN_SUPPLY,
} from '../../../server/dev/solana/index.ts'
import { getSolBalance, getTokenBalances } from '../../../src/chains/solana/balances.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'
import type { SolanaRpc } from '../../../src/chains/solana/rpc.ts'
import { knownToken, TOKEN_PROGRAM_ADDRESS } from '../../../src/chains/solana/tokens.ts'
import { fetchRpc } from './helpers.ts'

const TEST_MINT = '3NgR9cyptmChF72pCdDbrajWsehczWmp6iEbBnnFkHPU'
const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const USDT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'
const owner = (index: number): string => devKeypair(index).publicKey.toBase58()

/** A fake node answering with these token accounts (jsonParsed, as a validator sends them). */
function tokenAccountsRpc(
  accounts: { pubkey: string; mint: string; amount: string; decimals: number }[],
): SolanaRpc {
  return async () => ({
    context: { slot: 1, apiVersion: '2.3.0' },
    value: accounts.map(({ pubkey, mint, amount, decimals }) => ({
      pubkey,
      account: {
        data: {
          program: 'spl-token',
          parsed: {
            info: {
              isNative: false,
              mint,
              owner: owner(0),
              state: 'initialized',
              tokenAmount: { amount, decimals },
            },
            type: 'account',
          },
          space: 165,
        },
        executable: false,
        lamports: 2039280,
        owner: TOKEN_PROGRAM_ADDRESS,
        rentEpoch: 0,
        space: 165,
      },
    })),
  })
}

describe('Solana balances against the local network', { timeout: 30_000 }, () => {
  let solana: LocalSolana
  let rpc: SolanaRpc
  const calls: { method: string; params: readonly unknown[] }[] = []

  before(async () => {
    solana = await startSolana({ port: 0 })
    const real = fetchRpc(solana.url)
    rpc = (method, params) => {
      calls.push({ method, params })
      return real(method, params)
    }
  })

  after(async () => {
    await solana?.stop()
  })

  test('default: a dev key holds 1000 SOL', async () => {
    calls.length = 0
    assert.equal(await getSolBalance(rpc, owner(1)), DEV_KEY_LAMPORTS)
    assert.equal(DEV_KEY_LAMPORTS, 1_000_000_000_000n)
    assert.deepEqual(calls, [{ method: 'getBalance', params: [owner(1), { commitment: 'confirmed' }] }])
  })

  test('behavior: an address never seen holds 0 lamports', async () => {
    assert.equal(await getSolBalance(rpc, '11111111111111111111111111111112'), 0n)
  })

  test('default: dev key 0 holds the whole test token supply, named from the known tokens', async () => {
    calls.length = 0
    const balances = await getTokenBalances(rpc, LOCAL_SOLANA_NETWORK_ID, owner(0))
    assert.deepEqual(balances, [
      { mint: TEST_MINT, amount: TEST_TOKEN_SUPPLY, decimals: 6, symbol: 'TEST', name: 'Test Token' },
    ])
    assert.equal(TEST_TOKEN_DECIMALS, 6)
    assert.equal(solana.mint.address.toBase58(), TEST_MINT)
    assert.deepEqual(calls, [
      {
        method: 'getTokenAccountsByOwner',
        params: [
          owner(0),
          { programId: TOKEN_PROGRAM_ADDRESS },
          { encoding: 'jsonParsed', commitment: 'confirmed' },
        ],
      },
    ])
  })

  test('behavior: dev key 1 holds no token', async () => {
    assert.deepEqual(await getTokenBalances(rpc, LOCAL_SOLANA_NETWORK_ID, owner(1)), [])
  })

  test('behavior: on another network the test mint is an unknown token', async () => {
    const [balance] = await getTokenBalances(rpc, MAINNET, owner(0))
    assert.equal(balance?.symbol, '3NgR…')
    assert.equal(balance?.name, 'Unknown token')
  })

  test('error: a malformed answer is rejected with the method and what was wrong', async () => {
    const fake: SolanaRpc = async () => ({ foo: 1 })
    await assert.rejects(getSolBalance(fake, owner(0)), (error: Error & { shortMessage?: string }) => {
      assert.equal(error.name, 'InvalidResponseError')
      assert.equal(error.shortMessage, 'Invalid response')
      assert.match(error.message, /Method: getBalance/)
      assert.match(error.message, /Details: context: Required/)
      return true
    })
    await assert.rejects(getTokenBalances(fake, MAINNET, owner(0)), {
      name: 'InvalidResponseError',
      message: /Method: getTokenAccountsByOwner/,
    })
  })

  test('error: a negative or fractional balance, or a token amount that is not a u64 string', async () => {
    const balance =
      (value: unknown): SolanaRpc =>
      async () => ({ context: { slot: 1 }, value })
    await assert.rejects(getSolBalance(balance(-1), owner(0)), { name: 'InvalidResponseError' })
    await assert.rejects(getSolBalance(balance(1.5), owner(0)), { name: 'InvalidResponseError' })
    await assert.rejects(getSolBalance(balance('5'), owner(0)), { name: 'InvalidResponseError' })
    for (const amount of ['-1', '1.5', '1e6', '', '18446744073709551616', '123456789012345678901']) {
      const fake = tokenAccountsRpc([{ pubkey: owner(1), mint: USDC, amount, decimals: 6 }])
      await assert.rejects(
        getTokenBalances(fake, MAINNET, owner(0)),
        { name: 'InvalidResponseError' },
        amount,
      )
    }
    const badMint = tokenAccountsRpc([{ pubkey: owner(1), mint: 'not-a-mint', amount: '1', decimals: 6 }])
    await assert.rejects(getTokenBalances(badMint, MAINNET, owner(0)), {
      name: 'InvalidResponseError',
      message: /value\.0\.account\.data\.parsed\.info\.mint: Invalid Solana address/,
    })
  })

  test('behavior: accounts of one mint add up; known tokens first, then by amount in whole tokens; zero kept', async () => {
    const unknownSmall = '11111111111111111111111111111112'
    const unknownBig = 'So11111111111111111111111111111111111111112'
    const fake = tokenAccountsRpc([
      { pubkey: owner(1), mint: unknownBig, amount: '5000000000', decimals: 9 }, // 5 tokens
      { pubkey: owner(2), mint: USDT, amount: '0', decimals: 6 },
      { pubkey: owner(3), mint: unknownSmall, amount: '400', decimals: 2 }, // 4 tokens
      { pubkey: owner(0), mint: USDC, amount: '1500000', decimals: 6 },
      { pubkey: devKeypair(4).publicKey.toBase58(), mint: USDC, amount: '2500000', decimals: 6 },
    ])
    const balances = await getTokenBalances(fake, MAINNET, owner(0))
    assert.deepEqual(
      balances.map(({ symbol, amount }) => [symbol, amount]),
      [
        ['USDC', 4_000_000n],
        ['USDT', 0n],
        ['So11…', 5_000_000_000n],
        ['1111…', 400n],
      ],
    )
    assert.deepEqual(balances[0], {
      mint: USDC,
      amount: 4_000_000n,
      decimals: 6,
      symbol: 'USDC',
      name: 'USD Coin',
    })
  })

  test('behavior: known tokens per network', () => {
    assert.equal(knownToken(MAINNET, USDT)?.symbol, 'USDT')
    assert.equal(
      knownToken('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU')
        ?.symbol,
      'USDC',
    )
    assert.equal(knownToken('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', USDC), undefined)
    assert.deepEqual(knownToken(LOCAL_SOLANA_NETWORK_ID, TEST_MINT), {
      mint: TEST_MINT,
      symbol: 'TEST',
      name: 'Test Token',
      decimals: TEST_TOKEN_DECIMALS,
    })
    assert.equal(knownToken('eip155:1', USDC), undefined)
  })
})
