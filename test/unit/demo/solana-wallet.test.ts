// The Demo Wallet's Solana side (a Wallet Standard wallet) without a browser: prompts are answered by a
// fake `ask`, registration runs on a bare EventTarget standing in for `window`, and transactions go to the
// real local Solana network (litesvm behind JSON-RPC) on a free loopback port.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token'
import {
  type Keypair,
  LAMPORTS_PER_SOL,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import { getWallets } from '@wallet-standard/app'
import type { WalletAccount } from '@wallet-standard/base'
import { DEMO_WALLET_ICON } from '../../../demo/wallets/identity.ts'
import type { PromptRequest } from '../../../demo/wallets/prompt.ts'
import {
  type CreateSolanaWalletParameters,
  createSolanaWallet,
  registerSolanaWallet,
  SOLANA_AUTHORIZED_KEY,
} from '../../../demo/wallets/solana-wallet.ts'
import { encodeBase58 } from '../../../server/dev/solana/codec.ts'
import { devKeypair, type LocalSolana, startSolana } from '../../../server/dev/solana/index.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'

const origin = 'http://127.0.0.1:5173'
const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'

class MemoryStorage implements Storage {
  #items = new Map<string, string>()
  get length() {
    return this.#items.size
  }
  clear() {
    this.#items.clear()
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null
  }
  removeItem(key: string) {
    this.#items.delete(key)
  }
  setItem(key: string, value: string) {
    this.#items.set(key, value)
  }
}

/** A Solana wallet whose prompts are recorded and answered by `answer` (approve by default). */
function wallet(
  parameters: Partial<CreateSolanaWalletParameters> = {},
  answer: (request: PromptRequest) => boolean = () => true,
) {
  const prompts: PromptRequest[] = []
  const built = createSolanaWallet({
    origin,
    storage: new MemoryStorage(),
    ask: async (request) => {
      prompts.push(request)
      return answer(request)
    },
    ...parameters,
  })
  const changes: (readonly string[] | undefined)[] = []
  built.wallet.features['standard:events'].on('change', ({ accounts }) =>
    changes.push(accounts?.map((account) => account.address)),
  )
  return { ...built, prompts, changes }
}

async function connected(parameters: Partial<CreateSolanaWalletParameters> = {}) {
  const built = wallet(parameters)
  const { accounts } = await built.wallet.features['standard:connect'].connect()
  const account = accounts[0]
  assert.ok(account)
  built.prompts.length = 0
  return { ...built, account }
}

async function rejection(promise: Promise<unknown>): Promise<{ code: unknown; message: unknown }> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof Error)
    const { code, message } = error as Error & { code?: unknown }
    return { code, message }
  }
  throw new Error('expected a rejection')
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(body.error.message)
  return body.result
}

const balance = async (url: string, key: Keypair): Promise<number> =>
  ((await rpc(url, 'getBalance', [key.publicKey.toBase58()])) as { value: number }).value

const blockhash = async (url: string): Promise<string> =>
  ((await rpc(url, 'getLatestBlockhash')) as { value: { blockhash: string } }).value.blockhash

/** A legacy transfer transaction, unsigned, as the bytes a page hands the wallet. */
function transfer(from: Keypair, to: Keypair, lamports: number, recentBlockhash: string): Uint8Array {
  const transaction = new Transaction({ feePayer: from.publicKey, recentBlockhash }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports }),
  )
  return transaction.serialize({ requireAllSignatures: false, verifySignatures: false })
}

describe('demo wallet: Solana (Wallet Standard)', { timeout: 30_000 }, () => {
  let solana: LocalSolana
  const key0 = devKeypair(0)
  const key1 = devKeypair(1)

  before(async () => {
    solana = await startSolana({ port: 0 })
  })

  after(async () => {
    await solana?.stop()
  })

  test('default: dev key 0, the Demo Wallet name and icon, four chains, not connected', () => {
    const { wallet: standard, controls } = wallet()
    assert.equal(controls.address, key0.publicKey.toBase58())
    assert.equal(controls.authorized, false)
    assert.equal(standard.version, '1.0.0')
    assert.equal(standard.name, 'Demo Wallet')
    assert.equal(standard.icon, DEMO_WALLET_ICON)
    assert.deepEqual(standard.chains, [
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      'solana:4uhcVJyU9pJkvQyS88uRDiswHXSRhhcw',
      LOCAL_SOLANA_NETWORK_ID,
    ])
    assert.deepEqual(Object.keys(standard.features).sort(), [
      'solana:signAndSendTransaction',
      'solana:signMessage',
      'solana:signTransaction',
      'standard:connect',
      'standard:disconnect',
      'standard:events',
    ])
    assert.deepEqual(standard.features['solana:signTransaction'].supportedTransactionVersions, ['legacy', 0])
    assert.deepEqual(standard.features['solana:signAndSendTransaction'].supportedTransactionVersions, [
      'legacy',
      0,
    ])
    assert.deepEqual(standard.accounts, [])
    assert.equal(wallet({ accountIndex: 2 }).controls.address, devKeypair(2).publicKey.toBase58())
  })

  test('behavior: getWallets() sees the wallet registered before and after the app is ready', () => {
    // @wallet-standard/app reads the global `window` on its first getWallets(); a bare EventTarget will do.
    const target = new EventTarget()
    const global = globalThis as { window?: unknown }
    global.window = target
    try {
      const early = wallet().wallet
      const unregisterEarly = registerSolanaWallet(target, early)
      const wallets = getWallets() // dispatches wallet-standard:app-ready: `early` registers now
      assert.ok(wallets.get().includes(early))

      const late = wallet().wallet
      const unregisterLate = registerSolanaWallet(target, late) // heard through wallet-standard:register-wallet
      assert.ok(wallets.get().includes(late))

      unregisterEarly()
      unregisterLate()
      assert.equal(wallets.get().includes(early), false)
      assert.equal(wallets.get().includes(late), false)
    } finally {
      delete global.window
    }
  })

  test('behavior: connect asks once, silent connect restores from storage, disconnect forgets', async () => {
    const storage = new MemoryStorage()
    const first = wallet({ storage })
    const { connect } = first.wallet.features['standard:connect']

    assert.deepEqual(await connect({ silent: true }), { accounts: [] })
    assert.equal(first.prompts.length, 0)

    const [a, b] = await Promise.all([connect(), connect()])
    assert.equal(first.prompts.length, 1, 'two connects share one prompt')
    assert.equal(first.prompts[0]?.title, `Connect to ${origin}`)
    const account = a.accounts[0] as WalletAccount
    assert.equal(account.address, key0.publicKey.toBase58())
    assert.deepEqual([...account.publicKey], [...key0.publicKey.toBytes()])
    assert.ok(account.chains.includes(LOCAL_SOLANA_NETWORK_ID))
    assert.ok(account.features.includes('solana:signAndSendTransaction'))
    assert.deepEqual(b.accounts, [account])
    assert.deepEqual(first.wallet.accounts, [account])
    assert.equal(first.controls.authorized, true)
    assert.deepEqual(JSON.parse(storage.getItem(SOLANA_AUTHORIZED_KEY) ?? '[]'), [origin])

    // A reload: a new wallet on the same storage restores silently, without a prompt.
    const second = wallet({ storage })
    const restored = await second.wallet.features['standard:connect'].connect({ silent: true })
    assert.deepEqual(
      restored.accounts.map(({ address }) => address),
      [account.address],
    )
    assert.equal(second.prompts.length, 0)
    // Another origin is not connected.
    const other = wallet({ storage, origin: 'http://localhost:9999' })
    assert.deepEqual(await other.wallet.features['standard:connect'].connect({ silent: true }), {
      accounts: [],
    })

    await first.wallet.features['standard:disconnect'].disconnect()
    assert.deepEqual(first.wallet.accounts, [])
    assert.deepEqual(await second.wallet.features['standard:connect'].connect({ silent: true }), {
      accounts: [],
    })
    assert.deepEqual(first.changes, [[account.address], []])
  })

  test('behavior: the controls switch accounts and disconnect, with change events', async () => {
    const { controls, changes, wallet: standard } = await connected()
    controls.switchAccount(1)
    assert.equal(controls.address, key1.publicKey.toBase58())
    assert.deepEqual(
      standard.accounts.map(({ address }) => address),
      [key1.publicKey.toBase58()],
    )
    controls.disconnect()
    assert.equal(controls.authorized, false)
    assert.deepEqual(changes, [[key0.publicKey.toBase58()], [key1.publicKey.toBase58()], []])

    // While disconnected, a switch emits nothing; an unsubscribed listener hears nothing.
    const heard: unknown[] = []
    const off = standard.features['standard:events'].on('change', (properties) => heard.push(properties))
    controls.switchAccount(2)
    off()
    await standard.features['standard:connect'].connect()
    assert.deepEqual(heard, [])
    assert.equal(standard.accounts[0]?.address, devKeypair(2).publicKey.toBase58())
    assert.throws(() => controls.switchAccount(-1), /Bad account index/)
  })

  test('behavior: signMessage signs with ed25519; the prompt shows the text', async () => {
    const { wallet: standard, account, prompts } = await connected({ accountIndex: 3 })
    const message = new TextEncoder().encode('Sign in to example.org\n\nNonce: 1234')
    const [output] = await standard.features['solana:signMessage'].signMessage({ account, message })
    assert.ok(output)
    assert.deepEqual([...output.signedMessage], [...message])
    assert.equal(output.signature.length, 64)
    assert.equal(ed25519.verify(output.signature, message, devKeypair(3).publicKey.toBytes()), true)
    assert.equal(prompts[0]?.title, 'Sign message')
    assert.equal(prompts[0]?.details?.[0], 'Sign in to example.org\n\nNonce: 1234')

    await standard.features['solana:signMessage'].signMessage({ account, message: Uint8Array.of(0, 1, 255) })
    assert.equal(prompts[1]?.details?.[0], '0x0001ff')
  })

  test('error: rejecting a prompt throws code 4001', async () => {
    let approve = false
    const { wallet: standard } = wallet({}, () => approve)
    assert.deepEqual(await rejection(standard.features['standard:connect'].connect()), {
      code: 4001,
      message: 'User rejected the request.',
    })
    assert.deepEqual(standard.accounts, [])

    approve = true
    const { accounts } = await standard.features['standard:connect'].connect()
    const account = accounts[0] as WalletAccount
    approve = false
    const message = new TextEncoder().encode('gm')
    assert.equal(
      (await rejection(standard.features['solana:signMessage'].signMessage({ account, message }))).code,
      4001,
    )
    const transaction = transfer(key0, key1, 1, await blockhash(solana.url))
    assert.equal(
      (
        await rejection(
          standard.features['solana:signAndSendTransaction'].signAndSendTransaction({
            account,
            transaction,
            chain: LOCAL_SOLANA_NETWORK_ID,
          }),
        )
      ).code,
      4001,
    )
  })

  test('error: a page that is not connected, or another account, is refused before any prompt', async () => {
    const message = new TextEncoder().encode('gm')
    const fresh = wallet()
    const account0 = (await connected()).account
    assert.equal(
      (
        await rejection(
          fresh.wallet.features['solana:signMessage'].signMessage({ account: account0, message }),
        )
      ).code,
      4100,
    )

    const { wallet: standard, account, prompts } = await connected()
    const other: WalletAccount = { ...account, address: key1.publicKey.toBase58() }
    const wrong = await rejection(
      standard.features['solana:signMessage'].signMessage({ account: other, message }),
    )
    assert.equal(wrong.code, 4100)
    assert.match(String(wrong.message), new RegExp(key1.publicKey.toBase58()))
    const transaction = transfer(key0, key1, 1, await blockhash(solana.url))
    assert.equal(
      (
        await rejection(
          standard.features['solana:signTransaction'].signTransaction({ account: other, transaction }),
        )
      ).code,
      4100,
    )
    // A transaction dev key 0 does not sign, or a chain the wallet does not know, is a bad request.
    const notMine = transfer(key1, key0, 1, await blockhash(solana.url))
    const notSigner = await rejection(
      standard.features['solana:signTransaction'].signTransaction({ account, transaction: notMine }),
    )
    assert.equal(notSigner.code, -32602)
    const unknownChain = await rejection(
      standard.features['solana:signTransaction'].signTransaction({
        account,
        transaction,
        chain: 'solana:unknown',
      }),
    )
    assert.equal(unknownChain.code, -32602)
    assert.equal(prompts.length, 0)
  })

  test('behavior: signTransaction signs legacy and version 0 transactions and summarises them', async () => {
    const { wallet: standard, account, prompts } = await connected()
    const recentBlockhash = await blockhash(solana.url)
    const { signTransaction } = standard.features['solana:signTransaction']

    const legacy = transfer(key0, key1, LAMPORTS_PER_SOL / 2, recentBlockhash)
    const [signedLegacy] = await signTransaction({ account, transaction: legacy, chain: DEVNET })
    assert.ok(signedLegacy)
    const decoded = VersionedTransaction.deserialize(signedLegacy.signedTransaction)
    assert.equal(decoded.version, 'legacy')
    const signature = decoded.signatures[0] as Uint8Array
    assert.equal(ed25519.verify(signature, decoded.message.serialize(), key0.publicKey.toBytes()), true)
    assert.deepEqual(prompts[0], {
      title: 'Sign a transaction on Solana Devnet',
      details: [
        `Fee payer ${key0.publicKey.toBase58()}`,
        '1 instruction',
        `Send 0.5 SOL to ${key1.publicKey.toBase58()}`,
        `Requested by ${origin}`,
      ],
    })

    // Version 0, with an SPL Token transferChecked; no chain means the local network.
    const mint = solana.mint.address
    const message = new TransactionMessage({
      payerKey: key0.publicKey,
      recentBlockhash,
      instructions: [
        createTransferCheckedInstruction(
          getAssociatedTokenAddressSync(mint, key0.publicKey),
          mint,
          getAssociatedTokenAddressSync(mint, key1.publicKey),
          key0.publicKey,
          1_500_000n,
          solana.mint.decimals,
        ),
      ],
    }).compileToV0Message()
    const v0 = new VersionedTransaction(message).serialize()
    const [signedV0] = await signTransaction({ account, transaction: v0 })
    assert.ok(signedV0)
    const decodedV0 = VersionedTransaction.deserialize(signedV0.signedTransaction)
    assert.equal(decodedV0.version, 0)
    assert.equal(
      ed25519.verify(decodedV0.signatures[0] as Uint8Array, message.serialize(), key0.publicKey.toBytes()),
      true,
    )
    assert.equal(prompts[1]?.title, 'Sign a transaction on Local Solana')
    assert.ok(
      prompts[1]?.details?.includes(
        `Send 1.5 of token ${mint.toBase58()} to token account ${getAssociatedTokenAddressSync(mint, key1.publicKey).toBase58()}`,
      ),
    )

    const garbage = await rejection(signTransaction({ account, transaction: Uint8Array.of(1, 2, 3) }))
    assert.equal(garbage.code, -32602)
  })

  test('behavior: signAndSendTransaction moves 0.5 SOL from dev key 0 to dev key 1 on the local network', async () => {
    const { wallet: standard, account } = await connected({ localRpcUrl: solana.url })
    const [before0, before1] = [await balance(solana.url, key0), await balance(solana.url, key1)]

    const transaction = transfer(key0, key1, LAMPORTS_PER_SOL / 2, await blockhash(solana.url))
    const [output] = await standard.features['solana:signAndSendTransaction'].signAndSendTransaction({
      account,
      transaction,
      chain: LOCAL_SOLANA_NETWORK_ID,
    })
    assert.ok(output)
    assert.equal(output.signature.length, 64)

    const after1 = await balance(solana.url, key1)
    const after0 = await balance(solana.url, key0)
    assert.equal(after1 - before1, LAMPORTS_PER_SOL / 2)
    assert.ok(before0 - after0 >= LAMPORTS_PER_SOL / 2, 'dev key 0 paid the amount and the fee')
    assert.ok(before0 - after0 < LAMPORTS_PER_SOL / 2 + 100_000, 'and only a small fee')
    const statuses = (await rpc(solana.url, 'getSignatureStatuses', [[encodeBase58(output.signature)]])) as {
      value: ({ err: unknown } | null)[]
    }
    assert.equal(statuses.value[0]?.err, null)
  })

  test('error: the RPC refusing a transaction throws its message', async () => {
    const { wallet: standard, account } = await connected({ localRpcUrl: solana.url })
    // More than dev key 0 holds: the local network's preflight refuses it.
    const transaction = transfer(key0, key1, 10_000 * LAMPORTS_PER_SOL, await blockhash(solana.url))
    let direct = ''
    try {
      const signed = VersionedTransaction.deserialize(transaction)
      signed.sign([key0])
      await rpc(solana.url, 'sendTransaction', [
        Buffer.from(signed.serialize()).toString('base64'),
        { encoding: 'base64' },
      ])
    } catch (error) {
      direct = (error as Error).message
    }
    assert.ok(direct, 'the RPC refuses the transaction')
    const refused = await rejection(
      standard.features['solana:signAndSendTransaction'].signAndSendTransaction({
        account,
        transaction,
        chain: LOCAL_SOLANA_NETWORK_ID,
      }),
    )
    assert.equal(refused.message, direct)
    assert.equal(typeof refused.code, 'number')
  })
})
