// The Demo Wallet's Solana side without a browser (see solana-wallet.test.ts): refusing pages and
// accounts it did not connect, signing and sending transactions on the local Solana network.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token'
import { LAMPORTS_PER_SOL, TransactionMessage, VersionedTransaction } from '@solana/web3.js'
import type { WalletAccount } from '@wallet-standard/base'
import { encodeBase58 } from '../../../server/dev/solana/codec.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'
import {
  balance,
  blockhash,
  connected,
  DEVNET,
  key0,
  key1,
  origin,
  rejection,
  rpc,
  solana,
  transfer,
  useLocalSolana,
  wallet,
} from './solana-wallet-helpers.ts'

describe('demo wallet: Solana (Wallet Standard): refusals and transactions', { timeout: 30_000 }, () => {
  useLocalSolana()

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
