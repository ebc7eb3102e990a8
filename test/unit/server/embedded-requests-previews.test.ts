// What the approval shows against what is signed: attacks, decoded previews and the fee in dollars.
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import type { Address } from 'viem'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { approvalResponse } from '../../../src/protocol/embedded/index.ts'
import { type EmbeddedTestApp, startEmbeddedTestApp } from './embedded-helpers.ts'
import { signInWithKeys } from './embedded-keys-helpers.ts'
import {
  approved,
  chain,
  EVM,
  errorOf,
  evmAddress,
  SOLANA,
  session,
  solana,
  solanaAddress,
  startRequestsWallet,
  t,
  testDb,
} from './embedded-requests-helpers.ts'

startRequestsWallet()

describe('attacks on what is shown and what is signed', () => {
  const permitTypes = {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  }
  const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
  const spender = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const permit = () => ({
    domain: { name: 'USD Coin', version: '2', chainId: 31337, verifyingContract: token },
    types: permitTypes,
    primaryType: 'Permit',
    message: {
      owner: evmAddress(),
      spender,
      value: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      nonce: '0',
      deadline: '1893456000',
    },
  })
  const create = (chainId: string, method: string, params: unknown) =>
    t.call('/embedded/v1/requests', { chainId, method, params }, { token: session.token })

  test('attack: a Permit padded with 70 decoy keys before its fields is refused, not shown without spender and value', async () => {
    const padded = permit()
    const decoys = Object.fromEntries(
      Array.from({ length: 70 }, (_, index) => [`note${index}`, 'Claim your reward']),
    )
    const answer = await create(EVM, 'eth_signTypedData_v4', [
      evmAddress(),
      JSON.stringify({ ...padded, message: { ...decoys, ...padded.message } }),
    ])
    assert.equal(answer.status, 400, JSON.stringify(answer.body))
    assert.match(errorOf(answer.body).message, /fields Permit does not declare: note0/)
  })

  test('default: a Permit is shown from its declared types: token (domain), spender, value, in declared order', async () => {
    const typed = permit()
    const { preview } = approvalResponse.parse(
      (await create(EVM, 'eth_signTypedData_v4', [evmAddress(), JSON.stringify(typed)])).body,
    )
    assert.deepEqual(preview.typedData?.domain, [
      { name: 'name', value: 'USD Coin' },
      { name: 'version', value: '2' },
      { name: 'chainId', value: '31337' },
      { name: 'verifyingContract', value: token },
    ])
    assert.deepEqual(
      preview.typedData?.fields.map((row) => row.name),
      ['owner', 'spender', 'value', 'nonce', 'deadline'],
    )
    assert.equal(preview.typedData?.fields[1]?.value, spender)
    assert.equal(preview.typedData?.fields[2]?.value, typed.message.value)
  })

  test('attack: typed data too long to show in full, or with undeclared domain or nested keys, is refused', async () => {
    const long = {
      domain: { name: 'Airdrop', chainId: 31337 },
      types: {
        Claim: [{ name: 'notes', type: 'string[]' }],
      },
      primaryType: 'Claim',
      message: { notes: Array.from({ length: 250 }, () => 'x') },
    }
    const tooLong = await create(EVM, 'eth_signTypedData_v4', [evmAddress(), JSON.stringify(long)])
    assert.equal(tooLong.status, 400)
    assert.match(errorOf(tooLong.body).message, /too long to show in full/)

    const nested = {
      domain: { name: 'Mail', chainId: 31337, extra: 'not signed' },
      types: { Mail: [{ name: 'to', type: 'Person' }], Person: [{ name: 'wallet', type: 'address' }] },
      primaryType: 'Mail',
      message: { to: { wallet: spender } },
    }
    const domainExtra = await create(EVM, 'eth_signTypedData_v4', [evmAddress(), JSON.stringify(nested)])
    assert.match(errorOf(domainExtra.body).message, /domain has fields that are not signed: extra/)
    const { extra: _, ...domain } = nested.domain
    const nestedExtra = await create(EVM, 'eth_signTypedData_v4', [
      evmAddress(),
      JSON.stringify({ ...nested, domain, message: { to: { wallet: spender, name: 'Friend' } } }),
    ])
    assert.match(errorOf(nestedExtra.body).message, /to has fields Person does not declare: name/)
  })

  test('attack: a UserOperation, or a WalletAccount message, as eth_signTypedData_v4 is refused', async () => {
    const { entryPoint08Address } = await import('viem/account-abstraction')
    const userOperation = {
      domain: { name: 'ERC4337', version: '1', chainId: 31337, verifyingContract: entryPoint08Address },
      types: {
        PackedUserOperation: [
          { name: 'sender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'initCode', type: 'bytes' },
          { name: 'callData', type: 'bytes' },
          { name: 'accountGasLimits', type: 'bytes32' },
          { name: 'preVerificationGas', type: 'uint256' },
          { name: 'gasFees', type: 'bytes32' },
          { name: 'paymasterAndData', type: 'bytes' },
        ],
      },
      primaryType: 'PackedUserOperation',
      message: {
        sender: spender,
        nonce: '0',
        initCode: '0x',
        callData: '0x',
        accountGasLimits: `0x${'00'.repeat(32)}`,
        preVerificationGas: '0',
        gasFees: `0x${'00'.repeat(32)}`,
        paymasterAndData: '0x',
      },
    }
    const asTypedData = await create(EVM, 'eth_signTypedData_v4', [evmAddress(), userOperation])
    assert.equal(asTypedData.status, 403)
    assert.match(errorOf(asTypedData.body).message, /EntryPoint/)
    // Renamed domain, same EntryPoint: still refused.
    const renamed = await create(EVM, 'eth_signTypedData_v4', [
      evmAddress(),
      { ...userOperation, domain: { ...userOperation.domain, name: 'Innocent' } },
    ])
    assert.equal(renamed.status, 403)
    const accountMessage = await create(EVM, 'eth_signTypedData_v4', [
      evmAddress(),
      {
        domain: { name: 'WalletAccount', version: '1', chainId: 31337, verifyingContract: spender },
        types: { WalletAccountMessage: [{ name: 'hash', type: 'bytes32' }] },
        primaryType: 'WalletAccountMessage',
        message: { hash: `0x${'11'.repeat(32)}` },
      },
    ])
    assert.equal(accountMessage.status, 403)
  })

  test('attack: a serialized SOL transfer "signed as a message" is refused (its message bytes and the whole transaction)', async () => {
    const { encodeBase58 } = await import('../../../src/protocol/siwx/base58.ts')
    const tx = new Transaction({
      feePayer: new PublicKey(solanaAddress()),
      recentBlockhash: encodeBase58(new Uint8Array(32).fill(7)),
    }).add(
      SystemProgram.transfer({
        fromPubkey: new PublicKey(solanaAddress()),
        toPubkey: solana.devKeys[1]?.publicKey as PublicKey,
        lamports: 2_000_000_000,
      }),
    )
    const message = new Uint8Array(tx.serializeMessage())
    const whole = new Uint8Array(tx.serialize({ requireAllSignatures: false, verifySignatures: false }))
    // With bytes after the message too: the runtime verifies the signature over the packet's rest.
    const trailing = new Uint8Array([...message, ...new TextEncoder().encode(' hello')])
    for (const bytes of [message, whole, trailing]) {
      const answer = await create(SOLANA, 'solana_signMessage', {
        message: encodeBase58(bytes),
        pubkey: solanaAddress(),
      })
      assert.equal(answer.status, 400, JSON.stringify(answer.body))
      assert.match(errorOf(answer.body).message, /a Solana transaction, not a message/)
    }
  })
})

describe('previews decoded from what will be signed', () => {
  const create = (chainId: string, method: string, params: unknown) =>
    t.call('/embedded/v1/requests', { chainId, method, params }, { token: session.token })

  test('attack: approve(spender, max) is not "To: token, 0 ETH, Data: 68 bytes": it is decoded, unlimited, with a warning; unknown data stays undecoded', async () => {
    const { encodeFunctionData, erc20Abi, maxUint256 } = await import('viem')
    const spender = devAccount(2).address
    const tokenAddress = devAccount(3).address // no code: read as ERC-20 without metadata
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] })
    const answer = await create(EVM, 'eth_sendTransaction', [{ from: evmAddress(), to: tokenAddress, data }])
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const { preview } = approvalResponse.parse(answer.body)
    assert.deepEqual(preview.transfers?.[0]?.action, {
      standard: 'ERC-20',
      name: 'approve',
      contract: tokenAddress,
      fields: [
        { label: 'spender', address: spender },
        { label: 'amount', amount: maxUint256.toString(), unlimited: true },
      ],
      warnings: ['unlimitedApproval'],
    })
    const unknown = approvalResponse.parse(
      (
        await create(EVM, 'eth_sendTransaction', [
          { from: evmAddress(), to: tokenAddress, data: '0xdeadbeef01' },
        ])
      ).body,
    )
    assert.equal(unknown.preview.transfers?.[0]?.action, undefined)
    assert.equal(unknown.preview.transfers?.[0]?.dataBytes, 5)
  })

  test('attack: an SPL Approve, an SPL SetAuthority, a System Assign and an unknown program are each shown with a warning', async () => {
    const spl = await import('@solana/spl-token')
    const { encodeBase58 } = await import('../../../src/protocol/siwx/base58.ts')
    const { Keypair, TransactionInstruction } = await import('@solana/web3.js')
    const owner = new PublicKey(solanaAddress())
    const [tokenAccount, attacker, unknownProgram] = [1, 2, 3].map(() => Keypair.generate().publicKey) as [
      PublicKey,
      PublicKey,
      PublicKey,
    ]
    const tx = new Transaction({
      feePayer: owner,
      recentBlockhash: encodeBase58(new Uint8Array(32).fill(9)),
    }).add(
      spl.createApproveInstruction(tokenAccount, attacker, owner, 2n ** 64n - 1n),
      spl.createSetAuthorityInstruction(tokenAccount, owner, spl.AuthorityType.AccountOwner, attacker),
      SystemProgram.assign({ accountPubkey: owner, programId: unknownProgram }),
      new TransactionInstruction({ programId: unknownProgram, keys: [], data: Buffer.from([1, 2, 3]) }),
    )
    const transaction = tx
      .serialize({ requireAllSignatures: false, verifySignatures: false })
      .toString('base64')
    const answer = await create(SOLANA, 'solana_signTransaction', { transaction })
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const { preview } = approvalResponse.parse(answer.body)
    assert.deepEqual(
      preview.instructions?.map((action) => [action.standard, action.name, action.warnings]),
      [
        ['SPL Token', 'Approve', ['delegate', 'unlimitedApproval']],
        ['SPL Token', 'SetAuthority', ['setAuthority']],
        ['System', 'Assign', ['assign']],
      ],
    )
    const approve = preview.instructions?.[0]
    assert.deepEqual(approve?.fields, [
      { label: 'account', address: tokenAccount.toBase58() },
      { label: 'delegate', address: attacker.toBase58() },
      { label: 'owner', address: owner.toBase58() },
      { label: 'amount', amount: (2n ** 64n - 1n).toString(), unlimited: true },
    ])
    assert.deepEqual(preview.instructions?.[1]?.fields.slice(2), [
      { label: 'authorityType', text: 'AccountOwner' },
      { label: 'newAuthority', address: attacker.toBase58() },
    ])
    assert.deepEqual(preview.programs, [unknownProgram.toBase58()])
    assert.deepEqual(preview.transfers, [])
  })
})

describe('the fee with its value in dollars', () => {
  let priced: EmbeddedTestApp
  let prices: Server
  const asked: string[] = []

  before(async () => {
    // The operator's price source (PRICE_SOURCE_URL), on loopback: ETH at $3,000 on the local chain.
    prices = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://prices')
      asked.push(`${url.searchParams.get('chainId')} ${url.searchParams.get('addresses')}`)
      const known = url.searchParams.get('chainId') === EVM ? { native: 3000 } : {}
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ prices: known }))
    })
    await new Promise<void>((resolve) => prices.listen(0, '127.0.0.1', resolve))
    const { port } = prices.address() as AddressInfo
    priced = await startEmbeddedTestApp(testDb, 'priced-project', {
      rpcUpstreams: { [EVM]: chain.url, [SOLANA]: solana.url },
      priceSourceUrl: `http://127.0.0.1:${port}/usd`,
    })
  })
  after(async () => {
    await priced?.close()
    await new Promise((resolve) => prices?.close(resolve))
  })

  test('behavior: eth_sendTransaction’s preview carries the fee’s USD value from the price source the Account view uses', async () => {
    const signedIn = await signInWithKeys(priced, `priced.${Date.now()}@example.com`)
    const from = signedIn.user.accounts.eip155.address as Address
    const created = await priced.call(
      '/embedded/v1/requests',
      {
        chainId: EVM,
        method: 'eth_sendTransaction',
        // Nothing sent: this account holds no ETH, and the preview is all that is looked at.
        params: [{ from, to: devAccount(5).address }],
      },
      { token: signedIn.token },
    )
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const { preview } = approvalResponse.parse(created.body)
    const fee = BigInt(preview.fee ?? 0)
    assert.ok(fee > 0n)
    assert.ok(preview.feeUsd !== undefined, 'the fee has a value in dollars')
    assert.ok(Math.abs(preview.feeUsd - (Number(fee) / 1e18) * 3000) < 1e-9, String(preview.feeUsd))
    assert.ok(asked.includes(`${EVM} native`), asked.join('; '))
  })

  test('behavior: no price known (no source, or none for the network): the fee alone, never a made-up value', async () => {
    const { preview } = await approved(EVM, 'eth_sendTransaction', [
      { from: evmAddress(), to: devAccount(5).address, value: '0x1' },
    ])
    assert.ok(BigInt(preview.fee ?? 0) > 0n)
    assert.equal(preview.feeUsd, undefined)
  })
})
