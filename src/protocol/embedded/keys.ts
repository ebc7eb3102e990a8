// The person's keys on the wire (user custody): the frame makes and uses them; the service keeps one share.
import * as z from 'zod/mini'
import { fromBase64, fromBase64Url } from '../base64.ts'
import { signRequest } from './signing.ts'

/**
 * Who can recover a wallet without the person: `user` (the default): nobody, the recovery share is
 * sealed by a passkey or a password the service never sees; `operator`: the service, which keeps the
 * recovery share under its KEK and so, holding two shares, can sign (the site is a custodian).
 */
export const custodyMode = z.enum(['user', 'operator'])
export type CustodyMode = z.infer<typeof custodyMode>

/** How a wallet's recovery share is sealed. */
export const recoveryMethod = z.enum(['passkey', 'password', 'operator'])
export type RecoveryMethod = z.infer<typeof recoveryMethod>

/** A share set's id: the 8 bytes every share of the set carries after its format byte, as hex. */
export const shareSetId = z.string().check(z.regex(/^[0-9a-f]{16}$/, 'Invalid share set id'))

/** A share (format byte, set id, Shamir share), URL-safe base64; a v2 secret's share is the longest. */
export const wireShare = z.string().check(
  z.regex(/^[A-Za-z0-9_-]{16,200}$/, 'Invalid share'),
  z.refine((text) => decodedLength(text) > 10, 'Invalid share'),
)
const decodedLength = (text: string) => {
  try {
    return fromBase64Url(text).length
  } catch {
    return 0
  }
}

const evmAddress = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected an address'))
const solanaAddress = z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'Expected a Solana address'))
const hexSignature = z.string().check(z.regex(/^0x[0-9a-fA-F]{130}$/, 'Expected a 65-byte signature'))

/** The wallet's two addresses, which every share set must open. */
export const walletAddresses = z.object({ eip155: evmAddress, solana: solanaAddress })
export type WalletAddressesWire = z.infer<typeof walletAddresses>

/**
 * Proof that the frame holds the keys of the addresses it names: each key signs
 * {@link keySetProofMessage} (EIP-191 for EVM; ed25519 over the UTF-8 bytes for Solana, as 64 bytes hex).
 */
export const keySetProof = z.object({
  eip155: hexSignature,
  solana: z.string().check(z.regex(/^0x[0-9a-fA-F]{128}$/, 'Expected a 64-byte signature')),
})
export type KeySetProof = z.infer<typeof keySetProof>

/**
 * The text both keys sign when a share set is stored: the set, the addresses and the project, so a
 * proof is good for that one set only.
 *
 * @example
 * const message = keySetProofMessage({ projectId, setId, addresses })
 */
export const keySetProofMessage = (parameters: {
  projectId: string
  setId: string
  addresses: WalletAddressesWire
}) =>
  [
    'wallet-elements key set',
    `project: ${parameters.projectId}`,
    `set: ${parameters.setId}`,
    `eip155: ${parameters.addresses.eip155.toLowerCase()}`,
    `solana: ${parameters.addresses.solana}`,
  ].join('\n')

const base64Of = (bytes: number) =>
  z.string().check(z.refine((text) => decodes(text, bytes), `Base64 of ${bytes} bytes`))
const decodes = (text: string, bytes: number | undefined) => {
  try {
    const length = fromBase64(text).length
    return bytes === undefined ? length > 16 : length === bytes
  } catch {
    return false
  }
}
const ciphertext = z.string().check(z.refine((text) => decodes(text, undefined), 'Base64 ciphertext'))

/** Format version of a sealed recovery share. */
export const SEALED_SHARE_VERSION = 1

/** A recovery share sealed with a passkey: the per-user PRF input (salt) travels with it. */
export const passkeySealedShare = z.object({
  version: z.literal(SEALED_SHARE_VERSION),
  kdf: z.object({ name: z.literal('hkdf-sha256-prf'), prfSalt: base64Of(32) }),
  iv: base64Of(12),
  ciphertext,
})

/** A recovery share sealed with a password; bounds on the cost keep a forged record from stalling the frame. */
export const passwordSealedShare = z.object({
  version: z.literal(SEALED_SHARE_VERSION),
  kdf: z.object({
    name: z.literal('scrypt'),
    N: z.number().check(z.refine((n) => [14, 15, 16, 17, 18].some((log) => n === 2 ** log), 'N = 2^14…2^18')),
    r: z.int().check(z.minimum(1), z.maximum(16)),
    p: z.int().check(z.minimum(1), z.maximum(4)),
    salt: base64Of(16),
  }),
  iv: base64Of(12),
  ciphertext,
})

/** The sealed recovery share as the service stores it (JSON): versioned, with its KDF and parameters. */
export const sealedRecoveryShare = z.union([passkeySealedShare, passwordSealedShare])
export type SealedRecoveryShareWire = z.infer<typeof sealedRecoveryShare>

/**
 * The recovery a person sets (user custody): the sealed share, and for a passkey the credential whose
 * PRF seals it (the frame asks that one credential again on a new browser).
 */
export const userRecovery = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('passkey'),
    credentialId: z.string().check(z.regex(/^[A-Za-z0-9_-]{16,1364}$/, 'Invalid credential id')),
    sealed: passkeySealedShare,
  }),
  z.object({ method: z.literal('password'), sealed: passwordSealedShare }),
])
export type UserRecovery = z.infer<typeof userRecovery>

/**
 * Where the signed-in person's keys stand (`GET /embedded/v1/keys`, and in every session answer):
 * - `none`: a new user; the frame makes the secret, splits it and sends `POST keys/setup`;
 * - `legacy`: the keys are still under the operator's custody (the service made them, before keys moved
 *   to the frame); the frame takes them once (`POST keys/migrate`), splits them and sends
 *   `POST keys/setup`, and the service deletes them;
 * - `ready`: a share set exists; the frame needs its device share of `setId`, else it recovers.
 * `userId` names the device share and the recovery share's AAD in the frame; it never reaches the page.
 */
export const walletKeyState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('none'), userId: z.string(), custody: custodyMode }),
  z.object({ state: z.literal('legacy'), userId: z.string(), custody: custodyMode }),
  z.object({
    state: z.literal('ready'),
    userId: z.string(),
    custody: custodyMode,
    setId: shareSetId,
    addresses: walletAddresses,
    /** The ways the recovery share is sealed (`operator` in operator custody); empty: none set yet. */
    recovery: z.array(recoveryMethod),
  }),
])
export type WalletKeyState = z.infer<typeof walletKeyState>

/**
 * `POST /embedded/v1/keys/setup`: a new set for a user whose state is `none` or `legacy` (then the
 * addresses must be the ones custody held, and the service deletes its ciphertext in the same step).
 * `recoveryShare` is sent in `operator` custody only (the service seals it under its KEK); in `user`
 * custody it never leaves the frame unsealed (`recovery`, when the person set one up already).
 */
export const keySetupRequest = z.object({
  setId: shareSetId,
  authShare: wireShare,
  addresses: walletAddresses,
  proof: keySetProof,
  recoveryShare: z.optional(wireShare),
  recovery: z.optional(userRecovery),
})
export type KeySetupRequest = z.infer<typeof keySetupRequest>

/**
 * `POST /embedded/v1/keys/reshare`: a fresh set replacing `previousSetId` (after a recovery on a new
 * browser); the addresses must stay the same. Same share and recovery rules as setup.
 */
export const keyReshareRequest = z.extend(keySetupRequest, { previousSetId: shareSetId })
export type KeyReshareRequest = z.infer<typeof keyReshareRequest>

/** `POST /embedded/v1/keys/auth-share`: the service's share of the current set, to this session only. */
export const authShareResponse = z.object({ setId: shareSetId, authShare: wireShare })
export type AuthShareResponse = z.infer<typeof authShareResponse>

/**
 * `POST /embedded/v1/keys/recovery-share`: the recovery share of the current set: sealed (user
 * custody: only the person's passkey or password opens it) or whole (operator custody).
 */
export const recoveryShareResponse = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('passkey'),
    setId: shareSetId,
    credentialId: z.string(),
    sealed: passkeySealedShare,
  }),
  z.object({ method: z.literal('password'), setId: shareSetId, sealed: passwordSealedShare }),
  z.object({ method: z.literal('operator'), setId: shareSetId, recoveryShare: wireShare }),
])
export type RecoveryShareResponse = z.infer<typeof recoveryShareResponse>

/** `POST /embedded/v1/keys/recovery`: sets or replaces how the current set's recovery share is sealed. */
export const setRecoveryRequest = z.object({ setId: shareSetId, recovery: userRecovery })
export type SetRecoveryRequest = z.infer<typeof setRecoveryRequest>

/**
 * `POST /embedded/v1/keys/migrate`: a `legacy` user's keys, once, as a version-2 secret (URL-safe
 * base64 of the two raw keys) to the frame that will split them. Answered again until setup succeeds.
 */
export const keyMigrateResponse = z.object({ secret: z.string().check(z.regex(/^[A-Za-z0-9_-]{80,100}$/)) })
export type KeyMigrateResponse = z.infer<typeof keyMigrateResponse>

/**
 * Answer of `POST /embedded/v1/requests` with signing in the frame: the preview, and the exact
 * signatures to make (the plan), with the person's own smart accounts for the signing rules.
 */
export const signingPlanResponse = z.object({
  plan: z.array(signRequest),
  ownAccounts: z.array(evmAddress),
})
export type SigningPlanResponse = z.infer<typeof signingPlanResponse>

/**
 * `POST /embedded/v1/requests/:id/approve`: one signature per request of the plan, in order, hex: 64 or
 * 65 bytes for EVM and Solana and a BIP-137 message, a BIP-322 witness (about 108 bytes), 64 bytes per
 * input of a PSBT (up to 256 inputs). Each is checked against its request by the service.
 */
export const approveRequest = z.object({
  signatures: z.array(z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{2}){64,16384}$/, 'Expected a signature'))),
})
export type ApproveRequest = z.infer<typeof approveRequest>

/** A compressed secp256k1 public key, hex. */
const compressedPublicKey = z
  .string()
  .check(z.regex(/^0[23][0-9a-f]{64}$/, 'Expected a compressed public key'))

/**
 * The person's two Bitcoin keys (BIP-84 `m/84'/0'/0'/0/0` for mainnet, `m/84'/1'/0'/0/0` for the test
 * networks) as compressed public keys: what the service needs for the addresses and to check signatures.
 */
export const bitcoinPublicKeys = z.object({ bitcoin: compressedPublicKey, bitcoinTest: compressedPublicKey })

/**
 * `POST /embedded/v1/keys/bitcoin`: the frame tells the service the Bitcoin keys of the current set,
 * proven by the set's EVM key (EIP-191 over {@link bitcoinKeysProofMessage}): a session token alone
 * cannot name other keys.
 */
export const bitcoinKeysRequest = z.object({
  setId: shareSetId,
  publicKeys: bitcoinPublicKeys,
  proof: hexSignature,
})
export type BitcoinKeysRequest = z.infer<typeof bitcoinKeysRequest>

/** `GET /embedded/v1/keys/bitcoin` (and the POST's answer): the keys, or null before the frame sent them. */
export const bitcoinKeysResponse = z.object({ publicKeys: z.nullable(bitcoinPublicKeys) })
export type BitcoinKeysResponse = z.infer<typeof bitcoinKeysResponse>

/**
 * The text the EVM key signs to vouch for the Bitcoin keys: the project, the set and both keys.
 *
 * @example
 * const message = bitcoinKeysProofMessage({ projectId, setId, publicKeys })
 */
export const bitcoinKeysProofMessage = (parameters: {
  projectId: string
  setId: string
  publicKeys: z.infer<typeof bitcoinPublicKeys>
}) =>
  [
    'wallet-elements bitcoin keys',
    `project: ${parameters.projectId}`,
    `set: ${parameters.setId}`,
    `bitcoin: ${parameters.publicKeys.bitcoin}`,
    `bitcoin test: ${parameters.publicKeys.bitcoinTest}`,
  ].join('\n')
