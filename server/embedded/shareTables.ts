// The person's share sets: the service's auth share and the sealed recovery share, per user.
import { jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core'
import { bytea, createdAt, updatedAt } from '../db/columns.ts'
import { walletDataKeys, walletUsers } from './tables.ts'

/**
 * One current share set per user. `authShare` (and `recoveryShare` in operator custody) are AES-256-GCM
 * ciphertext under the user's data key (custody.ts), with the user, the set and the share's purpose as
 * additional data; `recoverySealed` is the JSON the frame sealed with a passkey or a password.
 */
export const walletShareSets = pgTable('wallet_share_sets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => walletUsers.id, { onDelete: 'cascade' }),
  /** 16 hex digits: the 8 bytes every share of the set carries after its format byte. */
  setId: text('set_id').notNull(),
  /** EIP-55, as `wallet_keys` stores it. */
  evmAddress: text('evm_address').notNull(),
  /** Compressed secp256k1 public key, hex (recovered from the set's proof), as `wallet_keys` keeps it. */
  evmPublicKey: text('evm_public_key').notNull(),
  solanaAddress: text('solana_address').notNull(),
  dataKeyId: uuid('data_key_id')
    .notNull()
    .references(() => walletDataKeys.id),
  authShare: bytea('auth_share').notNull(),
  recoveryMethod: text('recovery_method', { enum: ['passkey', 'password', 'operator'] }),
  recoverySealed: jsonb('recovery_sealed').$type<Record<string, unknown>>(),
  recoveryShare: bytea('recovery_share'),
  passkeyCredentialId: text('passkey_credential_id'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

/**
 * The person's Bitcoin keys (BIP-84, compressed public keys, hex), as the frame derived them from the
 * same secret and the set's EVM key vouched for (`POST keys/bitcoin`). The addresses and the checks of
 * Bitcoin signatures are made from them; no private key is ever here.
 */
export const walletBitcoinKeys = pgTable('wallet_bitcoin_keys', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => walletUsers.id, { onDelete: 'cascade' }),
  /** `m/84'/0'/0'/0/0`: mainnet. */
  mainnetPublicKey: text('mainnet_public_key').notNull(),
  /** `m/84'/1'/0'/0/0`: testnet, signet, regtest. */
  testPublicKey: text('test_public_key').notNull(),
  createdAt: createdAt(),
})
