import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseEther,
  stringToHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { type LocalSolana, startSolana } from '../../../server/dev/solana/index.ts'
import {
  approvalResponse,
  embeddedErrorBody,
  type SessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import { decodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import { type EmbeddedTestApp, signInByEmail, startEmbeddedTestApp } from './embedded-helpers.ts'
import { shopOrder } from './embedded-methods-helpers.ts'
import { freePort, openTestDatabase, type TestDatabase } from './helpers.ts'

const EVM = 'eip155:31337'
const SOLANA = 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9'

let testDb: TestDatabase
let t: EmbeddedTestApp
let chain: LocalChain
let solana: LocalSolana
let session: SessionResponse
let other: SessionResponse

const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error

const signIn = (email: string) => signInByEmail(t, email)

before(async () => {
  const port = await freePort()
  ;[testDb, chain, solana] = await Promise.all([
    openTestDatabase('embedded_requests'),
    startChain({ port, chainId: 31337 }),
    startSolana({ port: 0 }),
  ])
  t = await startEmbeddedTestApp(testDb, 'requests-project', {
    rpcUpstreams: { [EVM]: chain.url, [SOLANA]: solana.url },
  })
  session = await signIn(`signer.${Date.now()}@example.com`)
  other = await signIn(`other.${Date.now()}@example.com`)
})
after(async () => {
  await t?.close()
  await Promise.all([testDb?.close(), chain?.stop(), solana?.stop()])
})

const evmAddress = () => session.user.accounts.eip155.address as Address
const solanaAddress = () => session.user.accounts.solana.address

/** Stores a request, then approves it as the person would in the frame. */
async function approved(chainId: string, method: string, params: unknown, token = session.token) {
  const created = await t.call('/embedded/v1/requests', { chainId, method, params }, { token })
  assert.equal(created.status, 200, JSON.stringify(created.body))
  const { id, preview } = approvalResponse.parse(created.body)
  const answer = await t.call(`/embedded/v1/requests/${id}/approve`, {}, { token })
  return { id, preview, answer }
}

describe('requests that need approval (signed in the service)', () => {
  test('default: personal_sign shows the message text and signs it with the account’s key', async () => {
    const { preview, answer } = await approved(EVM, 'personal_sign', [
      stringToHex('Hello, wallet'),
      evmAddress(),
    ])
    assert.deepEqual(preview.message, { text: 'Hello, wallet' })
    assert.equal(preview.network.name, 'Local Chain')
    assert.equal(preview.from, evmAddress())
    const signature = answer.body.result as Hex
    assert.ok(await verifyMessage({ address: evmAddress(), message: 'Hello, wallet', signature }))
  })

  test('default: eth_signTypedData_v4 shows the domain and fields and signs the EIP-712 hash', async () => {
    const typedData = shopOrder
    const { preview, answer } = await approved(EVM, 'eth_signTypedData_v4', [
      evmAddress(),
      JSON.stringify(typedData),
    ])
    assert.deepEqual(preview.typedData?.fields, [
      { name: 'item', value: 'Coffee' },
      { name: 'amount', value: '3' },
    ])
    assert.ok(preview.typedData?.domain.some((row) => row.name === 'name' && row.value === 'Shop'))
    const { EIP712Domain: _, ...types } = typedData.types
    assert.ok(
      await verifyTypedData({
        address: evmAddress(),
        domain: typedData.domain,
        types,
        primaryType: 'Order',
        message: { item: 'Coffee', amount: 3n },
        signature: answer.body.result as Hex,
      }),
    )
    // Typed data for another chain is refused before anything is shown.
    const wrongChain = await t.call(
      '/embedded/v1/requests',
      {
        chainId: EVM,
        method: 'eth_signTypedData_v4',
        params: [evmAddress(), JSON.stringify({ ...typedData, domain: { ...typedData.domain, chainId: 1 } })],
      },
      { token: session.token },
    )
    assert.equal(wrongChain.status, 400)
  })

  test('default: eth_sendTransaction shows receiver, amount and fee; approving sends it on the chain', async () => {
    const client = createWalletClient({ account: devAccount(0), transport: http(chain.url) })
    const publicClient = createPublicClient({ transport: http(chain.url) })
    await publicClient.waitForTransactionReceipt({
      hash: await client.sendTransaction({ to: evmAddress(), value: parseEther('5'), chain: null }),
    })
    const receiver = devAccount(5).address
    const before = await publicClient.getBalance({ address: receiver })
    const { preview, answer } = await approved(EVM, 'eth_sendTransaction', [
      { from: evmAddress(), to: receiver, value: `0x${parseEther('1').toString(16)}` },
    ])
    assert.deepEqual(preview.transfers, [{ to: receiver, value: parseEther('1').toString(), dataBytes: 0 }])
    assert.ok(BigInt(preview.fee ?? 0) > 0n)
    const receipt = await publicClient.waitForTransactionReceipt({ hash: answer.body.result as Hex })
    assert.equal(receipt.status, 'success')
    assert.equal(await publicClient.getBalance({ address: receiver }), before + parseEther('1'))
  })

  test('default: wallet_sendCalls sends the calls one after another; getCallsStatus reports them by id', async () => {
    const receivers = [devAccount(6).address, devAccount(7).address]
    const { preview, answer } = await approved(EVM, 'wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        from: evmAddress(),
        atomicRequired: false,
        calls: receivers.map((to) => ({ to, value: '0x1000' })),
      },
    ])
    assert.equal(preview.transfers?.length, 2)
    const { id } = answer.body.result as { id: Hex }
    let status: { status: number; receipts: unknown[]; atomic: boolean } | undefined
    for (let attempt = 0; attempt < 50; attempt++) {
      const response = await t.call(
        '/embedded/v1/rpc',
        { chainId: EVM, method: 'wallet_getCallsStatus', params: [id] },
        { token: session.token },
      )
      status = response.body.result as typeof status
      if (status?.status !== 100) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.equal(status?.status, 200)
    assert.equal(status?.atomic, false)
    assert.equal(status?.receipts.length, 2)
    // Another user cannot read this batch.
    const foreign = await t.call(
      '/embedded/v1/rpc',
      { chainId: EVM, method: 'wallet_getCallsStatus', params: [id] },
      { token: other.token },
    )
    assert.equal(errorOf(foreign.body).rpcCode, 5730)
    const atomic = await t.call(
      '/embedded/v1/requests',
      {
        chainId: EVM,
        method: 'wallet_sendCalls',
        params: [{ atomicRequired: true, calls: [{ to: receivers[0] }] }],
      },
      { token: session.token },
    )
    assert.equal(errorOf(atomic.body).rpcCode, 5760)
  })

  test('default: Solana messages and transactions: the transfer is shown in plain words, then signed and sent', async () => {
    const message = new TextEncoder().encode('Hello, Solana')
    const { encodeBase58 } = await import('../../../src/protocol/siwx/base58.ts')
    const signed = await approved(SOLANA, 'solana_signMessage', {
      message: encodeBase58(message),
      pubkey: solanaAddress(),
    })
    assert.deepEqual(signed.preview.message, { text: 'Hello, Solana' })
    const signature = decodeBase58((signed.answer.body.result as { signature: string }).signature)
    const publicKey = decodeBase58(solanaAddress())
    assert.ok(signature && publicKey && ed25519.verify(signature, message, publicKey))

    const rpc = async (method: string, params: unknown[]) => {
      const response = await fetch(solana.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
      return ((await response.json()) as { result: unknown }).result
    }
    await rpc('requestAirdrop', [solanaAddress(), 2_000_000_000])
    const { value } = (await rpc('getLatestBlockhash', [{ commitment: 'confirmed' }])) as {
      value: { blockhash: string }
    }
    const receiver = solana.devKeys[1]?.publicKey as PublicKey
    const before = (
      (await rpc('getBalance', [receiver.toBase58(), { commitment: 'confirmed' }])) as { value: number }
    ).value
    const tx = new Transaction({
      feePayer: new PublicKey(solanaAddress()),
      recentBlockhash: value.blockhash,
    }).add(
      SystemProgram.transfer({
        fromPubkey: new PublicKey(solanaAddress()),
        toPubkey: receiver,
        lamports: 500_000_000,
      }),
    )
    const transaction = tx
      .serialize({ requireAllSignatures: false, verifySignatures: false })
      .toString('base64')
    const sent = await approved(SOLANA, 'solana_signAndSendTransaction', { transaction })
    assert.deepEqual(sent.preview.transfers, [{ to: receiver.toBase58(), value: '500000000', dataBytes: 0 }])
    assert.deepEqual(sent.preview.programs, [])
    assert.equal(sent.preview.fee, '5000')
    assert.match(
      (sent.answer.body.result as { signature: string }).signature,
      /^[1-9A-HJ-NP-Za-km-z]{86,88}$/,
    )
    let after = before
    for (let attempt = 0; attempt < 50 && after === before; attempt++) {
      after = (
        (await rpc('getBalance', [receiver.toBase58(), { commitment: 'confirmed' }])) as { value: number }
      ).value
      if (after === before) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.equal(after, before + 500_000_000)
  })

  test('error: rejected, replayed, expired and foreign requests are not signed', async () => {
    const params = [stringToHex('no'), evmAddress()]
    const created = approvalResponse.parse(
      (
        await t.call(
          '/embedded/v1/requests',
          { chainId: EVM, method: 'personal_sign', params },
          { token: session.token },
        )
      ).body,
    )
    assert.equal(
      (await t.call(`/embedded/v1/requests/${created.id}/reject`, {}, { token: session.token })).status,
      204,
    )
    const afterReject = await t.call(
      `/embedded/v1/requests/${created.id}/approve`,
      {},
      { token: session.token },
    )
    assert.equal(errorOf(afterReject.body).message, 'Action not allowed')

    const { id } = await approved(EVM, 'personal_sign', params)
    const replay = await t.call(`/embedded/v1/requests/${id}/approve`, {}, { token: session.token })
    assert.equal(errorOf(replay.body).message, 'Action not allowed')

    const stolen = approvalResponse.parse(
      (
        await t.call(
          '/embedded/v1/requests',
          { chainId: EVM, method: 'personal_sign', params },
          { token: session.token },
        )
      ).body,
    )
    const byOther = await t.call(`/embedded/v1/requests/${stolen.id}/approve`, {}, { token: other.token })
    assert.equal(errorOf(byOther.body).message, 'Action not allowed')
    const noSession = await t.call(`/embedded/v1/requests/${stolen.id}/approve`, {})
    assert.equal(noSession.status, 401)

    const foreignFrom = await t.call(
      '/embedded/v1/requests',
      { chainId: EVM, method: 'personal_sign', params: [stringToHex('x'), devAccount(0).address] },
      { token: session.token },
    )
    assert.equal(errorOf(foreignFrom.body).rpcCode, 4100)
  })
})

describe('reads, wallet methods and refusals', () => {
  test('default: safe reads go to the chain; capabilities are empty for an EOA; assets list the native balance', async () => {
    const block = await t.call(
      '/embedded/v1/rpc',
      { chainId: EVM, method: 'eth_blockNumber', params: [] },
      { token: session.token },
    )
    assert.match(String(block.body.result), /^0x[0-9a-f]+$/)
    const capabilities = await t.call(
      '/embedded/v1/rpc',
      { chainId: EVM, method: 'wallet_getCapabilities', params: [evmAddress()] },
      { token: session.token },
    )
    // An EOA sends batches one after another: atomic is unsupported on each EVM network.
    assert.deepEqual(capabilities.body.result, { '0x7a69': { atomic: { status: 'unsupported' } } })
    const assets = await t.call(
      '/embedded/v1/rpc',
      {
        chainId: EVM,
        method: 'wallet_getAssets',
        params: [{ account: evmAddress(), chainFilter: ['0x7a69'] }],
      },
      { token: session.token },
    )
    const native = (
      assets.body.result as Record<string, { address: string; balance: string; type: string }[]>
    )['0x7a69']
    assert.equal(native?.[0]?.address, 'native')
    assert.ok(BigInt(native?.[0]?.balance ?? 0) > 0n)
  })

  test('behavior: reads and status polls from one client count against the RPC limit (a second), not the 20 a minute of routes that write', async () => {
    // A page polling a batch's status (viem's waitForCallsStatus) makes dozens of calls a minute.
    const ip = '10.99.0.1'
    const statuses: number[] = []
    for (let call = 0; call < 30; call++) {
      const answer = await t.call(
        '/embedded/v1/rpc',
        { chainId: EVM, method: call % 2 ? 'eth_blockNumber' : 'wallet_getCapabilities', params: [] },
        { token: session.token, ip },
      )
      statuses.push(answer.status)
    }
    assert.deepEqual(statuses, Array(30).fill(200))
    // Creating requests to approve still counts 20 a minute.
    const created: number[] = []
    for (let call = 0; call < 21; call++) {
      const answer = await t.call(
        '/embedded/v1/requests',
        { chainId: EVM, method: 'personal_sign', params: ['0x6869', evmAddress()] },
        { token: session.token, ip },
      )
      created.push(answer.status)
    }
    assert.deepEqual(created, [...Array(20).fill(200), 429])
  })

  test('error: other methods answer "Requested RPC call is not allowed"; smart-account methods "Not available"; signing never goes through /rpc', async () => {
    for (const method of [
      'eth_sign',
      'eth_signTransaction',
      'hardhat_setBalance',
      'personal_unlockAccount',
      'debug_traceTransaction',
    ]) {
      const answer = await t.call(
        '/embedded/v1/rpc',
        { chainId: EVM, method, params: [] },
        { token: session.token },
      )
      assert.equal(answer.status, 403, method)
      assert.deepEqual(
        { message: errorOf(answer.body).message, rpcCode: errorOf(answer.body).rpcCode },
        { message: 'Requested RPC call is not allowed', rpcCode: 4200 },
      )
      const stored = await t.call(
        '/embedded/v1/requests',
        { chainId: EVM, method, params: [] },
        { token: session.token },
      )
      assert.equal(stored.status, 403, method)
    }
    const direct = await t.call(
      '/embedded/v1/rpc',
      { chainId: EVM, method: 'personal_sign', params: [stringToHex('x'), evmAddress()] },
      { token: session.token },
    )
    assert.equal(errorOf(direct.body).message, 'Requested RPC call is not allowed')
    const userOp = await t.call(
      '/embedded/v1/requests',
      { chainId: EVM, method: 'eth_sendUserOperation', params: [] },
      { token: session.token },
    )
    assert.equal(errorOf(userOp.body).message, 'Not available')
    const unknownChain = await t.call(
      '/embedded/v1/rpc',
      { chainId: 'eip155:1', method: 'eth_blockNumber', params: [] },
      { token: session.token },
    )
    assert.equal(errorOf(unknownChain.body).message, 'Chain is not supported')
    const signedOut = await t.call('/embedded/v1/rpc', {
      chainId: EVM,
      method: 'eth_blockNumber',
      params: [],
    })
    assert.equal(signedOut.status, 401)
  })
})

describe('attacks on what is shown and what is signed (issue 23, items 2 and 3)', () => {
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

describe('previews decoded from what will be signed (issue 23 item 2)', () => {
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

describe('the fee with its value in dollars (issue 26 item 6)', () => {
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
    const signedIn = await signInByEmail(priced, `priced.${Date.now()}@example.com`)
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
