// Attacks on the smart account's session keys (ERC-7715 permissions): a site asks the person to approve a call that makes
// their own smart account grant the site a session key, behind what looks like one call. The service refuses
// it before the person is asked, as a UserOperation and as the owner's transaction, and nothing lands.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type Address, encodeFunctionData, parseEther, toFunctionSelector, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  grantSessionData,
  walletAccountAbi,
  walletAccountSessionAbi,
} from '../../../server/embedded/walletAccount.ts'
import { ownAccountCallMessage } from '../../../src/protocol/embedded/signingRules.ts'
import {
  accountType,
  bob,
  client,
  EVM,
  errorOf,
  market,
  signIn,
  smartUser,
  startSmartAccounts,
  t,
} from './embedded-smart-accounts-helpers.ts'

startSmartAccounts()

/** The site's own key, and the session it wants: USDC without limit, for a year. */
const siteKey = privateKeyToAccount(toHex(7n, { size: 32 })).address
const grant = () =>
  grantSessionData({
    key: siteKey,
    policy: {
      validAfter: 0n,
      validUntil: BigInt(Math.floor(Date.now() / 1000) + 365 * 86_400),
      callLimit: 0,
      valueCap: parseEther('1'),
      maxGasCost: parseEther('1'),
      permissions: [
        { target: market.tokens.USDC.address, selector: toFunctionSelector('transfer(address,uint256)') },
      ],
      allowances: [],
    },
  })

/** Whether `account` holds a session for the site's key (its grant time is not zero). */
const granted = async (account: Address) => {
  const code = await client().getCode({ address: account })
  if (!code || code === '0x') return false
  const [, grantedAt] = await client().readContract({
    address: account,
    abi: walletAccountSessionAbi,
    functionName: 'session',
    args: [siteKey],
  })
  return grantedAt !== 0n
}

const ask = (token: string, method: string, params: unknown) =>
  t.call('/embedded/v1/requests', { chainId: EVM, method, params }, { token })

describe('attack: a site asks the person to grant it a session key behind an ordinary-looking call', {
  timeout: 120_000,
}, () => {
  test('as wallet_sendCalls from the smart account (a call to itself in a batch): refused before the person is asked', async () => {
    const { session, address } = await smartUser('grant-batch')
    const created = await ask(session.token, 'wallet_sendCalls', [
      {
        version: '2.0.0',
        from: address,
        calls: [
          { to: bob, value: '0x1' },
          { to: address, data: grant() },
        ],
      },
    ])
    assert.equal(created.status, 403, JSON.stringify(created.body))
    assert.equal(errorOf(created.body).message, ownAccountCallMessage)
    assert.equal(errorOf(created.body).rpcCode, 4100)
    assert.equal(await granted(address), false)
  })

  test('as eth_sendTransaction to itself: refused', async () => {
    const { session, address } = await smartUser('grant-transaction')
    const created = await ask(session.token, 'eth_sendTransaction', [
      { from: address, to: address, data: grant() },
    ])
    assert.equal(created.status, 403)
    assert.equal(errorOf(created.body).message, ownAccountCallMessage)
  })

  test('as the owner EOA calling the account’s execute directly (the owner may): refused', async () => {
    const session = await signIn(t, `grant-owner.${Date.now()}@example.com`)
    const eoa = session.user.accounts.eip155.address
    // The person's smart account on this network (its address is known before it exists), while they use the EOA.
    const { account: smart } = await accountType(session, EVM, 'smartAccount')
    await accountType(session, EVM, 'eoa')
    const target = smart.address as Address
    const execute = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'execute',
      args: [target, 0n, grant()],
    })
    const created = await ask(session.token, 'eth_sendTransaction', [
      { from: eoa, to: target, data: execute },
    ])
    assert.equal(created.status, 403, JSON.stringify(created.body))
    assert.equal(errorOf(created.body).message, ownAccountCallMessage)
    // Value alone to one's own smart account (funding it) is still an ordinary request.
    const funding = await ask(session.token, 'eth_sendTransaction', [{ from: eoa, to: target, value: '0x1' }])
    assert.equal(funding.status, 200, JSON.stringify(funding.body))
  })

  test('as eth_sendUserOperation whose callData runs execute on the account itself: refused', async () => {
    const { session, address } = await smartUser('grant-user-op')
    const callData = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'execute',
      args: [address, 0n, grant()],
    })
    const created = await ask(session.token, 'eth_sendUserOperation', [
      { sender: address, callData },
      '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
    ])
    assert.equal(created.status, 403, JSON.stringify(created.body))
    assert.equal(errorOf(created.body).message, ownAccountCallMessage)
    assert.equal(await granted(address), false)
  })
})
