import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js'
import { generateMnemonic, mnemonicToSeedSync } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { Keypair } from '@solana/web3.js'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { addressesOf, SOLANA_PATH, withKeys } from '../../../src/frame/keys/derive.ts'
import {
  createSecret,
  parseSecret,
  phraseOf,
  secretFromKeys,
  secretFromPhrase,
} from '../../../src/frame/keys/secret.ts'
import { deriveEd25519, hardenedPath } from '../../../src/frame/keys/slip10.ts'

const HARDHAT = 'test test test test test test test test test test test junk'
const ABANDON =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'

const solanaOfPhrase = (phrase: string) => {
  const seed = mnemonicToSeedSync(phrase)
  return Keypair.fromSeed(deriveEd25519(seed, SOLANA_PATH).privateKey).publicKey.toBase58()
}

describe('SLIP-0010 ed25519', () => {
  // https://github.com/satoshilabs/slips/blob/master/slip-0010.md, "Test vector 1/2 for ed25519"
  const vectors: { seed: string; chains: [path: string, chainCode: string, privateKey: string][] }[] = [
    {
      seed: '000102030405060708090a0b0c0d0e0f',
      chains: [
        [
          'm',
          '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
          '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
        ],
        [
          "m/0'",
          '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
          '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
        ],
        [
          "m/0'/1'",
          'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
          'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
        ],
        [
          "m/0'/1'/2'",
          '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
          '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
        ],
        [
          "m/0'/1'/2'/2'",
          '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc',
          '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
        ],
        [
          "m/0'/1'/2'/2'/1000000000'",
          '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230',
          '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
        ],
      ],
    },
    {
      seed: 'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542',
      chains: [
        [
          'm',
          'ef70a74db9c3a5af931b5fe73ed8e1a53464133654fd55e7a66f8570b8e33c3b',
          '171cb88b1b3c1db25add599712e36245d75bc65a1a5c9e18d76f9f2b1eab4012',
        ],
        [
          "m/0'",
          '0b78a3226f915c082bf118f83618a618ab6dec793752624cbeb622acb562862d',
          '1559eb2bbec5790b0c65d8693e4d0875b1747f4970ae8b650486ed7470845635',
        ],
        [
          "m/0'/2147483647'",
          '138f0b2551bcafeca6ff2aa88ba8ed0ed8de070841f0c4ef0165df8181eaad7f',
          'ea4f5bfe8694d8bb74b7b59404632fd5968b774ed545e810de9c32a4fb4192f4',
        ],
        [
          "m/0'/2147483647'/1'",
          '73bd9fff1cfbde33a1b846c27085f711c0fe2d66fd32e139d3ebc28e5a4a6b90',
          '3757c7577170179c7868353ada796c839135b3d30554bbb74a4b1e4a5a58505c',
        ],
        [
          "m/0'/2147483647'/1'/2147483646'",
          '0902fe8a29f9140480a00ef244bd183e8a13288e4412d8389d140aac1794825a',
          '5837736c89570de861ebc173b1086da4f505d4adb387c6a1b1342d5e4ac9ec72',
        ],
        [
          "m/0'/2147483647'/1'/2147483646'/2'",
          '5d70af781f3a37b829f0d060924d5e960bdc02e85423494afc0b1a41bbe196d4',
          '551d333177df541ad876a60ea71f00447931c0a9da16f227c11ea080d7391b8d',
        ],
      ],
    },
  ]

  it('default: the published test vectors, every chain (chain code and private key)', () => {
    for (const { seed, chains } of vectors) {
      for (const [path, chainCode, privateKey] of chains) {
        const node = deriveEd25519(hexToBytes(seed), path)
        assert.equal(bytesToHex(node.chainCode), chainCode, `${seed.slice(0, 8)} ${path} chain code`)
        assert.equal(bytesToHex(node.privateKey), privateKey, `${seed.slice(0, 8)} ${path} key`)
      }
    }
  })

  it('error: a step that is not hardened, or a path without m, is refused with its message', () => {
    assert.throws(() => hardenedPath("m/44'/501'/0"), { message: 'SLIP-0010 ed25519 steps are hardened: 0' })
    assert.throws(() => hardenedPath("44'/501'"), { message: "A derivation path starts with m: 44'/501'" })
    assert.deepEqual(hardenedPath(SOLANA_PATH), [44, 501, 0, 0])
  })
})

describe('the secret and its accounts', () => {
  it('default: "test test … junk" opens the accounts viem derives (MetaMask’s first account)', async () => {
    const addresses = await addressesOf(secretFromPhrase(HARDHAT))
    assert.equal(addresses.eip155, mnemonicToAccount(HARDHAT).address)
    assert.equal(addresses.eip155, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    assert.equal(addresses.solana, solanaOfPhrase(HARDHAT))
  })

  it('default: "abandon … about" opens Phantom’s published Solana address', async () => {
    const addresses = await addressesOf(secretFromPhrase(ABANDON))
    // The phrase is BIP-39's first English test vector (entropy 00…00; trezor/python-mnemonic
    // vectors.json). HAgk14… is the first account Phantom and Solflare show for it
    // (m/44'/501'/0'/0'), the address public multi-chain wallet test suites pin for this phrase, with
    // MetaMask's 0x9858… on the EVM side; Keypair.fromSeed checks the last step independently.
    assert.equal(addresses.solana, 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk')
    assert.equal(addresses.solana, solanaOfPhrase(ABANDON))
    assert.equal(addresses.eip155, '0x9858EfFD232B4033E47d90003D41EC34EcaEda94')
    assert.equal(addresses.eip155, mnemonicToAccount(ABANDON).address)
    // Typed with other spacing and case: the same secret.
    assert.deepEqual(
      secretFromPhrase(`  ${ABANDON.toUpperCase().replace(/ /g, '\n ')} `),
      secretFromPhrase(ABANDON),
    )
  })

  it('default: a random phrase and a new secret: viem’s address, and Keypair.fromSeed of the derived seed', async () => {
    const phrase = generateMnemonic(wordlist, 128)
    const secret = secretFromPhrase(phrase)
    assert.equal(phraseOf(secret), phrase)
    await withKeys(secret, (keys) => {
      assert.equal(
        privateKeyToAccount(`0x${bytesToHex(keys.secp256k1)}`).address,
        mnemonicToAccount(phrase).address,
      )
      assert.equal(Keypair.fromSeed(keys.ed25519).publicKey.toBase58(), solanaOfPhrase(phrase))
    })
    const fresh = createSecret()
    assert.equal(fresh.length, 17)
    assert.equal(fresh[0], 1)
    const freshPhrase = phraseOf(fresh) ?? ''
    assert.equal(freshPhrase.split(' ').length, 12)
    assert.equal((await addressesOf(fresh)).eip155, mnemonicToAccount(freshPhrase).address)
    assert.notDeepEqual(createSecret(), fresh)
  })

  it('behavior: raw keys (an existing user’s, version 2) open their own accounts and have no phrase', async () => {
    const evm = hexToBytes('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
    const solana = Keypair.generate()
    const secret = secretFromKeys({ secp256k1: evm, ed25519: solana.secretKey.slice(0, 32) })
    assert.equal(secret.length, 65)
    assert.equal(secret[0], 2)
    assert.equal(phraseOf(secret), undefined)
    assert.deepEqual(await addressesOf(secret), {
      eip155: privateKeyToAccount(`0x${bytesToHex(evm)}`).address,
      solana: solana.publicKey.toBase58(),
    })
    await withKeys(secret, (keys) => {
      assert.deepEqual(keys.secp256k1, evm)
      assert.deepEqual(keys.ed25519, solana.secretKey.slice(0, 32))
    })
  })

  it('behavior: withKeys zeroes both keys once `use` settles, and when it throws', async () => {
    const secret = secretFromPhrase(HARDHAT)
    let seen: { secp256k1: Uint8Array; ed25519: Uint8Array } | undefined
    const length = await withKeys(secret, (keys) => {
      seen = keys
      assert.ok(keys.secp256k1.some((byte) => byte !== 0))
      return keys.secp256k1.length + keys.ed25519.length
    })
    assert.equal(length, 64)
    assert.ok(seen?.secp256k1.every((byte) => byte === 0) && seen.ed25519.every((byte) => byte === 0))
    await assert.rejects(
      withKeys(
        secretFromKeys({ secp256k1: new Uint8Array(32).fill(7), ed25519: new Uint8Array(32).fill(9) }),
        (keys) => {
          seen = keys
          throw new Error('signer failed')
        },
      ),
      { message: 'signer failed' },
    )
    assert.ok(seen?.secp256k1.every((byte) => byte === 0) && seen.ed25519.every((byte) => byte === 0))
  })

  it('error: a phrase with a bad checksum, 24 words, unknown versions and bad raw keys are refused', async () => {
    const invalid = { name: 'InvalidSecretError', shortMessage: 'The wallet secret is not in a known format' }
    assert.throws(() => secretFromPhrase(HARDHAT.replace('junk', 'test')), invalid)
    assert.throws(() => secretFromPhrase(generateMnemonic(wordlist, 256)), {
      ...invalid,
      details: 'The phrase must have 12 words',
    })
    assert.throws(() => parseSecret(new Uint8Array([7, ...new Uint8Array(16)])), {
      ...invalid,
      details: 'Version 7, 17 bytes',
    })
    assert.throws(() => parseSecret(new Uint8Array(18).fill(1)), {
      ...invalid,
      details: 'Version 1, 18 bytes',
    })
    await assert.rejects(addressesOf(new Uint8Array([2, ...new Uint8Array(64)])), {
      ...invalid,
      details: 'Not a secp256k1 private key',
    })
    assert.throws(() => secretFromKeys({ secp256k1: new Uint8Array(31), ed25519: new Uint8Array(32) }), {
      ...invalid,
      details: 'Each raw key must be 32 bytes',
    })
  })
})
