import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  type Hex,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  stringToHex,
  type TransactionSerializedEIP1559,
} from 'viem'
import {
  answerWalletMethod,
  approvalHandlers,
  previewRequest,
  walletHandlers,
} from '../../../server/embedded/methods/index.ts'
import { reservedDomainMessage } from '../../../server/embedded/preview/typedData.ts'
import { approvalMethods, embeddedMessages } from '../../../src/protocol/embedded/index.ts'
import {
  chainFacts,
  EVM,
  executeRequest,
  newPerson,
  previewThenExecute,
  SOLANA,
  shopOrder,
} from './embedded-methods-helpers.ts'

// The EVM methods of the embedded wallet, each without HTTP: what is shown is what is signed.

const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/** The maximum fee per gas the scripted chain leads a transaction to: twice the base fee plus the tip. */
const maxFeePerGas = BigInt(chainFacts.baseFeePerGas) * 2n + BigInt(chainFacts.priorityFee)

describe('the method tables', () => {
  test('default: every approval method of the protocol has its handler, under its own name', () => {
    assert.deepEqual(Object.keys(approvalHandlers).sort(), [...approvalMethods].sort())
    for (const [method, handler] of Object.entries(approvalHandlers)) assert.equal(handler.method, method)
    for (const [method, handler] of Object.entries(walletHandlers)) assert.equal(handler?.method, method)
  })

  test('error: a method without a handler, or a wallet method on another namespace, is refused', async () => {
    const person = newPerson()
    const refused = { message: embeddedMessages.rpcNotAllowed }
    await assert.rejects(previewRequest(person.contextOn(EVM), 'eth_sign', []), refused)
    await assert.rejects(executeRequest(person.contextOn(EVM), 'toString', [], null), refused)
    await assert.rejects(answerWalletMethod(person.contextOn(EVM), 'eth_chainId', []), refused)
    await assert.rejects(answerWalletMethod(person.contextOn(SOLANA), 'eth_accounts', []), refused)
    await assert.rejects(answerWalletMethod(person.contextOn(EVM), 'solana_getAccounts', []), refused)
    assert.deepEqual(await answerWalletMethod(person.contextOn(EVM), 'eth_requestAccounts', []), [
      person.evm.address,
    ])
    assert.deepEqual(await answerWalletMethod(person.contextOn(SOLANA), 'solana_getAccounts', []), [
      { pubkey: person.solana },
    ])
  })
})

describe('personal_sign', () => {
  test('default: the text shown is what is signed, by the account’s key (as viem’s local account signs it)', async () => {
    const person = newPerson()
    const { shown, result } = await previewThenExecute(person.contextOn(EVM), 'personal_sign', [
      stringToHex('Hello, wallet'),
      person.evm.address,
    ])
    assert.deepEqual(shown, { from: person.evm.address, message: { text: 'Hello, wallet' } })
    assert.equal(result, await person.evm.signMessage({ message: shown.message?.text as string }))
    assert.deepEqual(person.opened, ['secp256k1'])
  })

  test('behavior: [address, message] as a few libraries send it; bytes that are not text are shown in hex', async () => {
    const person = newPerson()
    const bytes = '0x00ff10' as Hex
    const { shown, result } = await previewThenExecute(person.contextOn(EVM), 'personal_sign', [
      person.evm.address,
      bytes,
    ])
    assert.deepEqual(shown.message, { hex: bytes })
    assert.equal(result, await person.evm.signMessage({ message: { raw: shown.message?.hex as Hex } }))
  })

  test('error: bad params, or another account named: refused before anything is signed', async () => {
    const person = newPerson()
    const ctx = person.contextOn(EVM)
    await assert.rejects(previewRequest(ctx, 'personal_sign', ['only one']), {
      message: 'Invalid params of personal_sign',
    })
    await assert.rejects(previewRequest(ctx, 'personal_sign', ['0x68656c6c6f', RECEIVER]), {
      message: 'The request names an account this wallet does not hold',
    })
    assert.deepEqual(person.opened, [])
  })
})

describe('eth_signTypedData_v4', () => {
  const order = shopOrder

  test('default: the declared fields shown are the EIP-712 data signed', async () => {
    const person = newPerson()
    const { shown, result } = await previewThenExecute(person.contextOn(EVM), 'eth_signTypedData_v4', [
      person.evm.address,
      JSON.stringify(order),
    ])
    assert.equal(shown.from, person.evm.address)
    assert.equal(shown.typedData?.primaryType, 'Order')
    assert.deepEqual(shown.typedData?.fields, [
      { name: 'item', value: 'Coffee' },
      { name: 'amount', value: '3' },
    ])
    const { EIP712Domain: _, ...types } = order.types
    // Signed by viem's local account from the rows shown: the same signature.
    const field = (name: string) => shown.typedData?.fields.find((row) => row.name === name)?.value ?? ''
    const message = { item: field('item'), amount: BigInt(field('amount')) }
    const expected = await person.evm.signTypedData({ ...order, types, message })
    assert.equal(result, expected)
  })

  test('error: not JSON, bad params, and a domain of the wallet’s own accounts are refused', async () => {
    const person = newPerson()
    const ctx = person.contextOn(EVM)
    await assert.rejects(previewRequest(ctx, 'eth_signTypedData_v4', [person.evm.address, '{']), {
      message: 'The typed data is not JSON',
    })
    await assert.rejects(previewRequest(ctx, 'eth_signTypedData_v4', ['not an address', '{}']), {
      message: 'Invalid params of eth_signTypedData_v4',
    })
    const walletAccount = { ...order, domain: { ...order.domain, name: 'WalletAccount' } }
    const reserved = { message: reservedDomainMessage }
    await assert.rejects(
      previewRequest(ctx, 'eth_signTypedData_v4', [person.evm.address, JSON.stringify(walletAccount)]),
      reserved,
    )
    // Stored anyway (as a row written by hand would be): the key still refuses it where it signs.
    await assert.rejects(
      executeRequest(ctx, 'eth_signTypedData_v4', [person.evm.address, JSON.stringify(walletAccount)], null),
      reserved,
    )
    assert.deepEqual(person.opened, [])
  })
})

/** The sent transaction, decoded, and who signed it. */
async function decodeSent(raw: Hex) {
  const tx = parseTransaction(raw)
  const from = await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerializedEIP1559 })
  return { tx, from }
}

describe('eth_sendTransaction', () => {
  test('default: receiver, amount and fee shown are those of the transaction signed and sent', async () => {
    const person = newPerson()
    const { shown, result } = await previewThenExecute(person.contextOn(EVM), 'eth_sendTransaction', [
      { from: person.evm.address, to: RECEIVER, value: '0xde0b6b3a7640000' },
    ])
    assert.deepEqual(shown.transfers, [{ to: RECEIVER, value: '1000000000000000000', dataBytes: 0 }])
    assert.equal(shown.fee, (BigInt(chainFacts.gas) * maxFeePerGas).toString())
    const [raw] = person.upstream.sent
    assert.ok(raw)
    assert.equal(result, keccak256(raw))
    const { tx, from } = await decodeSent(raw)
    assert.equal(from, person.evm.address)
    assert.equal(tx.to?.toLowerCase(), shown.transfers?.[0]?.to.toLowerCase())
    assert.equal(tx.value?.toString(), shown.transfers?.[0]?.value)
    assert.equal(((tx.gas ?? 0n) * (tx.maxFeePerGas ?? 0n)).toString(), shown.fee)
    assert.equal(tx.nonce, chainFacts.nonce)
    assert.equal(tx.chainId, 31337)
  })

  test('error: bad params, or a transaction from another account, are refused before a fee is estimated', async () => {
    const person = newPerson()
    const ctx = person.contextOn(EVM)
    await assert.rejects(previewRequest(ctx, 'eth_sendTransaction', [{ from: 'me', to: RECEIVER }]), {
      message: 'Invalid params of eth_sendTransaction',
    })
    await assert.rejects(previewRequest(ctx, 'eth_sendTransaction', [{ from: RECEIVER, to: RECEIVER }]), {
      message: 'The request names an account this wallet does not hold',
    })
    assert.equal(person.upstream.calls.length, 0)
  })
})

describe('wallet_sendCalls and wallet_getCallsStatus', () => {
  test('default: each call shown is sent, one after another with the next nonce; the status reports them', async () => {
    const person = newPerson()
    const ctx = person.contextOn(EVM)
    const calls = [
      { to: RECEIVER, value: '0x2386f26fc10000' },
      { to: TOKEN, data: '0x12345678' },
    ]
    const { shown, result } = await previewThenExecute(ctx, 'wallet_sendCalls', [
      { version: '2.0.0', chainId: '0x7a69', from: person.evm.address, calls },
    ])
    assert.deepEqual(
      shown.transfers?.map(({ to, value, dataBytes }) => ({ to, value, dataBytes })),
      [
        { to: RECEIVER, value: '10000000000000000', dataBytes: 0 },
        { to: TOKEN, value: '0', dataBytes: 4 },
      ],
    )
    assert.equal(shown.fee, (2n * BigInt(chainFacts.gas) * maxFeePerGas).toString())
    const sent = await Promise.all(person.upstream.sent.map(decodeSent))
    assert.deepEqual(
      sent.map(({ tx, from }) => [
        from,
        tx.to?.toLowerCase(),
        String(tx.value ?? 0n),
        tx.data ?? '0x',
        tx.nonce,
      ]),
      [
        [person.evm.address, RECEIVER.toLowerCase(), '10000000000000000', '0x', chainFacts.nonce],
        [person.evm.address, TOKEN.toLowerCase(), '0', '0x12345678', chainFacts.nonce + 1],
      ],
    )
    const { id } = result as { id: Hex }
    const status = (await answerWalletMethod(ctx, 'wallet_getCallsStatus', [id])) as Record<string, unknown>
    assert.deepEqual(
      { ...status, receipts: undefined },
      {
        version: '2.0.0',
        id,
        chainId: '0x7a69',
        status: 200,
        atomic: false,
        receipts: undefined,
      },
    )
  })

  test('error: atomic batches, another chain, bad params and an unknown batch id are refused', async () => {
    const person = newPerson()
    const ctx = person.contextOn(EVM)
    const calls = [{ to: RECEIVER, value: '0x1' }]
    await assert.rejects(previewRequest(ctx, 'wallet_sendCalls', [{ calls, atomicRequired: true }]), {
      message: 'This wallet sends calls one after another, not atomically',
    })
    await assert.rejects(previewRequest(ctx, 'wallet_sendCalls', [{ calls, chainId: '0x1' }]), {
      message: "The calls are for another chain than the wallet's network",
    })
    await assert.rejects(previewRequest(ctx, 'wallet_sendCalls', [{ calls: [] }]), {
      message: 'Invalid params of wallet_sendCalls',
    })
    // EIP-5792: a capability the wallet does not honour refuses the batch unless the dapp marked it optional.
    const funds = { auxiliaryFunds: { supported: true } }
    await assert.rejects(previewRequest(ctx, 'wallet_sendCalls', [{ calls, capabilities: funds }]), {
      message: 'Unsupported non-optional capability: auxiliaryFunds',
    })
    const optional = { auxiliaryFunds: { supported: true, optional: true } }
    assert.ok(await previewRequest(ctx, 'wallet_sendCalls', [{ calls, capabilities: optional }]))
    await assert.rejects(answerWalletMethod(ctx, 'wallet_getCallsStatus', ['0x01']), {
      message: 'No matching bundle found',
    })
    await assert.rejects(answerWalletMethod(ctx, 'wallet_getCallsStatus', ['an id']), {
      message: 'Invalid params of wallet_getCallsStatus',
    })
  })
})

describe('eth_sendUserOperation, capabilities and assets on an EOA', () => {
  test('error: an EOA has no UserOperations: Not available, whatever the params', async () => {
    const person = newPerson()
    await assert.rejects(previewRequest(person.contextOn(EVM), 'eth_sendUserOperation', ['anything']), {
      message: embeddedMessages.notAvailable,
    })
  })

  test('default: capabilities say no atomic batches; assets list the native balance of the own account only', async () => {
    const person = newPerson()
    const ctx = person.contextOn(EVM)
    assert.deepEqual(await answerWalletMethod(ctx, 'wallet_getCapabilities', []), {
      '0x7a69': { atomic: { status: 'unsupported' } },
    })
    const assets = (await answerWalletMethod(ctx, 'wallet_getAssets', [
      { account: person.evm.address },
    ])) as Record<string, { balance: string }[]>
    assert.equal(assets['0x7a69']?.[0]?.balance, '0xde0b6b3a7640000')
    await assert.rejects(answerWalletMethod(ctx, 'wallet_getAssets', [{ account: RECEIVER }]), {
      message: 'The request names an account this wallet does not hold',
    })
    await assert.rejects(answerWalletMethod(ctx, 'wallet_getAssets', []), {
      message: 'Invalid params of wallet_getAssets',
    })
  })
})
