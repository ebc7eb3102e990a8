// The embedded wallet with a smart account: switching, batches, the frame and signatures.
/**
 * The embedded wallet's smart accounts (ERC-4337), through the frame's API on a real local chain with
 * EntryPoint v0.8, the local bundler and the service: switching the account type, the first send
 * deploying the account, atomic `wallet_sendCalls` and its status, capabilities, switching back, and a
 * bundler that is down.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { encodeFunctionData, erc20Abi, type Hex, isErc6492Signature } from 'viem'
import { createSignatureChecker } from '../../../server/auth/signatures.ts'
import { accountTypeResponse, embeddedNetworksResponse } from '../../../src/protocol/embedded/index.ts'
import { clock, codeIn, frameWallet } from './embedded-helpers.ts'
import {
  accountType,
  approve,
  approved,
  base,
  bob,
  chain,
  client,
  EVM,
  EVM2,
  errorOf,
  market,
  noBundler,
  rpc,
  signIn,
  smartUser,
  startSmartAccounts,
  t,
  usdcApproval,
} from './embedded-smart-accounts-helpers.ts'
import { SMART_ACCOUNT_PERMISSIONS } from './helpers.ts'

startSmartAccounts()

describe('the embedded wallet with a smart account', { timeout: 120_000 }, () => {
  test('default: an EOA until the person switches; the networks list says where smart accounts are', async () => {
    const session = await signIn(t, `eoa.${Date.now()}@example.com`)
    const before = await accountType(session, EVM)
    assert.deepEqual(before, {
      preferredAccountType: 'eoa',
      account: { address: session.user.accounts.eip155.address, type: 'eoa' },
    })
    const networks = embeddedNetworksResponse.parse((await t.call('/embedded/v1/networks')).body)
    assert.deepEqual(networks.smartAccountNetworks, [EVM, EVM2])
    const capabilities = await rpc(session, EVM, 'wallet_getCapabilities', [
      session.user.accounts.eip155.address,
    ])
    assert.deepEqual(capabilities.body.result, {
      '0x7a69': { atomic: { status: 'unsupported' } },
      '0x7a6a': { atomic: { status: 'unsupported' } },
    })
  })

  test('switching to a smart account: a new address, not deployed; the first send deploys it', async () => {
    const { session, address } = await smartUser('first-send')
    assert.notEqual(address.toLowerCase(), session.user.accounts.eip155.address.toLowerCase())
    assert.deepEqual((await accountType(session, EVM)).account, {
      address,
      type: 'smartAccount',
      smartAccountDeployed: false,
    })
    assert.deepEqual((await rpc(session, EVM, 'eth_accounts', [])).body.result, [address])
    const capabilities = await rpc(session, EVM, 'wallet_getCapabilities', [address])
    assert.deepEqual(capabilities.body.result, {
      '0x7a69': { atomic: { status: 'supported' }, permissions: SMART_ACCOUNT_PERMISSIONS },
      '0x7a6a': { atomic: { status: 'supported' }, permissions: SMART_ACCOUNT_PERMISSIONS },
    })

    const before = await client().getBalance({ address: bob })
    const { preview, answer } = await approved(session, EVM, 'eth_sendTransaction', [
      { from: address, to: bob, value: '0x3e8' },
    ])
    assert.equal(preview.from, address)
    assert.deepEqual(preview.transfers, [{ to: bob, value: '1000', dataBytes: 0 }])
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const receipt = await client().getTransactionReceipt({ hash: answer.body.result as Hex })
    assert.equal(receipt.status, 'success')
    assert.equal((await client().getBalance({ address: bob })) - before, 1000n)
    assert.equal((await accountType(session, EVM)).account.smartAccountDeployed, true)
  })

  test('wallet_sendCalls: an ETH transfer and a token approval land atomically; the status reports them', async () => {
    const { session, address } = await smartUser('batch')
    const USDC = market.tokens.USDC.address
    const before = await client().getBalance({ address: bob })
    const { preview, answer } = await approved(session, EVM, 'wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        from: address,
        atomicRequired: true,
        calls: [
          { to: bob, value: '0x7d0' },
          { to: USDC, data: approve(bob, 7n) },
        ],
      },
    ])
    // The approval shows every call of the batch.
    assert.deepEqual(preview.transfers, [
      { to: bob, value: '2000', dataBytes: 0 },
      { to: USDC, value: '0', dataBytes: 68, action: usdcApproval(USDC, '7') },
    ])
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const { id } = answer.body.result as { id: string }
    let status = (await rpc(session, EVM, 'wallet_getCallsStatus', [id])).body.result as {
      status: number
      atomic: boolean
      receipts: { transactionHash: string; status: string }[]
    }
    for (let poll = 0; status.status === 100 && poll < 50; poll++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      status = (await rpc(session, EVM, 'wallet_getCallsStatus', [id])).body.result as typeof status
    }
    assert.equal(status.status, 200)
    assert.equal(status.atomic, true)
    assert.equal(status.receipts.length, 1, 'one transaction for both calls')
    assert.equal((await client().getBalance({ address: bob })) - before, 2000n)
    const allowance = await client().readContract({
      address: USDC,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [address, bob],
    })
    assert.equal(allowance, 7n)
  })

  test('error: a batch whose second call reverts lands neither call, with the reason', async () => {
    const { session, address } = await smartUser('reverting')
    const before = await client().getBalance({ address: bob })
    const { answer } = await approved(session, EVM, 'wallet_sendCalls', [
      {
        version: '2.0.0',
        from: address,
        calls: [
          { to: bob, value: '0x7d0' },
          {
            to: market.tokens.USDC.address,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: 'transferFrom',
              args: [address, bob, 1n],
            }),
          },
        ],
      },
    ])
    assert.equal(answer.status, 400)
    assert.match(errorOf(answer.body).message, /The UserOperation's calls revert: call 1 of the batch/)
    assert.equal(await client().getBalance({ address: bob }), before)
  })

  test('switching back to the EOA: requests use the EOA again, and batches go one after another', async () => {
    const { session } = await smartUser('back')
    const eoa = session.user.accounts.eip155.address
    assert.deepEqual(await accountType(session, EVM, 'eoa'), {
      preferredAccountType: 'eoa',
      account: { address: eoa, type: 'eoa' },
    })
    assert.deepEqual((await rpc(session, EVM, 'eth_accounts', [])).body.result, [eoa])
    const created = await t.call(
      '/embedded/v1/requests',
      {
        chainId: EVM,
        method: 'wallet_sendCalls',
        params: [{ version: '2.0.0', atomicRequired: true, calls: [{ to: bob, value: '0x1' }] }],
      },
      { token: session.token },
    )
    assert.equal(created.status, 400)
    assert.equal(errorOf(created.body).rpcCode, 5760)
  })

  test('the frame: smart account networks, SET_PREFERRED_ACCOUNT, GET_USER with the smart account, and back', async () => {
    const email = `frame.${Date.now()}@example.com`
    const frame = frameWallet(t, base)
    assert.deepEqual(await frame.ask('GET_SMART_ACCOUNT_ENABLED_NETWORKS', {}), {
      type: 'GET_SMART_ACCOUNT_ENABLED_NETWORKS_SUCCESS',
      payload: { smartAccountEnabledNetworks: [EVM, EVM2] },
    })
    await frame.ask('CONNECT_EMAIL', { email })
    await frame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
    const eoa = (await frame.ask('GET_USER', { chainId: EVM })).payload as { address: string }
    assert.deepEqual(await frame.ask('SET_PREFERRED_ACCOUNT', { type: 'smartAccount' }), {
      type: 'SET_PREFERRED_ACCOUNT_SUCCESS',
      payload: {},
    })
    const user = (await frame.ask('GET_USER', { chainId: EVM })).payload as {
      address: string
      preferredAccountType: string
      smartAccountDeployed: boolean
      accounts: { namespace: string; address: string; type: string }[]
    }
    assert.notEqual(user.address, eoa.address)
    assert.equal(user.preferredAccountType, 'smartAccount')
    assert.equal(user.smartAccountDeployed, false)
    assert.deepEqual(user.accounts[0], { namespace: 'eip155', address: user.address, type: 'smartAccount' })
    assert.deepEqual(await frame.ask('RPC_REQUEST', { chainId: EVM, method: 'eth_accounts' }), {
      type: 'RPC_REQUEST_SUCCESS',
      payload: { result: [user.address] },
    })
    await frame.ask('SET_PREFERRED_ACCOUNT', { type: 'eoa' })
    const back = (await frame.ask('GET_USER', { chainId: EVM })).payload as {
      address: string
      preferredAccountType: string
    }
    assert.deepEqual([back.address, back.preferredAccountType], [eoa.address, 'eoa'])
  })

  test('attack: a second frame of the page asks SET_PREFERRED_ACCOUNT and INIT_SMART_ACCOUNT; the person rejects in the approval view: 4001, and the account stays the EOA', async () => {
    const email = `second.${Date.now()}@example.com`
    const modalFrame = frameWallet(t, base)
    await modalFrame.ask('CONNECT_EMAIL', { email })
    await modalFrame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
    const eoa = ((await modalFrame.ask('GET_USER', { chainId: EVM })).payload as { address: string }).address
    // The page's own frame: the same browser storage (so the same session), its own handshake.
    const shown: NonNullable<NonNullable<Parameters<typeof frameWallet>[2]>['shown']> = []
    const script = frameWallet(t, base, { storage: modalFrame.storage, decision: 'reject', shown })
    for (const [type, payload] of [
      ['SET_PREFERRED_ACCOUNT', { type: 'smartAccount' }],
      ['INIT_SMART_ACCOUNT', {}],
    ] as const) {
      const answer = await script.ask(type, payload as never)
      assert.deepEqual([answer.type, (answer.payload as { code?: unknown }).code], [`${type}_ERROR`, 4001])
    }
    const after = (await modalFrame.ask('GET_USER', { chainId: EVM })).payload as {
      address: string
      preferredAccountType: string
    }
    assert.deepEqual([after.address, after.preferredAccountType], [eoa, 'eoa'])
    // Approved (the modal's frame, the person clicking Approve): the account shown is the one used.
    await modalFrame.ask('SET_PREFERRED_ACCOUNT', { type: 'smartAccount' })
    const smart = ((await modalFrame.ask('GET_USER', { chainId: EVM })).payload as { address: string })
      .address
    assert.notEqual(smart, eoa)
    assert.equal(shown.length, 2)
    for (const preview of shown)
      assert.deepEqual(preview, {
        kind: 'accountType',
        type: 'smartAccount',
        network: 'Local Chain',
        from: eoa,
        to: smart,
      })
  })

  test('account-type with preview: answers the account the switch would use and sets nothing; refused where there is no bundler', async () => {
    const session = await signIn(t, `preview.${Date.now()}@example.com`)
    const eoa = session.user.accounts.eip155.address
    const answer = await t.call(
      '/embedded/v1/account-type',
      { chainId: EVM, preview: 'smartAccount' },
      { token: session.token },
    )
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const read = accountTypeResponse.parse(answer.body)
    assert.deepEqual([read.preferredAccountType, read.account], ['eoa', { address: eoa, type: 'eoa' }])
    const { account } = await accountType(session, EVM, 'smartAccount')
    assert.deepEqual(read.preview, { address: account.address, type: 'smartAccount' })
    const elsewhere = await signIn(noBundler, `preview.nobundler.${Date.now()}@example.com`)
    const refused = await noBundler.call(
      '/embedded/v1/account-type',
      { chainId: EVM, preview: 'smartAccount' },
      { token: elsewhere.token },
    )
    assert.equal(refused.status, 400)
    assert.equal(errorOf(refused.body).message, 'This application might not support Smart Accounts')
  })

  test('the site default (GET_USER preferredAccountType): a new user starts on a smart account, a returning one keeps theirs', async () => {
    const email = `default.${Date.now()}@example.com`
    const frame = frameWallet(t, base)
    const signInHere = async () => {
      await frame.ask('CONNECT_EMAIL', { email })
      await frame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) }) // the newest mail first
    }
    type User = { preferredAccountType: string; accounts: { type: string }[] }
    const userWith = async (preferredAccountType: 'eoa' | 'smartAccount') =>
      (await frame.ask('GET_USER', { chainId: EVM, preferredAccountType })).payload as User
    await signInHere()
    const first = await userWith('smartAccount')
    assert.deepEqual([first.preferredAccountType, first.accounts[0]?.type], ['smartAccount', 'smartAccount'])
    // The person chose the EOA; signing in again, the site's default does not override it.
    await frame.ask('SET_PREFERRED_ACCOUNT', { type: 'eoa' })
    await frame.ask('SIGN_OUT', {})
    clock.now += 31_000 // past the 30 s between two sign-in mails
    await signInHere()
    const again = await userWith('smartAccount')
    assert.deepEqual([again.preferredAccountType, again.accounts[0]?.type], ['eoa', 'eoa'])
  })

  test('signatures: EIP-6492 before deployment, EIP-1271 after the first send; viem and the sign-in checker accept both', async () => {
    const { session, address } = await smartUser('signer')
    const checker = createSignatureChecker({ upstreams: { [EVM]: chain.url }, timeoutMs: 10_000 })
    const message = `127.0.0.1 wants you to sign in with your Ethereum account:\n${address}\n\nNonce: ${Date.now()}`
    const sign = async (chainId = EVM, signer: string = address) => {
      const { preview, answer } = await approved(session, chainId, 'personal_sign', [message, signer])
      assert.equal(answer.status, 200, JSON.stringify(answer.body))
      assert.equal(preview.from, signer)
      return answer.body.result as Hex
    }
    const typedData = {
      domain: { name: 'Mail', version: '1', chainId: 31337 },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'hello' },
    } as const

    const counterfactual = await sign()
    assert.ok(isErc6492Signature(counterfactual), 'an undeployed account wraps its signature in EIP-6492')
    assert.equal(await client().verifyMessage({ address, message, signature: counterfactual }), true)
    assert.equal(
      await checker.verify({ chainId: EVM, address, message, signature: counterfactual }),
      'eip6492',
    )
    const typed = await approved(session, EVM, 'eth_signTypedData_v4', [address, JSON.stringify(typedData)])
    assert.equal(typed.answer.status, 200, JSON.stringify(typed.answer.body))
    assert.ok(isErc6492Signature(typed.answer.body.result as Hex))
    assert.equal(
      await client().verifyTypedData({ address, ...typedData, signature: typed.answer.body.result as Hex }),
      true,
    )
    // Verifying deployed nothing (the validator's call is never sent as a transaction).
    assert.equal(await client().getCode({ address }), undefined)

    // The key's own signature of the message is not the account's: the account wraps the hash.
    const byKey = await sign(EVM, session.user.accounts.eip155.address)
    assert.equal(await client().verifyMessage({ address, message, signature: byKey }), false)

    const sent = await approved(session, EVM, 'eth_sendTransaction', [
      { from: address, to: bob, value: '0x1' },
    ])
    assert.equal(sent.answer.status, 200, JSON.stringify(sent.answer.body))
    const deployed = await sign()
    assert.equal(isErc6492Signature(deployed), false, 'a deployed account signs plain EIP-1271')
    assert.equal(await client().verifyMessage({ address, message, signature: deployed }), true)
    assert.equal(await checker.verify({ chainId: EVM, address, message, signature: deployed }), 'eip1271')

    // Replay: the same owner's account on the second chain (same address) signs for that chain only.
    await accountType(session, EVM2, 'smartAccount')
    const otherChain = await sign(EVM2)
    assert.equal(await client().verifyMessage({ address, message, signature: otherChain }), false)
    await assert.rejects(checker.verify({ chainId: EVM, address, message, signature: otherChain }), {
      code: 'SMART_ACCOUNT_NOT_SUPPORTED',
    })
  })
})
