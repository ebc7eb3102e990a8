/**
 * The embedded wallet's account contract (server/dev/chain/contracts/WalletAccount.sol) on a real local
 * chain: its factory anyone may call (idempotent, CREATE2), its ERC-1271 over a hash bound to the account
 * and the chain, and who may make it act. Written as someone probing the contract would.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  hashMessage,
  hashTypedData,
  http,
  parseAbi,
  parseEther,
  toHex,
} from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { deployErc4337 } from '../../../server/dev/chain/erc4337.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import {
  replaySafeTypedData,
  WALLET_ACCOUNT_FACTORY,
  walletAccountAbi,
} from '../../../server/embedded/walletAccount.ts'
import { freePort } from './helpers.ts'

const accountAbi = parseAbi([
  'error NotAllowed(address caller)',
  'function owner() view returns (address)',
  'function entryPoint() view returns (address)',
  'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
  'function replaySafeHash(bytes32 hash) view returns (bytes32)',
  'function execute(address target, uint256 value, bytes data)',
  'function validateUserOp((address sender, uint256 nonce, bytes initCode, bytes callData, bytes32 accountGasLimits, uint256 preVerificationGas, bytes32 gasFees, bytes paymasterAndData, bytes signature) userOp, bytes32 userOpHash, uint256 missingAccountFunds) returns (uint256)',
])
const VALID = '0x1626ba7e'
const INVALID = '0xffffffff'

let chain: LocalChain
const localChain = () => ({
  id: 31337,
  name: 'Local Chain',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [chain.url] } },
})
const client = () =>
  createPublicClient({ chain: localChain(), transport: http(chain.url, { retryCount: 0 }) })
/** A dev account that is not the owner: anyone on the network. */
const stranger = () =>
  createWalletClient({
    account: devAccount(3),
    chain: localChain(),
    transport: http(chain.url, { retryCount: 0 }),
  })

before(
  async () => {
    chain = await startChain({ port: await freePort(), chainId: 31337 })
    await deployErc4337({ url: chain.url })
  },
  { timeout: 60_000 },
)
after(async () => {
  await chain?.stop()
})

const predicted = (owner: Address, salt = 0n) =>
  client().readContract({
    address: WALLET_ACCOUNT_FACTORY,
    abi: walletAccountAbi,
    functionName: 'getAddress',
    args: [owner, salt],
  })

/** Deploys `owner`'s account (salt) by a stranger's transaction; resolves to its address. */
async function deployed(owner: Address, salt = 0n): Promise<Address> {
  const hash = await stranger().writeContract({
    address: WALLET_ACCOUNT_FACTORY,
    abi: walletAccountAbi,
    functionName: 'createAccount',
    args: [owner, salt],
  })
  assert.equal((await client().waitForTransactionReceipt({ hash })).status, 'success')
  return predicted(owner, salt)
}

const isValid = (account: Address, hash: Hex, signature: Hex) =>
  client().readContract({
    address: account,
    abi: accountAbi,
    functionName: 'isValidSignature',
    args: [hash, signature],
  })

describe('WalletAccount and its factory', { timeout: 60_000 }, () => {
  test('the factory: anyone creates an owner’s account at its predicted address; a second call answers the same account', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const address = await predicted(owner.address)
    assert.equal(await client().getCode({ address }), undefined)
    assert.equal(await deployed(owner.address), address)
    assert.ok((await client().getCode({ address }))?.length)
    assert.equal(
      await client().readContract({ address, abi: accountAbi, functionName: 'owner' }),
      owner.address,
    )
    assert.equal(
      await client().readContract({ address, abi: accountAbi, functionName: 'entryPoint' }),
      entryPoint08Address,
    )
    // Idempotent: creating it again neither reverts nor moves it.
    const { result } = await client().simulateContract({
      account: devAccount(4),
      address: WALLET_ACCOUNT_FACTORY,
      abi: walletAccountAbi,
      functionName: 'createAccount',
      args: [owner.address, 0n],
    })
    assert.equal(result, address)
    assert.equal(await deployed(owner.address), address)
    // Another salt is another account of the same owner.
    assert.notEqual(await predicted(owner.address, 1n), address)
  })

  test('ERC-1271: the owner’s signature of the replay-safe hash only; not the raw hash, not another account, not another chain', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const [account, sibling] = [await deployed(owner.address), await deployed(owner.address, 1n)]
    const hash = hashMessage('Sign in to 127.0.0.1')
    assert.equal(
      await client().readContract({
        address: account,
        abi: accountAbi,
        functionName: 'replaySafeHash',
        args: [hash],
      }),
      hashTypedData(replaySafeTypedData(account, 31337, hash)),
    )
    const good = await owner.signTypedData(replaySafeTypedData(account, 31337, hash))
    assert.equal(await isValid(account, hash, good), VALID)
    assert.equal(await isValid(account, hashMessage('something else'), good), INVALID)
    assert.equal(await isValid(account, hash, await owner.sign({ hash })), INVALID, 'the raw hash')
    assert.equal(await isValid(sibling, hash, good), INVALID, 'another account of the owner')
    const otherChain = await owner.signTypedData(replaySafeTypedData(account, 1, hash))
    assert.equal(await isValid(account, hash, otherChain), INVALID, 'signed for chain 1')
    const stranger = privateKeyToAccount(generatePrivateKey())
    assert.equal(
      await isValid(account, hash, await stranger.signTypedData(replaySafeTypedData(account, 31337, hash))),
      INVALID,
    )
    assert.equal(
      await isValid(account, hash, '0x1234'),
      INVALID,
      'a malformed signature is invalid, no revert',
    )
  })

  test('error: only the EntryPoint validates, only the EntryPoint or the owner executes', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const account = await deployed(owner.address)
    await client().request({
      method: 'hardhat_setBalance',
      params: [account, toHex(parseEther('1'))],
    } as never)
    await client().request({
      method: 'hardhat_setBalance',
      params: [owner.address, toHex(parseEther('1'))],
    } as never)
    const bob = devAccount(5).address
    await assert.rejects(
      client().simulateContract({
        account: devAccount(3),
        address: account,
        abi: accountAbi,
        functionName: 'execute',
        args: [bob, 1n, '0x'],
      }),
      /NotAllowed/,
    )
    const userOp = {
      sender: account,
      nonce: 0n,
      initCode: '0x',
      callData: '0x',
      accountGasLimits: toHex(0n, { size: 32 }),
      preVerificationGas: 0n,
      gasFees: toHex(0n, { size: 32 }),
      paymasterAndData: '0x',
      signature: '0x',
    } as const
    await assert.rejects(
      client().simulateContract({
        account: devAccount(3),
        address: account,
        abi: accountAbi,
        functionName: 'validateUserOp',
        args: [userOp, toHex(1n, { size: 32 }), parseEther('1')],
      }),
      /NotAllowed/,
    )
    // The owner itself may act directly.
    const before = await client().getBalance({ address: bob })
    const ownerClient = createWalletClient({
      account: owner,
      chain: localChain(),
      transport: http(chain.url),
    })
    const hash = await ownerClient.writeContract({
      address: account,
      abi: accountAbi,
      functionName: 'execute',
      args: [bob, 7n, '0x'],
    })
    assert.equal((await client().waitForTransactionReceipt({ hash })).status, 'success')
    assert.equal((await client().getBalance({ address: bob })) - before, 7n)
  })
})
