import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { apiErrorCodes } from '../../../src/protocol/api/errors.ts'
import { SIGN_OUT_TIMEOUT_MS } from '../../../src/protocol/constants.ts'
import {
  appEvent,
  classifyRequest,
  embeddedErrorCodes,
  embeddedLimits,
  frameAnswerFor,
  frameHandshake,
  frameNotice,
  frameQuery,
} from '../../../src/protocol/embedded/index.ts'
import {
  EMAIL_LOGIN_COOLDOWN_MS,
  EMBEDDED_REQUEST_TIMEOUT_MS,
  EMBEDDED_SDK_VERSION,
  FRAME_LOAD_TIMEOUT_MS,
  FRAME_READY_DELAY_MS,
} from '../../../src/protocol/embedded/limits.ts'

describe('request classes (SPEC 6)', () => {
  it('default: safe reads run freely, signing needs approval, the wallet answers its own methods', () => {
    for (const method of [
      'eth_call',
      'eth_getBalance',
      'eth_chainId',
      'eth_blockNumber',
      'eth_estimateGas',
      'eth_getLogs',
    ])
      assert.equal(classifyRequest('eip155', method), method === 'eth_chainId' ? 'wallet' : 'read', method)
    for (const method of ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'wallet_sendCalls'])
      assert.equal(classifyRequest('eip155', method), 'approval', method)
    for (const method of ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction'])
      assert.equal(classifyRequest('solana', method), 'approval', method)
    for (const method of [
      'wallet_getCapabilities',
      'wallet_getCallsStatus',
      'wallet_getAssets',
      'eth_accounts',
    ])
      assert.equal(classifyRequest('eip155', method), 'wallet', method)
    assert.equal(classifyRequest('solana', 'getBalance'), 'read')
  })

  it('error: signing on the other namespace, raw sends, node and test-chain methods are refused; smart-account methods are not available', () => {
    assert.equal(classifyRequest('solana', 'personal_sign'), 'refused')
    assert.equal(classifyRequest('eip155', 'solana_signMessage'), 'refused')
    for (const method of [
      'eth_sendRawTransaction',
      'eth_sign',
      'eth_signTransaction',
      'hardhat_setCode',
      'debug_traceCall',
      'personal_unlockAccount',
      'admin_peers',
    ])
      assert.equal(classifyRequest('eip155', method), 'refused', method)
    assert.equal(classifyRequest('solana', 'sendTransaction'), 'refused')
    assert.equal(classifyRequest('solana', 'requestAirdrop'), 'refused')
    // Permissions (ERC-7715) are approvals on EVM networks, refused elsewhere.
    for (const method of [
      'wallet_grantPermissions',
      'wallet_requestExecutionPermissions',
      'wallet_revokePermissions',
    ]) {
      assert.equal(classifyRequest('eip155', method), 'approval', method)
      assert.equal(classifyRequest('solana', method), 'refused', method)
    }
    // A UserOperation is approved like a transaction (the service refuses it for an EOA).
    assert.equal(classifyRequest('eip155', 'eth_sendUserOperation'), 'approval')
    assert.equal(classifyRequest('solana', 'eth_sendUserOperation'), 'refused')
  })
})

describe('limits and timings (SPEC 5, 9)', () => {
  it('default: the spec’s numbers', () => {
    assert.equal(EMAIL_LOGIN_COOLDOWN_MS, 30_000)
    assert.equal(embeddedLimits.emailCooldownMs, 30_000)
    assert.equal(embeddedLimits.otpLength, 6)
    assert.equal(embeddedLimits.otpTtlMs, 10 * 60_000)
    assert.equal(embeddedLimits.otpMaxAttempts, 5)
    assert.equal(FRAME_LOAD_TIMEOUT_MS, 20_000)
    assert.equal(FRAME_READY_DELAY_MS, 500)
    assert.equal(EMBEDDED_REQUEST_TIMEOUT_MS, 30_000)
    assert.equal(SIGN_OUT_TIMEOUT_MS, 3_000)
    assert.equal(EMBEDDED_SDK_VERSION, 4)
  })
})

describe('frame messages', () => {
  it('default: the handshake, app events, answers and notices parse', () => {
    assert.ok(
      frameHandshake.safeParse({ type: 'wallet-elements:frame-handshake', nonce: 'a'.repeat(22) }).success,
    )
    assert.ok(
      appEvent.safeParse({ id: '1', type: 'CONNECT_EMAIL', payload: { email: 'ada@example.com' } }).success,
    )
    assert.ok(
      frameAnswerFor('CONNECT_EMAIL').safeParse({
        id: '1',
        type: 'CONNECT_EMAIL_SUCCESS',
        payload: { action: 'VERIFY_OTP' },
      }).success,
    )
    assert.ok(frameAnswerFor('GET_USER').safeParse({ id: '1', type: 'GET_USER_ERROR', payload: {} }).success)
    assert.ok(frameNotice.safeParse({ type: 'APPROVAL_SHOW', payload: { height: 320 } }).success)
    assert.deepEqual(
      frameQuery.parse({
        projectId: 'dev-project',
        chainId: 'eip155:1',
        version: '4',
        enableLogger: 'false',
      }),
      {
        projectId: 'dev-project',
        chainId: 'eip155:1',
        version: '4',
        enableLogger: 'false',
      },
    )
  })

  it('error: a wrong type, payload, id or a success with the wrong shape is dropped', () => {
    assert.equal(
      appEvent.safeParse({ id: '1', type: 'connect_email', payload: { email: 'ada@example.com' } }).success,
      false,
    )
    assert.equal(
      appEvent.safeParse({ id: '1', type: 'CONNECT_EMAIL', payload: { email: 'ada' } }).success,
      false,
    )
    assert.equal(appEvent.safeParse({ id: 'x'.repeat(65), type: 'SIGN_OUT', payload: {} }).success, false)
    assert.equal(appEvent.safeParse({ type: 'SIGN_OUT', payload: {} }).success, false)
    assert.equal(
      frameAnswerFor('CONNECT_EMAIL').safeParse({
        id: '1',
        type: 'CONNECT_EMAIL_SUCCESS',
        payload: { action: 'MAYBE' },
      }).success,
      false,
    )
    assert.equal(
      frameAnswerFor('CONNECT_EMAIL').safeParse({ id: '1', type: 'GET_USER_SUCCESS', payload: {} }).success,
      false,
    )
    assert.equal(
      frameHandshake.safeParse({ type: 'wallet-elements:frame-handshake', nonce: 'short' }).success,
      false,
    )
  })

  it('default: the embedded wallet’s error codes are API error codes', () => {
    for (const code of embeddedErrorCodes)
      assert.ok((apiErrorCodes as readonly string[]).includes(code), code)
  })
})
