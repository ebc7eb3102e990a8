/**
 * Sign-in with smart accounts (EIP-1271 deployed, EIP-6492 counterfactual) against a local Hardhat chain,
 * with wallet and factory contracts assembled here from hand-written EVM bytecode.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  pad,
  serializeErc6492Signature,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import { type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import {
  authErrorBody,
  authenticateResponse,
  authNonceResponse,
  nameRecord,
  nameRegistrationMessage,
} from '../../../src/protocol/api/index.ts'
import { createSiwxMessage } from '../../../src/protocol/siwx/index.ts'
import { freePort, openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

const mnemonic = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(mnemonic, { addressIndex: 0 })
const bob = mnemonicToAccount(mnemonic, { addressIndex: 1 })
const deployer = mnemonicToAccount(mnemonic, { addressIndex: 2 })
const site = 'http://localhost:5173'
const chainId = 31337
const factoryAddress = getAddress('0x00000000000000000000000000000000000fac70')

/**
 * Runtime of a one-owner smart account: `isValidSignature(bytes32 hash, bytes signature)` recovers the
 * signer of a 65-byte signature with the ecrecover precompile and answers the EIP-1271 magic value
 * `0x1626ba7e` when it is `owner`, `0xffffffff` otherwise.
 */
function ownerWalletRuntime(owner: Address): Hex {
  const beforeJump = [
    '600435600052', // mstore(0x00, calldataload(0x04))       hash
    '60a43560f81c602052', // mstore(0x20, calldataload(0xa4) >> 248)  v, the signature's last byte
    '606435604052', // mstore(0x40, calldataload(0x64))       r
    '608435606052', // mstore(0x60, calldataload(0x84))       s
    '60206080608060006001' + '5a' + 'fa' + '50', // staticcall(gas, 1, 0x00, 0x80, 0x80, 0x20); pop
    '608051', // mload(0x80): the recovered address (0 when recovery failed)
    `73${owner.slice(2).toLowerCase()}`, // push20 owner
    '14', // eq
  ].join('')
  const refuse = '63ffffffff60e01b60005260206000f3' // return bytes4(0xffffffff)
  const accept = '5b631626ba7e60e01b60005260206000f3' // jumpdest; return bytes4(0x1626ba7e)
  const target = beforeJump.length / 2 + 3 + refuse.length / 2
  return `0x${beforeJump}60${target.toString(16).padStart(2, '0')}57${refuse}${accept}`
}

/** Creation code returning `runtime` (under 256 bytes). */
function initCode(runtime: Hex): Hex {
  const length = ((runtime.length - 2) / 2).toString(16).padStart(2, '0')
  // codecopy(0, 12, length); return(0, length), then the runtime from byte 12.
  return `0x60${length}600c60003960${length}6000f3${runtime.slice(2)}`
}

/** Runtime of a factory that deploys `init` with CREATE2 (salt 0) whenever it is called. */
function factoryRuntime(init: Hex): Hex {
  const length = ((init.length - 2) / 2).toString(16).padStart(2, '0')
  // codecopy(0, 18, length); create2(0, 0, length, 0); pop; stop, then the creation code from byte 18.
  return `0x60${length}6012600039600060${length}60006000f55000${init.slice(2)}`
}

let testDb: TestDatabase
let app: FastifyInstance
let chain: LocalChain
let deployedWallet: Address
let counterfactualWallet: Address

before(
  async () => {
    chain = await startChain({ port: await freePort(), chainId })
    const deadUpstream = `http://127.0.0.1:${await freePort()}`
    testDb = await openTestDatabase('auth_smart_accounts')
    app = await buildApp(
      testDb.config({
        devOrigins: [site],
        rpcUpstreams: { [`eip155:${chainId}`]: chain.url, 'eip155:31338': deadUpstream },
        rpcTimeoutMs: 5000,
      }),
      { database: testDb.database, logger: testLogger },
    )

    const publicClient = createPublicClient({ transport: http(chain.url) })
    const walletClient = createWalletClient({ account: deployer, transport: http(chain.url) })
    // A real deployment of a smart account owned by bob.
    const hash = await walletClient.deployContract({
      abi: [],
      bytecode: initCode(ownerWalletRuntime(bob.address)),
      chain: null,
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    assert.ok(receipt.contractAddress)
    deployedWallet = getAddress(receipt.contractAddress)
    // A factory that would deploy another one, owned by bob, at an address known in advance.
    const walletInit = initCode(ownerWalletRuntime(bob.address))
    await publicClient.request({
      method: 'hardhat_setCode' as 'eth_chainId',
      params: [factoryAddress, factoryRuntime(walletInit)] as never,
    })
    counterfactualWallet = getContractAddress({
      opcode: 'CREATE2',
      from: factoryAddress,
      salt: pad('0x00', { size: 32 }),
      bytecode: walletInit,
    })
  },
  { timeout: 60_000 },
)

after(async () => {
  await app?.close()
  await testDb?.close()
  await chain?.stop()
})

function errorOf(body: string) {
  return authErrorBody.parse(JSON.parse(body)).error
}

async function signIn(
  address: Address,
  sign: (message: string) => Promise<Hex>,
  options: { chain?: string } = {},
) {
  const nonceAnswer = await app.inject({ url: `/auth/v1/nonce?${sdk()}`, headers: { origin: site } })
  const { nonce, token } = authNonceResponse.parse(nonceAnswer.json())
  const message = createSiwxMessage({
    domain: 'localhost:5173',
    accountAddress: address,
    statement: 'Sign in with a smart account',
    uri: `${site}/`,
    version: '1',
    chainId: options.chain ?? `eip155:${chainId}`,
    nonce,
    issuedAt: new Date().toISOString(),
  })
  const signature = await sign(message)
  return app.inject({
    method: 'POST',
    url: `/auth/v1/authenticate?${sdk()}`,
    headers: { origin: site, 'content-type': 'application/json' },
    payload: JSON.stringify({ message, signature, nonceToken: token }),
  })
}

describe('smart accounts on a local chain', { timeout: 60_000 }, () => {
  test("default: a deployed EIP-1271 account signs in with its owner's signature", async () => {
    const response = await signIn(deployedWallet, (message) => bob.signMessage({ message }))
    assert.equal(response.statusCode, 200, response.body)
    const { session } = authenticateResponse.parse(response.json())
    assert.equal(session.data.accountAddress, deployedWallet)
    assert.deepEqual(session.cacao.s, { t: 'eip1271', s: session.signature })
  })

  test('error: an account with code that refuses the signature: "This application might not support Smart Accounts"', async () => {
    const response = await signIn(deployedWallet, (message) => alice.signMessage({ message }))
    assert.equal(response.statusCode, 401)
    assert.deepEqual(errorOf(response.body), {
      code: 'SMART_ACCOUNT_NOT_SUPPORTED',
      message: 'This application might not support Smart Accounts',
      field: 'signature',
    })
  })

  test('default: a counterfactual EIP-6492 account signs in before it is deployed', async () => {
    const publicClient = createPublicClient({ transport: http(chain.url) })
    assert.equal(await publicClient.getCode({ address: counterfactualWallet }), undefined)
    const wrap = async (signature: Hex) =>
      serializeErc6492Signature({ address: factoryAddress, data: '0x', signature })
    const response = await signIn(counterfactualWallet, async (message) =>
      wrap(await bob.signMessage({ message })),
    )
    assert.equal(response.statusCode, 200, response.body)
    const { session } = authenticateResponse.parse(response.json())
    assert.equal(session.cacao.s.t, 'eip6492')
    // Checked in a simulated call: still not deployed.
    assert.equal(await publicClient.getCode({ address: counterfactualWallet }), undefined)

    const refused = await signIn(counterfactualWallet, async (message) =>
      wrap(await alice.signMessage({ message })),
    )
    assert.equal(refused.statusCode, 401)
    assert.equal(errorOf(refused.body).message, 'This application might not support Smart Accounts')
  })

  test("default: a key's account on the chain; another key's signature is an invalid signature", async () => {
    const signedIn = await signIn(alice.address, (message) => alice.signMessage({ message }))
    assert.equal(signedIn.statusCode, 200, signedIn.body)
    assert.equal(authenticateResponse.parse(signedIn.json()).session.cacao.s.t, 'eip191')
    const refused = await signIn(alice.address, (message) => bob.signMessage({ message }))
    assert.equal(refused.statusCode, 401)
    assert.equal(errorOf(refused.body).code, 'INVALID_SIGNATURE')
  })

  test('error: an unreachable upstream is a 502 for signatures it would have to check', async () => {
    const keyed = await signIn(alice.address, (message) => alice.signMessage({ message }), {
      chain: 'eip155:31338',
    })
    assert.equal(keyed.statusCode, 200, keyed.body)
    const response = await signIn(alice.address, (message) => bob.signMessage({ message }), {
      chain: 'eip155:31338',
    })
    assert.equal(response.statusCode, 502)
    assert.deepEqual(errorOf(response.body), {
      code: 'UPSTREAM_ERROR',
      message: `The RPC upstream for eip155:31338 could not check the signature of ${alice.address}`,
    })
  })
})

describe('names registered by smart accounts (the sign-in checker)', { timeout: 60_000 }, () => {
  async function registerName(address: Address, label: string, sign: (message: string) => Promise<Hex>) {
    const message = nameRegistrationMessage({
      domain: 'localhost:5173',
      name: `${label}.wallet.test`,
      address,
      chainId: `eip155:${chainId}`,
      issuedAt: new Date().toISOString(),
    })
    return app.inject({
      method: 'POST',
      url: `/names/v1/register?${sdk()}`,
      headers: { origin: site, 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: label,
        address,
        chainId: `eip155:${chainId}`,
        message,
        signature: await sign(message),
      }),
    })
  }

  test("default: a deployed EIP-1271 account registers a name with its owner's signature; another key's is refused", async () => {
    const refused = await registerName(deployedWallet, 'smart-one', (message) =>
      alice.signMessage({ message }),
    )
    assert.equal(refused.statusCode, 401)
    assert.equal(errorOf(refused.body).code, 'SMART_ACCOUNT_NOT_SUPPORTED')
    const response = await registerName(deployedWallet, 'smart-one', (message) =>
      bob.signMessage({ message }),
    )
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(nameRecord.parse(response.json()).addresses[0]?.address, deployedWallet.toLowerCase())
  })

  test('default: a counterfactual EIP-6492 account registers a name before it is deployed', async () => {
    const response = await registerName(counterfactualWallet, 'smart-two', async (message) =>
      serializeErc6492Signature({
        address: factoryAddress,
        data: '0x',
        signature: await bob.signMessage({ message }),
      }),
    )
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(nameRecord.parse(response.json()).name, 'smart-two.wallet.test')
  })
})
