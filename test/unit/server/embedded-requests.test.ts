// Requests that need approval, reads, wallet methods and refusals.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import {
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  parseEther,
  stringToHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { approvalResponse } from '../../../src/protocol/embedded/index.ts'
import { decodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import { signAndApprove } from './embedded-keys-helpers.ts'
import { shopOrder } from './embedded-methods-helpers.ts'
import {
  approved,
  chain,
  EVM,
  errorOf,
  evmAddress,
  other,
  SOLANA,
  session,
  solana,
  solanaAddress,
  startRequestsWallet,
  t,
} from './embedded-requests-helpers.ts'

startRequestsWallet()

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

  test('behavior: two transactions asked before either is approved both land, in the order approved (the nonce is taken at approval)', async () => {
    const client = createWalletClient({ account: devAccount(0), transport: http(chain.url) })
    const publicClient = createPublicClient({ transport: http(chain.url) })
    await publicClient.waitForTransactionReceipt({
      hash: await client.sendTransaction({ to: evmAddress(), value: parseEther('1'), chain: null }),
    })
    const receiver = devAccount(6).address
    const before = await publicClient.getBalance({ address: receiver })
    const ask = async (value: bigint) => {
      const created = await t.call(
        '/embedded/v1/requests',
        {
          chainId: EVM,
          method: 'eth_sendTransaction',
          params: [{ from: evmAddress(), to: receiver, value: `0x${value.toString(16)}` }],
        },
        { token: session.token },
      )
      assert.equal(created.status, 200, JSON.stringify(created.body))
      return approvalResponse.parse(created.body)
    }
    // A page that sends an approve and a swap at once: both are waiting before the person answers either.
    const first = await ask(parseEther('0.1'))
    const second = await ask(parseEther('0.2'))
    for (const created of [first, second]) {
      const answer = await signAndApprove(t, session, created)
      assert.equal(answer.status, 200, JSON.stringify(answer.body))
      const receipt = await publicClient.waitForTransactionReceipt({ hash: answer.body.result as Hex })
      assert.equal(receipt.status, 'success')
    }
    assert.equal(await publicClient.getBalance({ address: receiver }), before + parseEther('0.3'))
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
    const afterReject = await signAndApprove(t, session, created)
    assert.equal(errorOf(afterReject.body).message, 'Action not allowed')

    const { answer: _first, ...done } = await approved(EVM, 'personal_sign', params)
    const replay = await signAndApprove(t, session, done)
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
    const byOther = await signAndApprove(t, other, stolen)
    assert.equal(errorOf(byOther.body).message, 'Action not allowed')
    const noSession = await t.call(`/embedded/v1/requests/${stolen.id}/approve`, { signatures: [] })
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
