/**
 * Start-up state, made with real transactions through the SVM: the faucet funds the dev keys, then creates the
 * test token's mint (dev key 0 is its mint authority) and mints the supply to dev key 0's associated token account.
 */
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToCheckedInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import { type Keypair, type PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import {
  DEV_KEY_COUNT,
  DEV_KEY_LAMPORTS,
  devKeypairs,
  faucetKeypair,
  TEST_TOKEN_DECIMALS,
  TEST_TOKEN_SUPPLY,
  testMintKeypair,
} from './keys.ts'
import type { Ledger } from './ledger.ts'

/** Lamports the faucet starts with (kept below 2^53 so JSON numbers stay exact). */
export const FAUCET_LAMPORTS = 5_000_000n * 1_000_000_000n

/** The test SPL token created at start. */
export interface TestMint {
  /** The mint's address. */
  readonly address: PublicKey
  readonly decimals: number
  /** Base units minted at start (1,000,000 tokens). */
  readonly supply: bigint
  /** Mint authority: dev key 0. */
  readonly authority: PublicKey
  /** The token program that owns the mint (SPL Token). */
  readonly programId: PublicKey
  /** Dev key 0's associated token account, which holds the supply at start. */
  readonly holder: PublicKey
}

export interface Genesis {
  readonly devKeys: readonly Keypair[]
  readonly mint: TestMint
  readonly faucet: Keypair
}

function sendSigned(ledger: Ledger, feePayer: Keypair, tx: Transaction, signers: Keypair[]): string {
  const { blockhash, lastValidBlockHeight } = ledger.latestBlockhash()
  tx.feePayer = feePayer.publicKey
  tx.recentBlockhash = blockhash
  tx.lastValidBlockHeight = lastValidBlockHeight
  tx.sign(feePayer, ...signers)
  return ledger.send(tx.serialize(), { skipPreflight: false })
}

export function createGenesis(ledger: Ledger): Genesis {
  const faucet = faucetKeypair()
  ledger.svm.setAccount(faucet.publicKey, {
    lamports: Number(FAUCET_LAMPORTS),
    data: new Uint8Array(0),
    owner: SystemProgram.programId,
    executable: false,
    rentEpoch: 0,
  })

  const devKeys = devKeypairs(DEV_KEY_COUNT)
  const funding = new Transaction()
  for (const key of devKeys) {
    funding.add(
      SystemProgram.transfer({
        fromPubkey: faucet.publicKey,
        toPubkey: key.publicKey,
        lamports: DEV_KEY_LAMPORTS,
      }),
    )
  }
  sendSigned(ledger, faucet, funding, [])

  const mintKey = testMintKeypair()
  const [authority] = devKeys
  if (!authority) throw new Error('no dev key')
  const holder = getAssociatedTokenAddressSync(mintKey.publicKey, authority.publicKey)
  const token = new Transaction().add(
    SystemProgram.createAccount({
      fromPubkey: faucet.publicKey,
      newAccountPubkey: mintKey.publicKey,
      lamports: Number(ledger.minimumBalanceForRentExemption(MINT_SIZE)),
      space: MINT_SIZE,
      programId: TOKEN_PROGRAM_ID,
    }),
    createInitializeMint2Instruction(mintKey.publicKey, TEST_TOKEN_DECIMALS, authority.publicKey, null),
    createAssociatedTokenAccountIdempotentInstruction(
      faucet.publicKey,
      holder,
      authority.publicKey,
      mintKey.publicKey,
    ),
    createMintToCheckedInstruction(
      mintKey.publicKey,
      holder,
      authority.publicKey,
      TEST_TOKEN_SUPPLY,
      TEST_TOKEN_DECIMALS,
    ),
  )
  sendSigned(ledger, faucet, token, [mintKey, authority])

  return {
    devKeys,
    faucet,
    mint: {
      address: mintKey.publicKey,
      decimals: TEST_TOKEN_DECIMALS,
      supply: TEST_TOKEN_SUPPLY,
      authority: authority.publicKey,
      programId: TOKEN_PROGRAM_ID,
      holder,
    },
  }
}
