// The one signer of the embedded wallet: each kind of request against viem's, Node's and web3.js's verification, and each refusal.
import assert from 'node:assert/strict'
import { createPublicKey, verify } from 'node:crypto'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import {
  type Address,
  encodeFunctionData,
  type Hex,
  hashMessage,
  hexToBytes,
  parseSignature,
  recoverAddress,
  recoverTransactionAddress,
  serializeTransaction,
  stringToHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import {
  entryPoint08Address,
  getUserOperationHash,
  getUserOperationTypedData,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { walletAccountAbi } from '../../../server/embedded/walletAccount.ts'
import {
  evmAddressOf,
  replaySafeTypedData,
  signPlan,
  transactionOf,
  userOperationOf,
  verifyRequestSignature,
} from '../../../src/protocol/embedded/signer.ts'
import { type SignPlan, type SignRequest, signRequest } from '../../../src/protocol/embedded/signing.ts'
import {
  foreignSmartAccountMessage,
  kindNotAllowedMessage,
  notATransactionMessage,
  ownAccountCallMessage,
  reservedDomainMessage,
  transactionAsMessageMessage,
} from '../../../src/protocol/embedded/signingRules.ts'
import { encodeBase58 } from '../../../src/protocol/siwx/base58.ts'

/** A person's two keys as bytes, as custody (today) or the frame (later) holds them. */
function keysOf() {
  const evmKey = generatePrivateKey()
  const solanaSeed = ed25519.utils.randomPrivateKey()
  return {
    account: privateKeyToAccount(evmKey),
    keys: { secp256k1: hexToBytes(evmKey), ed25519: solanaSeed },
    solana: encodeBase58(ed25519.getPublicKey(solanaSeed)),
  }
}

const shop = {
  domain: {
    name: 'Shop',
    version: '1',
    chainId: 31337,
    verifyingContract: '0x0000000000000000000000000000000000000001',
  },
  types: {
    Order: [
      { name: 'item', type: 'string' },
      { name: 'amount', type: 'uint256' },
    ],
  },
  primaryType: 'Order',
  message: { item: 'Coffee', amount: '3' },
}

const RECEIVER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SMART: Address = '0x1111111111111111111111111111111111111111'

/** Signs a one-request plan for `method`. */
const signOne = (
  method: Parameters<typeof signPlan>[0]['method'],
  request: SignRequest,
  person = keysOf(),
) => {
  const [signature] = signPlan({
    method,
    plan: [signRequest.parse(request)],
    keys: person.keys,
    ownAccounts: [SMART],
  })
  return { signature: signature as Hex, person }
}

/** 0.5 SOL from `from`, unsigned, as a page builds it. */
function transfer(from: string) {
  return new Transaction({
    feePayer: new PublicKey(from),
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
  }).add(
    SystemProgram.transfer({
      fromPubkey: new PublicKey(from),
      toPubkey: Keypair.generate().publicKey,
      lamports: 500_000_000,
    }),
  )
}

describe('signPlan: each kind', () => {
  test('evm-message: EIP-191 over the raw bytes, as viem verifies it', async () => {
    const message = stringToHex('Hello, wallet')
    const { signature, person } = signOne('personal_sign', { kind: 'evm-message', message })
    assert.equal(
      await verifyMessage({ address: person.account.address, message: { raw: message }, signature }),
      true,
    )
    assert.equal(signature, await person.account.signMessage({ message: { raw: message } }))
  })

  test('evm-typed-data: EIP-712, as viem verifies it', async () => {
    const { signature, person } = signOne('eth_signTypedData_v4', { kind: 'evm-typed-data', typedData: shop })
    const typed = {
      domain: { ...shop.domain, verifyingContract: shop.domain.verifyingContract as Address },
      types: shop.types,
      primaryType: 'Order',
      message: { item: 'Coffee', amount: 3n },
    } as const
    assert.equal(await verifyTypedData({ address: person.account.address, ...typed, signature }), true)
  })

  test('evm-transaction: the whole transaction, recovered by viem to the key’s address (the same bytes viem’s account signs)', async () => {
    const transaction = {
      type: 'eip1559' as const,
      chainId: 31337,
      nonce: 7,
      gas: '21000',
      to: RECEIVER,
      value: '1000',
      maxFeePerGas: '3000000000',
      maxPriorityFeePerGas: '2000000000',
    }
    const { signature, person } = signOne('eth_sendTransaction', { kind: 'evm-transaction', transaction })
    const raw = serializeTransaction(transactionOf(transaction), parseSignature(signature))
    assert.equal(await recoverTransactionAddress({ serializedTransaction: raw }), person.account.address)
    assert.equal(raw, await person.account.signTransaction(transactionOf(transaction)))
    const legacy = {
      type: 'legacy' as const,
      chainId: 31337,
      nonce: 0,
      gas: '21000',
      value: '1',
      gasPrice: '1000000000',
    }
    const second = signOne('eth_sendTransaction', { kind: 'evm-transaction', transaction: legacy }, person)
    const rawLegacy = serializeTransaction(transactionOf(legacy), parseSignature(second.signature))
    assert.equal(
      await recoverTransactionAddress({ serializedTransaction: rawLegacy }),
      person.account.address,
    )
  })

  test('evm-user-operation: the owner’s signature of viem’s getUserOperationHash (v0.8)', async () => {
    const userOperation = {
      sender: SMART,
      nonce: '0',
      callData: '0xb61d27f6',
      callGasLimit: '100000',
      verificationGasLimit: '200000',
      preVerificationGas: '50000',
      maxFeePerGas: '3000000000',
      maxPriorityFeePerGas: '1000000000',
    }
    const request = {
      kind: 'evm-user-operation',
      chainId: 31337,
      entryPoint: entryPoint08Address,
      userOperation,
    } as const
    const { signature, person } = signOne('eth_sendUserOperation', request)
    const hash = getUserOperationHash({
      chainId: 31337,
      entryPointAddress: entryPoint08Address,
      entryPointVersion: '0.8',
      userOperation: userOperationOf(userOperation),
    })
    assert.equal(await recoverAddress({ hash, signature }), person.account.address)
    // What WalletAccount's owner signs through viem (walletAccount.ts): the same typed data, the same signature.
    const typed = getUserOperationTypedData({
      chainId: 31337,
      entryPointAddress: entryPoint08Address,
      userOperation: userOperationOf(userOperation),
    })
    assert.equal(signature, await person.account.signTypedData(typed))
  })

  test('evm-account-message and evm-account-typed-data: the hash wrapped in the account’s replay-safe domain (ERC-1271)', async () => {
    const message = stringToHex('Sign in')
    const { signature, person } = signOne('personal_sign', {
      kind: 'evm-account-message',
      account: SMART,
      chainId: 31337,
      message,
    })
    const wrapped = replaySafeTypedData(SMART, 31337, hashMessage({ raw: message }))
    assert.equal(await verifyTypedData({ address: person.account.address, ...wrapped, signature }), true)
    const typed = signOne(
      'eth_signTypedData_v4',
      { kind: 'evm-account-typed-data', account: SMART, chainId: 31337, typedData: shop },
      person,
    )
    assert.equal(
      await verifyRequestSignature(
        { kind: 'evm-account-typed-data', account: SMART, chainId: 31337, typedData: shop },
        typed.signature,
        { evm: person.account.address, solana: person.solana },
      ),
      true,
    )
  })

  test('solana-message: raw ed25519 over the bytes, as Node’s crypto verifies it', () => {
    const bytes = new TextEncoder().encode('Sign in to the shop')
    const { signature, person } = signOne('solana_signMessage', {
      kind: 'solana-message',
      message: Buffer.from(bytes).toString('base64'),
    })
    const publicKey = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        x: Buffer.from(ed25519.getPublicKey(person.keys.ed25519)).toString('base64url'),
      },
      format: 'jwk',
    })
    assert.equal(verify(null, bytes, publicKey, hexToBytes(signature)), true)
  })

  test('solana-transaction: the message’s signature in its slot makes a transaction web3.js verifies', () => {
    const person = keysOf()
    const tx = transfer(person.solana)
    const message = tx.serializeMessage().toString('base64')
    const { signature } = signOne('solana_signTransaction', { kind: 'solana-transaction', message }, person)
    tx.addSignature(new PublicKey(person.solana), Buffer.from(hexToBytes(signature)))
    assert.equal(tx.verifySignatures(), true)
  })

  test('behavior: one signature per request, in order, each with its own curve', () => {
    const person = keysOf()
    const plan: SignPlan = [
      { kind: 'evm-message', message: '0x01' },
      { kind: 'evm-message', message: '0x02' },
    ]
    const signatures = signPlan({ method: 'personal_sign', plan, keys: person.keys, ownAccounts: [] })
    assert.equal(signatures.length, 2)
    assert.notEqual(signatures[0], signatures[1])
    assert.equal(evmAddressOf(person.keys.secp256k1), person.account.address)
  })
})

describe('signPlan: refusals, before any key signs', () => {
  const refuses = (method: Parameters<typeof signPlan>[0]['method'], request: SignRequest, message: string) =>
    assert.throws(() => signOne(method, request), { name: 'SigningRefusedError', message })

  test('error: a kind its method never signs (a message is never a transaction, a transaction never a message)', () => {
    const transaction = {
      type: 'legacy',
      chainId: 1,
      nonce: 0,
      gas: '21000',
      value: '0',
      gasPrice: '1',
    } as const
    refuses(
      'personal_sign',
      { kind: 'evm-transaction', transaction },
      kindNotAllowedMessage('evm-transaction', 'personal_sign'),
    )
    refuses(
      'eth_sendTransaction',
      { kind: 'evm-message', message: '0x01' },
      'eth_sendTransaction does not sign evm-message',
    )
    refuses(
      'solana_signMessage',
      { kind: 'solana-transaction', message: 'AA==' },
      'solana_signMessage does not sign solana-transaction',
    )
    refuses(
      'eth_signTypedData_v4',
      {
        kind: 'evm-user-operation',
        chainId: 1,
        entryPoint: entryPoint08Address,
        userOperation: {
          sender: SMART,
          nonce: '0',
          callData: '0x',
          callGasLimit: '1',
          verificationGasLimit: '1',
          preVerificationGas: '1',
          maxFeePerGas: '1',
          maxPriorityFeePerGas: '1',
        },
      },
      'eth_signTypedData_v4 does not sign evm-user-operation',
    )
  })

  test('error: typed data for the WalletAccount or EntryPoint domain, or the person’s own smart account', () => {
    const domains = [
      { name: 'WalletAccount', version: '1', chainId: 1, verifyingContract: RECEIVER },
      { name: 'ERC4337', version: '1' },
      { name: 'Shop', verifyingContract: entryPoint08Address },
      { name: 'Shop', verifyingContract: SMART.toLowerCase() },
    ]
    for (const domain of domains)
      refuses(
        'eth_signTypedData_v4',
        { kind: 'evm-typed-data', typedData: { ...shop, domain } },
        reservedDomainMessage,
      )
  })

  test('error: a smart-account signature for an account that is not the person’s, or a UserOperation for another EntryPoint', () => {
    const other = '0x2222222222222222222222222222222222222222'
    refuses(
      'personal_sign',
      { kind: 'evm-account-message', account: other, chainId: 1, message: '0x01' },
      foreignSmartAccountMessage,
    )
    refuses(
      'eth_signTypedData_v4',
      { kind: 'evm-account-typed-data', account: other, chainId: 1, typedData: shop },
      foreignSmartAccountMessage,
    )
    const userOperation = {
      sender: SMART,
      nonce: '0',
      callData: '0x',
      callGasLimit: '1',
      verificationGasLimit: '1',
      preVerificationGas: '1',
      maxFeePerGas: '1',
      maxPriorityFeePerGas: '1',
    }
    refuses(
      'eth_sendUserOperation',
      {
        kind: 'evm-user-operation',
        chainId: 1,
        entryPoint: entryPoint08Address,
        userOperation: { ...userOperation, sender: other },
      },
      foreignSmartAccountMessage,
    )
    refuses(
      'eth_sendUserOperation',
      { kind: 'evm-user-operation', chainId: 1, entryPoint: other, userOperation },
      foreignSmartAccountMessage,
    )
  })

  test('attack: a site makes the person’s smart account call itself (grant a key, run anything as it): refused, as a UserOperation or as the owner’s transaction', () => {
    // What the site wants the account to run as itself (grantSession's selector and a key, say).
    const inner: Hex = '0x12345678000000000000000000000000aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
    const execute = (target: Address) =>
      encodeFunctionData({ abi: walletAccountAbi, functionName: 'execute', args: [target, 0n, inner] })
    const batch = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'executeBatch',
      args: [
        [
          { target: RECEIVER, value: 1n, data: '0x' },
          { target: SMART, value: 0n, data: inner },
        ],
      ],
    })
    const operation = (callData: Hex) => ({
      kind: 'evm-user-operation' as const,
      chainId: 1,
      entryPoint: entryPoint08Address,
      userOperation: {
        sender: SMART,
        nonce: '0',
        callData,
        callGasLimit: '1',
        verificationGasLimit: '1',
        preVerificationGas: '1',
        maxFeePerGas: '1',
        maxPriorityFeePerGas: '1',
      },
    })
    refuses('wallet_sendCalls', operation(execute(SMART)), ownAccountCallMessage)
    refuses('eth_sendUserOperation', operation(batch), ownAccountCallMessage)
    // The owner (the EOA) may call execute on its account directly: a transaction with data to it is refused.
    const transaction = (to: Address, data?: Hex) => ({
      kind: 'evm-transaction' as const,
      transaction: {
        type: 'eip1559' as const,
        chainId: 1,
        nonce: 0,
        gas: '21000',
        maxFeePerGas: '1',
        maxPriorityFeePerGas: '1',
        to,
        value: '1',
        ...(data ? { data } : {}),
      },
    })
    refuses('eth_sendTransaction', transaction(SMART, execute(RECEIVER)), ownAccountCallMessage)
    // Still signed: a call to someone else, and value alone to the person's own account (funding it).
    assert.ok(signOne('wallet_sendCalls', operation(execute(RECEIVER))).signature)
    assert.ok(signOne('eth_sendTransaction', transaction(SMART)).signature)
  })

  test('error: Solana message bytes that a transaction could carry; transaction bytes that are no transaction message', () => {
    const message = transfer(Keypair.generate().publicKey.toBase58()).serializeMessage().toString('base64')
    refuses('solana_signMessage', { kind: 'solana-message', message }, transactionAsMessageMessage)
    const text = Buffer.from('hello').toString('base64')
    refuses('solana_signTransaction', { kind: 'solana-transaction', message: text }, notATransactionMessage)
  })

  test('error: one refused request and nothing of the plan is signed', () => {
    const person = keysOf()
    const plan: SignPlan = [
      { kind: 'evm-message', message: '0x01' },
      { kind: 'evm-typed-data', typedData: { ...shop, domain: { name: 'WalletAccount' } } },
    ]
    assert.throws(
      () => signPlan({ method: 'eth_signTypedData_v4', plan, keys: person.keys, ownAccounts: [] }),
      {
        message: kindNotAllowedMessage('evm-message', 'eth_signTypedData_v4'),
      },
    )
  })
})

describe('verifyRequestSignature', () => {
  test('error: another key’s signature, or a signature of another request, is not the person’s', async () => {
    const request: SignRequest = { kind: 'evm-message', message: '0x68656c6c6f' }
    const { signature, person } = signOne('personal_sign', request)
    const own = { evm: person.account.address, solana: person.solana }
    assert.equal(await verifyRequestSignature(request, signature, own), true)
    const stranger = signOne('personal_sign', request)
    assert.equal(await verifyRequestSignature(request, stranger.signature, own), false)
    assert.equal(
      await verifyRequestSignature({ kind: 'evm-message', message: '0x00' }, signature, own),
      false,
    )
    assert.equal(await verifyRequestSignature(request, '0x1234', own), false)
    const solanaRequest: SignRequest = { kind: 'solana-message', message: 'aGVsbG8=' }
    const solana = signOne('solana_signMessage', solanaRequest, person)
    assert.equal(await verifyRequestSignature(solanaRequest, solana.signature, own), true)
    assert.equal(
      await verifyRequestSignature({ kind: 'solana-message', message: 'aGk=' }, solana.signature, own),
      false,
    )
    const other = signOne('solana_signMessage', solanaRequest)
    assert.equal(await verifyRequestSignature(solanaRequest, other.signature, own), false)
  })
})
