/**
 * Approvals named wherever they hide (src/protocol/embedded/approvals.ts). Calldata is built here from
 * each function's published selector and its parameters, not from the module's ABI, so a wrong
 * signature there fails here. The `attack:` tests are the encodings drainers use.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  type Address,
  concat,
  encodeAbiParameters,
  type Hex,
  maxUint256,
  numberToHex,
  pad,
  parseAbiParameters,
  size,
} from 'viem'
import {
  APPROVAL_MAX_CALLS,
  APPROVAL_MAX_DEPTH,
  approvalsInCall,
  approvalsInTypedData,
  type NamedApproval,
  PERMIT2_ADDRESS,
} from '../../../src/protocol/embedded/approvals.ts'
import { encodeWalletAccountCalls } from '../../../src/protocol/embedded/walletAccountSessions.ts'

const USDC: Address = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const DAI: Address = '0x6B175474E89094C44Da98b954EedeAC495271d0F'
const NFT: Address = '0xBC4CA0EdA7647A8aB7C2061c2E118A18a936f13D'
const DRAINER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const PERSON: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const ACCOUNT: Address = '0x1111111111111111111111111111111111111111'
const MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'
const OTHER_PERMIT2: Address = '0x2222222222222222222222222222222222222222'
const MAX160 = 2n ** 160n - 1n
const MAX48 = 2n ** 48n - 1n
const SIG: Hex = `0x${'ab'.repeat(65)}`
const R: Hex = `0x${'11'.repeat(32)}`

/** Calldata: a published selector and its ABI-encoded parameters. */
const call = (selector: Hex, types: string, values: readonly unknown[]): Hex =>
  concat([selector, encodeAbiParameters(parseAbiParameters(types), values as never)])

const approve = (spender: Address, amount: bigint) =>
  call('0x095ea7b3', 'address, uint256', [spender, amount])
const increaseAllowance = (spender: Address, amount: bigint) =>
  call('0x39509351', 'address, uint256', [spender, amount])
const setApprovalForAll = (operator: Address, approved: boolean) =>
  call('0xa22cb465', 'address, bool', [operator, approved])
const permit2Approve = (token: Address, spender: Address, amount: bigint, expiration: bigint) =>
  call('0x87517c45', 'address, address, uint160, uint48', [token, spender, amount, expiration])
const multicall = (inner: Hex[]) => call('0xac9650d8', 'bytes[]', [inner])
const multicallDeadline = (deadline: bigint, inner: Hex[]) =>
  call('0x5ae401dc', 'uint256, bytes[]', [deadline, inner])
const aggregate3 = (inner: { target: Address; data: Hex }[]) =>
  call('0x82ad56cb', '(address, bool, bytes)[]', [inner.map((c) => [c.target, false, c.data])])

const only = (result: ReturnType<typeof approvalsInCall>): NamedApproval => {
  assert.deepEqual(result.unread, [], 'every call read')
  assert.equal(result.approvals.length, 1, 'one approval')
  return result.approvals[0] as NamedApproval
}

describe('approvalsInCall: the approvals themselves', () => {
  it('default: ERC-20 approve names the token, the spender and the amount; max uint256 is unlimited', () => {
    assert.deepEqual(only(approvalsInCall({ to: USDC, data: approve(DRAINER, maxUint256) })), {
      standard: 'ERC-20 / ERC-721',
      name: 'approve',
      token: USDC,
      spender: DRAINER,
      amount: maxUint256,
      unlimited: true,
      via: [],
    })
    const limited = only(approvalsInCall({ to: USDC, data: approve(DRAINER, 5_000_000n) }))
    assert.equal(limited.amount, 5_000_000n)
    assert.equal(limited.unlimited, undefined)
  })

  it('behavior: approve(spender, 2^255) is unlimited too, and approve(spender, 0) is still named (an ERC-721 token id 0)', () => {
    assert.equal(only(approvalsInCall({ to: USDC, data: approve(DRAINER, 2n ** 255n) })).unlimited, true)
    assert.equal(
      only(approvalsInCall({ to: USDC, data: approve(DRAINER, 2n ** 255n - 1n) })).unlimited,
      undefined,
    )
    assert.equal(only(approvalsInCall({ to: NFT, data: approve(DRAINER, 0n) })).amount, 0n)
  })

  it('attack: increaseAllowance(drainer, max) is named as an unlimited increase, not "Data 68 bytes"', () => {
    assert.deepEqual(only(approvalsInCall({ to: USDC, data: increaseAllowance(DRAINER, maxUint256) })), {
      standard: 'ERC-20',
      name: 'increaseAllowance',
      token: USDC,
      spender: DRAINER,
      amount: maxUint256,
      unlimited: true,
      increase: true,
      via: [],
    })
  })

  it('attack: Permit2 approve(token, drainer, max, max) names the token inside, not Permit2; max uint160 is unlimited, max uint48 never expires', () => {
    assert.deepEqual(
      only(approvalsInCall({ to: PERMIT2_ADDRESS, data: permit2Approve(USDC, DRAINER, MAX160, MAX48) })),
      {
        standard: 'Permit2',
        name: 'approve',
        token: USDC,
        spender: DRAINER,
        amount: MAX160,
        unlimited: true,
        canonicalPermit2: true,
        via: [],
      },
    )
    const limited = only(
      approvalsInCall({ to: OTHER_PERMIT2, data: permit2Approve(USDC, DRAINER, 10n ** 6n, 1_900_000_000n) }),
    )
    assert.equal(limited.unlimited, undefined)
    assert.equal(limited.expiration, 1_900_000_000)
    assert.equal(limited.canonicalPermit2, false, 'named at any address, marked when it is not Permit2')
  })

  it('default: EIP-2612 permit calldata names the owner, the spender, the amount and the deadline', () => {
    const data = call('0xd505accf', 'address, address, uint256, uint256, uint8, bytes32, bytes32', [
      PERSON,
      DRAINER,
      maxUint256,
      1_900_000_000n,
      27,
      R,
      R,
    ])
    assert.deepEqual(only(approvalsInCall({ to: USDC, data })), {
      standard: 'EIP-2612',
      name: 'permit',
      token: USDC,
      spender: DRAINER,
      owner: PERSON,
      amount: maxUint256,
      unlimited: true,
      deadline: 1_900_000_000,
      via: [],
    })
  })

  it('behavior: DAI permit(allowed: true) is unlimited (an expiry of 0 never lapses); allowed: false takes the rights back and names nothing', () => {
    const dai = (allowed: boolean, expiry = 0n) =>
      call('0x8fcbaf0c', 'address, address, uint256, uint256, bool, uint8, bytes32, bytes32', [
        PERSON,
        DRAINER,
        0n,
        expiry,
        allowed,
        27,
        R,
        R,
      ])
    const granted = only(approvalsInCall({ to: DAI, data: dai(true) }))
    assert.equal(granted.standard, 'DAI permit')
    assert.equal(granted.unlimited, true)
    assert.equal(granted.deadline, undefined, 'DAI: an expiry of 0 never lapses')
    assert.equal(only(approvalsInCall({ to: DAI, data: dai(true, 1_900_000_000n) })).deadline, 1_900_000_000)
    assert.deepEqual(approvalsInCall({ to: DAI, data: dai(false) }), { approvals: [], unread: [] })
  })

  it('default: Permit2 permit calldata, single and batch, names each token, the spender and the expirations', () => {
    const details = (token: Address, amount: bigint) => [token, amount, 1_900_000_000n, 0n] as const
    const single = call(
      '0x2b67b570',
      'address, ((address, uint160, uint48, uint48), address, uint256), bytes',
      [PERSON, [details(USDC, MAX160), DRAINER, 1_800_000_000n], SIG],
    )
    assert.deepEqual(only(approvalsInCall({ to: PERMIT2_ADDRESS, data: single })), {
      standard: 'Permit2',
      name: 'permit',
      token: USDC,
      spender: DRAINER,
      owner: PERSON,
      amount: MAX160,
      unlimited: true,
      expiration: 1_900_000_000,
      deadline: 1_800_000_000,
      canonicalPermit2: true,
      via: [],
    })
    const batch = call(
      '0x2a2d80d1',
      'address, ((address, uint160, uint48, uint48)[], address, uint256), bytes',
      [PERSON, [[details(USDC, 1n), details(DAI, MAX160)], DRAINER, 1_800_000_000n], SIG],
    )
    const { approvals, unread } = approvalsInCall({ to: PERMIT2_ADDRESS, data: batch })
    assert.deepEqual(unread, [])
    assert.deepEqual(
      approvals.map((a) => [a.token, a.spender, a.amount, a.unlimited]),
      [
        [USDC, DRAINER, 1n, undefined],
        [DAI, DRAINER, MAX160, true],
      ],
    )
  })

  it('default: setApprovalForAll(operator, true) names the collection and the operator; false names nothing', () => {
    assert.deepEqual(only(approvalsInCall({ to: NFT, data: setApprovalForAll(DRAINER, true) })), {
      standard: 'ERC-721 / ERC-1155',
      name: 'setApprovalForAll',
      token: NFT,
      spender: DRAINER,
      all: true,
      via: [],
    })
    assert.deepEqual(approvalsInCall({ to: NFT, data: setApprovalForAll(DRAINER, false) }), {
      approvals: [],
      unread: [],
    })
  })

  it('behavior: a call without data gives nothing; any other function is left unread for the preview', () => {
    assert.deepEqual(approvalsInCall({ to: USDC }), { approvals: [], unread: [] })
    assert.deepEqual(approvalsInCall({ to: USDC, data: '0x' }), { approvals: [], unread: [] })
    const transfer = call('0xa9059cbb', 'address, uint256', [DRAINER, 1n])
    assert.deepEqual(approvalsInCall({ to: USDC, data: transfer }), {
      approvals: [],
      unread: [{ to: USDC, data: transfer, via: [] }],
    })
  })
})

describe('approvalsInCall: wrappers', () => {
  it('attack: approve(drainer, max) inside the token’s own multicall(bytes[]) is named, found in multicall', () => {
    const data = multicall([approve(DRAINER, maxUint256)])
    const found = only(approvalsInCall({ to: USDC, data }))
    assert.equal(found.token, USDC, 'the inner calls go to the same contract')
    assert.equal(found.spender, DRAINER)
    assert.equal(found.unlimited, true)
    assert.deepEqual(found.via, ['multicall'])
  })

  it('default: multicall(deadline, bytes[]) opens its calls too', () => {
    const data = multicallDeadline(1_900_000_000n, [approve(DRAINER, 1n), increaseAllowance(DRAINER, 2n)])
    const { approvals, unread } = approvalsInCall({ to: USDC, data })
    assert.deepEqual(unread, [])
    assert.deepEqual(
      approvals.map((a) => [a.name, a.amount, a.via]),
      [
        ['approve', 1n, ['multicall']],
        ['increaseAllowance', 2n, ['multicall']],
      ],
    )
  })

  it('default: Multicall3 aggregate, tryAggregate, blockAndAggregate, tryBlockAndAggregate, aggregate3 and aggregate3Value name each target’s approval', () => {
    const inner = [
      { target: USDC, data: approve(DRAINER, maxUint256) },
      { target: NFT, data: setApprovalForAll(DRAINER, true) },
    ]
    const pairs = inner.map((c) => [c.target, c.data])
    const encodings: [string, Hex][] = [
      ['aggregate', call('0x252dba42', '(address, bytes)[]', [pairs])],
      ['tryAggregate', call('0xbce38bd7', 'bool, (address, bytes)[]', [false, pairs])],
      ['blockAndAggregate', call('0xc3077fa9', '(address, bytes)[]', [pairs])],
      ['tryBlockAndAggregate', call('0x399542e9', 'bool, (address, bytes)[]', [true, pairs])],
      ['aggregate3', aggregate3(inner)],
      [
        'aggregate3Value',
        call('0x174dea71', '(address, bool, uint256, bytes)[]', [
          inner.map((c) => [c.target, true, 0n, c.data]),
        ]),
      ],
    ]
    for (const [name, data] of encodings) {
      const { approvals, unread } = approvalsInCall({ to: MULTICALL3, data })
      assert.deepEqual(unread, [], name)
      assert.deepEqual(
        approvals.map((a) => [a.token, a.spender, a.via]),
        [
          [USDC, DRAINER, [name]],
          [NFT, DRAINER, [name]],
        ],
        name,
      )
    }
  })

  it('default: the smart account’s execute and executeBatch (its own encoder) name each call’s approval', () => {
    const single = encodeWalletAccountCalls([{ to: USDC, data: approve(DRAINER, maxUint256) }])
    assert.deepEqual(only(approvalsInCall({ to: ACCOUNT, data: single })).via, ['execute'])
    const batch = encodeWalletAccountCalls([
      { to: DRAINER, value: 1n },
      { to: PERMIT2_ADDRESS, data: permit2Approve(USDC, DRAINER, MAX160, MAX48) },
      { to: NFT, data: setApprovalForAll(DRAINER, true) },
    ])
    const { approvals, unread } = approvalsInCall({ to: ACCOUNT, data: batch })
    assert.deepEqual(unread, [], 'a plain transfer has no data to read')
    assert.deepEqual(
      approvals.map((a) => [a.standard, a.token, a.via]),
      [
        ['Permit2', USDC, ['executeBatch']],
        ['ERC-721 / ERC-1155', NFT, ['executeBatch']],
      ],
    )
  })

  it('attack: approve hidden three wrappers deep (executeBatch > aggregate3 > multicall) is named with its path', () => {
    const data = encodeWalletAccountCalls([
      { to: DRAINER, value: 1n },
      {
        to: MULTICALL3,
        data: aggregate3([{ target: USDC, data: multicall([approve(DRAINER, maxUint256)]) }]),
      },
    ])
    const found = only(approvalsInCall({ to: ACCOUNT, data }))
    assert.equal(found.token, USDC)
    assert.deepEqual(found.via, ['executeBatch', 'aggregate3', 'multicall'])
  })

  it(`error: wrappers nested deeper than ${APPROVAL_MAX_DEPTH} are not opened: the call is unread`, () => {
    let data = approve(DRAINER, maxUint256)
    for (let depth = 0; depth < APPROVAL_MAX_DEPTH; depth++) data = multicall([data])
    assert.deepEqual(
      only(approvalsInCall({ to: USDC, data })).via,
      Array(APPROVAL_MAX_DEPTH).fill('multicall'),
    )
    const deeper = multicall([data])
    const result = approvalsInCall({ to: USDC, data: deeper })
    assert.deepEqual(result.approvals, [])
    assert.equal(result.unread.length, 1)
    assert.equal(result.unread[0]?.via.length, APPROVAL_MAX_DEPTH)
  })

  it('behavior: a wrapper with an approval and a call it cannot read names the approval and reports the other', () => {
    const swap = '0x12345678deadbeef' as Hex
    const data = aggregate3([
      { target: USDC, data: approve(DRAINER, 1n) },
      { target: DRAINER, data: swap },
    ])
    const result = approvalsInCall({ to: MULTICALL3, data })
    assert.equal(result.approvals.length, 1)
    assert.deepEqual(result.unread, [{ to: DRAINER, data: swap, via: ['aggregate3'] }])
  })

  it('behavior: wallet_sendCalls — each call of the batch is read on its own', () => {
    const calls = [
      { to: USDC, data: multicall([approve(DRAINER, maxUint256)]) },
      { to: DRAINER, value: '0x1' },
      { to: PERMIT2_ADDRESS, data: permit2Approve(DAI, DRAINER, 1n, MAX48) },
    ] as const
    const approvals = calls.flatMap((c) => approvalsInCall(c).approvals)
    assert.deepEqual(
      approvals.map((a) => [a.token, a.spender]),
      [
        [USDC, DRAINER],
        [DAI, DRAINER],
      ],
    )
  })
})

describe('approvalsInCall: malformed data', () => {
  it('error: short, truncated or non-hex data never throws; it is unread', () => {
    const whole = approve(DRAINER, maxUint256)
    const wrapped = multicall([whole])
    const inputs: Hex[] = [
      '0x09',
      '0x095ea7b3',
      whole.slice(0, 40) as Hex,
      wrapped.slice(0, wrapped.length - 64) as Hex,
      '0x095ea7b3zz' as Hex,
      call('0xac9650d8', 'uint256', [2n ** 200n]),
    ]
    for (const data of inputs) {
      const result = approvalsInCall({ to: USDC, data })
      assert.deepEqual(result.approvals, [], data)
      assert.equal(result.unread.length, 1, data)
    }
  })

  it('error: a multicall whose offsets all point at one nested multicall stops after the call budget', () => {
    /** bytes[] of `count` entries, every offset pointing at the same `item` (legal ABI, no copy). */
    const aliased = (item: Hex, count: number): Hex => {
      const word = (value: number): Hex => pad(numberToHex(value), { size: 32 })
      const offsets: Hex[] = Array(count).fill(word(count * 32))
      return concat([
        '0xac9650d8',
        word(32),
        word(count),
        ...offsets,
        word(size(item)),
        pad(item, { size: Math.ceil(size(item) / 32) * 32, dir: 'right' }) as Hex,
      ])
    }
    let data = approve(DRAINER, 1n)
    for (let depth = 0; depth < APPROVAL_MAX_DEPTH; depth++) data = aliased(data, 100)
    const started = performance.now()
    const result = approvalsInCall({ to: USDC, data })
    assert.ok(performance.now() - started < 2_000, 'bounded time')
    assert.ok(result.approvals.length < APPROVAL_MAX_CALLS)
    assert.ok(result.unread.length > 0, 'the rest is unread, so the preview warns')
    assert.ok(result.unread.length <= APPROVAL_MAX_DEPTH + 1, 'each wrapper cut short is reported once')
  })
})

describe('approvalsInTypedData', () => {
  const domain = (verifyingContract: Address) => ({ name: 'X', version: '1', chainId: 1, verifyingContract })
  const permitTypes = {
    Permit: [
      { name: 'owner', type: 'address' },
      { name: 'spender', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'nonce', type: 'uint256' },
      { name: 'deadline', type: 'uint256' },
    ],
  }
  const permitDetails = [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint160' },
    { name: 'expiration', type: 'uint48' },
    { name: 'nonce', type: 'uint48' },
  ]
  const tokenPermissions = [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ]

  it('default: an EIP-2612 Permit names the token (the verifying contract), owner, spender, amount and deadline', () => {
    const message = {
      owner: PERSON,
      spender: DRAINER,
      value: maxUint256.toString(),
      nonce: 0,
      deadline: 1_900_000_000,
    }
    assert.deepEqual(
      approvalsInTypedData({ domain: domain(USDC), types: permitTypes, primaryType: 'Permit', message }),
      [
        {
          standard: 'EIP-2612',
          name: 'Permit',
          token: USDC,
          spender: DRAINER,
          owner: PERSON,
          amount: maxUint256,
          unlimited: true,
          deadline: 1_900_000_000,
          via: [],
        },
      ],
    )
  })

  it('behavior: a deadline of max uint256 never lapses (no deadline); bigint and hex values are read', () => {
    const [found] = approvalsInTypedData({
      domain: domain(USDC),
      types: permitTypes,
      primaryType: 'Permit',
      message: { owner: PERSON, spender: DRAINER, value: '0x10', nonce: 0n, deadline: maxUint256 },
    })
    assert.equal(found?.amount, 16n)
    assert.equal(found?.deadline, undefined)
  })

  it('default: DAI’s Permit (holder, allowed) is unlimited when allowed, nothing when not', () => {
    const types = {
      Permit: [
        { name: 'holder', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'nonce', type: 'uint256' },
        { name: 'expiry', type: 'uint256' },
        { name: 'allowed', type: 'bool' },
      ],
    }
    const message = (allowed: boolean) => ({ holder: PERSON, spender: DRAINER, nonce: 0, expiry: 0, allowed })
    const [found] = approvalsInTypedData({
      domain: domain(DAI),
      types,
      primaryType: 'Permit',
      message: message(true),
    })
    assert.equal(found?.standard, 'DAI permit')
    assert.equal(found?.token, DAI)
    assert.equal(found?.owner, PERSON)
    assert.equal(found?.unlimited, true)
    assert.equal(found?.deadline, undefined, 'an expiry of 0 never lapses')
    assert.deepEqual(
      approvalsInTypedData({ domain: domain(DAI), types, primaryType: 'Permit', message: message(false) }),
      [],
    )
  })

  it('default: Permit2 PermitSingle and PermitBatch name each token, amount and expiration, and the spender', () => {
    const details = (token: Address, amount: bigint, expiration: bigint) => ({
      token,
      amount,
      expiration,
      nonce: 0,
    })
    const single = approvalsInTypedData({
      domain: { name: 'Permit2', chainId: 1, verifyingContract: PERMIT2_ADDRESS },
      types: {
        PermitSingle: [
          { name: 'details', type: 'PermitDetails' },
          { name: 'spender', type: 'address' },
          { name: 'sigDeadline', type: 'uint256' },
        ],
        PermitDetails: permitDetails,
      },
      primaryType: 'PermitSingle',
      message: { details: details(USDC, MAX160, MAX48), spender: DRAINER, sigDeadline: 1_800_000_000n },
    })
    assert.deepEqual(single, [
      {
        standard: 'Permit2',
        name: 'PermitSingle',
        token: USDC,
        spender: DRAINER,
        amount: MAX160,
        unlimited: true,
        canonicalPermit2: true,
        deadline: 1_800_000_000,
        via: [],
      },
    ])
    const batch = approvalsInTypedData({
      domain: { name: 'Permit2', chainId: 1, verifyingContract: OTHER_PERMIT2 },
      types: {
        PermitBatch: [
          { name: 'details', type: 'PermitDetails[]' },
          { name: 'spender', type: 'address' },
          { name: 'sigDeadline', type: 'uint256' },
        ],
        PermitDetails: permitDetails,
      },
      primaryType: 'PermitBatch',
      message: {
        details: [details(USDC, 5n, 1_900_000_000n), details(DAI, 2n ** 159n, 0n)],
        spender: DRAINER,
        sigDeadline: 1_800_000_000,
      },
    })
    assert.deepEqual(
      batch.map((a) => [a.token, a.amount, a.unlimited, a.expiration, a.canonicalPermit2]),
      [
        [USDC, 5n, undefined, 1_900_000_000, false],
        [DAI, 2n ** 159n, true, 0, false],
      ],
    )
  })

  it('default: Permit2 signature transfers, single and batch, with and without a witness, name the spender and each token', () => {
    const transfer = (primaryType: string, batch: boolean, witness: boolean) => ({
      domain: { name: 'Permit2', chainId: 1, verifyingContract: PERMIT2_ADDRESS },
      types: {
        [primaryType]: [
          { name: 'permitted', type: batch ? 'TokenPermissions[]' : 'TokenPermissions' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
          ...(witness ? [{ name: 'witness', type: 'ExclusiveDutchOrder' }] : []),
        ],
        TokenPermissions: tokenPermissions,
        ...(witness ? { ExclusiveDutchOrder: [{ name: 'swapper', type: 'address' }] } : {}),
      },
      primaryType,
      message: {
        permitted: batch
          ? [
              { token: USDC, amount: maxUint256 },
              { token: DAI, amount: 7n },
            ]
          : { token: USDC, amount: maxUint256 },
        spender: DRAINER,
        nonce: 1,
        deadline: 1_900_000_000,
        ...(witness ? { witness: { swapper: PERSON } } : {}),
      },
    })
    for (const [primaryType, batch, witness] of [
      ['PermitTransferFrom', false, false],
      ['PermitWitnessTransferFrom', false, true],
      ['PermitBatchTransferFrom', true, false],
      ['PermitBatchWitnessTransferFrom', true, true],
    ] as const) {
      const found = approvalsInTypedData(transfer(primaryType, batch, witness))
      assert.deepEqual(
        found.map((a) => [a.standard, a.name, a.token, a.spender, a.amount, a.unlimited, a.expiration]),
        [
          ['Permit2', primaryType, USDC, DRAINER, maxUint256, true, 1_900_000_000],
          ...(batch ? [['Permit2', primaryType, DAI, DRAINER, 7n, undefined, 1_900_000_000]] : []),
        ],
        primaryType,
      )
      assert.equal(found[0]?.canonicalPermit2, true)
    }
  })

  it('error: another shape, a missing verifying contract or malformed values name nothing (and never throw)', () => {
    const message = { owner: PERSON, spender: DRAINER, value: 1, nonce: 0, deadline: 1 }
    const shapes = [
      // Not a permit at all
      {
        domain: domain(USDC),
        types: { Mail: [{ name: 'to', type: 'address' }] },
        primaryType: 'Mail',
        message,
      },
      // `value` declared as a string: not what a token hashes
      {
        domain: domain(USDC),
        types: { Permit: permitTypes.Permit.map((f) => (f.name === 'value' ? { ...f, type: 'string' } : f)) },
        primaryType: 'Permit',
        message,
      },
      // No verifying contract: no token
      { domain: { name: 'X' }, types: permitTypes, primaryType: 'Permit', message },
      { types: permitTypes, primaryType: 'Permit', message },
      // Malformed values
      {
        domain: domain(USDC),
        types: permitTypes,
        primaryType: 'Permit',
        message: { ...message, spender: 'nobody' },
      },
      { domain: domain(USDC), types: permitTypes, primaryType: 'Permit', message: { ...message, value: -1 } },
      {
        domain: domain(USDC),
        types: permitTypes,
        primaryType: 'Permit',
        message: { ...message, value: 1.5 },
      },
      {
        domain: { verifyingContract: PERMIT2_ADDRESS },
        types: {
          PermitBatch: [
            { name: 'details', type: 'PermitDetails[]' },
            { name: 'spender', type: 'address' },
            { name: 'sigDeadline', type: 'uint256' },
          ],
          PermitDetails: permitDetails,
        },
        primaryType: 'PermitBatch',
        message: { details: 'nope', spender: DRAINER, sigDeadline: 1 },
      },
    ]
    for (const shape of shapes) assert.deepEqual(approvalsInTypedData(shape), [], JSON.stringify(shape))
  })
})
