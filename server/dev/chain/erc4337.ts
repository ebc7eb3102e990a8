/**
 * ERC-4337 v0.8 on the local chain, at the addresses it has on public networks, so viem's defaults
 * (`entryPoint08Address`) and the usual factory addresses need no override:
 *
 * 1. Arachnid's deterministic deployer (`0x4e59b448...`) from its published pre-signed transaction
 *    (its signer is funded with `hardhat_setBalance` first);
 * 2. EntryPoint v0.8, SimpleAccountFactory and Simple7702Account created through it with CREATE2 from
 *    the `@account-abstraction/contracts` 0.8.0 build artifacts (MIT; a dev dependency, never bundled nor
 *    a dependency of the service), with the salts of their canonical deployments;
 * 3. the embedded wallet's own WalletAccountFactory (contracts/WalletAccount.sol, compiled by solc-js),
 *    through the same deployer with salt zero, at the address the service knows
 *    (`WALLET_ACCOUNT_FACTORY`): the account with ERC-1271 that sign-in needs (docs/ARCHITECTURE.md).
 *
 * Nothing here spends a dev account's nonce: an impersonated account outside the ten dev accounts sends
 * the CREATE2 transactions, so the addresses the market plans (`planMarket`) stay as they are.
 */
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  concat,
  encodeAbiParameters,
  getContractAddress,
  type Hex,
  pad,
  parseEther,
  toHex,
} from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import { WALLET_ACCOUNT_FACTORY } from '../../embedded/walletAccount.ts'
import { compileContracts } from './compile.ts'
import { jsonRpc } from './market.ts'

const require = createRequire(import.meta.url)

type Artifact = { abi: Abi; bytecode: Hex; deployedBytecode: Hex }
const artifact = (name: string): Artifact =>
  require(`@account-abstraction/contracts/artifacts/${name}.json`) as Artifact

/** Arachnid's deterministic deployment proxy: `salt (32 bytes) ++ init code` in, CREATE2 out. */
export const DETERMINISTIC_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'
/** The signer of its pre-signed (pre-EIP-155, so chain-independent) deployment transaction. */
const DETERMINISTIC_DEPLOYER_SIGNER: Address = '0x3fab184622dc19b6109349b94811493bf2a45362'
const DETERMINISTIC_DEPLOYER_TRANSACTION: Hex = `0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba0${'22'.repeat(32)}a0${'22'.repeat(32)}`

/** The CREATE2 salt of EntryPoint v0.8's canonical deployment; the account contracts used zero. */
const ENTRY_POINT_08_SALT: Hex = '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9'
const ZERO_SALT: Hex = pad('0x0')

/** Sends the CREATE2 transactions: not a dev account (see the module comment). */
const ERC4337_DEPLOYER: Address = '0x4337000000000000000000000000000000000de9'

export type Erc4337Contracts = {
  entryPoint: Address
  simpleAccountFactory: Address
  simple7702Account: Address
  /** The embedded wallet's account factory (ERC-1271 accounts; callable by anyone, for EIP-6492). */
  walletAccountFactory: Address
}

/** What {@link deployErc4337} places, with its init code and salt. */
function plan() {
  const entryPoint = artifact('EntryPoint').bytecode
  const factory = concat([
    artifact('SimpleAccountFactory').bytecode,
    encodeAbiParameters([{ type: 'address' }], [entryPoint08Address]),
  ])
  const simple7702 = artifact('Simple7702Account').bytecode
  const at = (salt: Hex, initCode: Hex) => ({
    salt,
    initCode,
    address: getContractAddress({
      opcode: 'CREATE2',
      from: DETERMINISTIC_DEPLOYER,
      salt,
      bytecode: initCode,
    }),
  })
  return {
    entryPoint: at(ENTRY_POINT_08_SALT, entryPoint),
    simpleAccountFactory: at(ZERO_SALT, factory),
    simple7702Account: at(ZERO_SALT, simple7702),
  }
}

/**
 * The contracts' addresses (the same on every chain; EntryPoint's is viem's `entryPoint08Address`).
 *
 * @example
 * erc4337Contracts().simpleAccountFactory // '0x13E9ed32155810FDbd067D4522C492D6f68E5944'
 */
export function erc4337Contracts(): Erc4337Contracts {
  const { entryPoint, simpleAccountFactory, simple7702Account } = plan()
  return {
    entryPoint: entryPoint.address,
    simpleAccountFactory: simpleAccountFactory.address,
    simple7702Account: simple7702Account.address,
    walletAccountFactory: WALLET_ACCOUNT_FACTORY,
  }
}

/** WalletAccountFactory's CREATE2 deployment (its address follows from the compiled code). */
async function walletAccountFactoryPlan() {
  const { WalletAccountFactory } = await compileContracts()
  if (!WalletAccountFactory) throw new Error('deployErc4337: contracts/WalletAccount.sol did not compile')
  const initCode = concat([
    WalletAccountFactory.bytecode,
    encodeAbiParameters([{ type: 'address' }], [entryPoint08Address]),
  ])
  const address = getContractAddress({
    opcode: 'CREATE2',
    from: DETERMINISTIC_DEPLOYER,
    salt: ZERO_SALT,
    bytecode: initCode,
  })
  if (address !== WALLET_ACCOUNT_FACTORY) {
    throw new Error(
      `deployErc4337: the compiled WalletAccountFactory lands at ${address}, not at ${WALLET_ACCOUNT_FACTORY}: ` +
        'contracts/WalletAccount.sol changed, so update WALLET_ACCOUNT_FACTORY in server/embedded/walletAccount.ts',
    )
  }
  return { salt: ZERO_SALT, initCode, address }
}

/**
 * EntryPointSimulations' runtime code: a bundler places it at the EntryPoint's address in an `eth_call`
 * state override to simulate a UserOperation (it is never deployed).
 */
export function entryPointSimulationsCode(): Hex {
  return artifact('EntryPointSimulations').deployedBytecode
}

/**
 * Deploys the deterministic deployer and the ERC-4337 v0.8 contracts on a local Hardhat chain (skipping
 * any already there) and checks each address has code.
 *
 * @example
 * const { entryPoint } = await deployErc4337({ url: chain.url })
 */
export async function deployErc4337({ url }: { url: string }): Promise<Erc4337Contracts> {
  const rpc = jsonRpc(url, 'deployErc4337')
  const hasCode = async (address: Address) =>
    ((await rpc('eth_getCode', [address, 'latest'])) as Hex) !== '0x'
  const receiptOk = async (hash: unknown, what: string) => {
    const receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { status?: string } | null
    if (receipt?.status !== '0x1') throw new Error(`deployErc4337: ${what} failed`)
  }

  if (!(await hasCode(DETERMINISTIC_DEPLOYER))) {
    await rpc('hardhat_setBalance', [DETERMINISTIC_DEPLOYER_SIGNER, toHex(parseEther('1'))])
    const hash = await rpc('eth_sendRawTransaction', [DETERMINISTIC_DEPLOYER_TRANSACTION])
    await receiptOk(hash, 'the deterministic deployer')
  }
  await rpc('hardhat_setBalance', [ERC4337_DEPLOYER, toHex(parseEther('10'))])
  await rpc('hardhat_impersonateAccount', [ERC4337_DEPLOYER])
  const planned = { ...plan(), walletAccountFactory: await walletAccountFactoryPlan() }
  try {
    for (const [name, { salt, initCode, address }] of Object.entries(planned)) {
      if (await hasCode(address)) continue
      const hash = await rpc('eth_sendTransaction', [
        {
          from: ERC4337_DEPLOYER,
          to: DETERMINISTIC_DEPLOYER,
          data: concat([salt, initCode]),
          gas: '0xf42400',
        },
      ])
      await receiptOk(hash, `deploying ${name}`)
      if (!(await hasCode(address))) throw new Error(`deployErc4337: ${name} is not at ${address}`)
    }
  } finally {
    await rpc('hardhat_stopImpersonatingAccount', [ERC4337_DEPLOYER])
  }
  return erc4337Contracts()
}
