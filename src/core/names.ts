import { ValidationError } from '../errors/index.ts'
import { InvalidResponseError } from '../errors/rpc.ts'
import { WalletServiceNotConfiguredError } from '../errors/service.ts'
import { avatarUpdateMessage } from '../protocol/api/avatars.ts'
import type { NameCheckResponse, NameRecord } from '../protocol/api/names.ts'
import {
  nameCheckResponse,
  nameRecord,
  nameRegistrationMessage,
  nameReleaseMessage,
  nameReleaseResponse,
  profileResponse,
} from '../protocol/api/names.ts'
import { CACHE_GC_MS, IDENTITY_CACHE_MS, NAME_CACHE_MS } from '../protocol/constants.ts'
import type { Config, ProfileEntry } from './config.ts'
import { serviceClient } from './service.ts'
import { signText } from './signText.ts'

const client = (config: Config) => (config.$options.get().projectId ? serviceClient(config) : undefined)

/**
 * The names a config holds forward lookups of, for tests.
 *
 * @example
 * cachedNames(config) // ['alice.wallet.test']
 */
export function cachedNames(config: Config): string[] {
  return [...config.internal.resolvedNames.keys()]
}

/**
 * The profile (name, avatar) of an address from the companion service's name registry, kept 5 minutes
 * in `config.$profiles` by the address as given (SPEC 9: identity cache); profiles of other addresses fetched 5 minutes ago or
 * more are dropped on each call. Undefined without a service, or when it cannot be asked.
 *
 * @example
 * const profile = await fetchProfile(config, account.address) // { name: 'alice.wallet.test', avatar: null, … }
 */
export async function fetchProfile(config: Config, address: string): Promise<ProfileEntry | undefined> {
  const http = client(config)
  if (!http) return undefined
  const now = config.platform.now()
  const key = address
  const profiles = config.$profiles.get()
  for (const [other, entry] of Object.entries(profiles))
    if (other !== key && entry && now - entry.fetchedAt >= CACHE_GC_MS)
      config.$profiles.setKey(other, undefined)
  const cached = profiles[key]
  if (cached && now - cached.fetchedAt < IDENTITY_CACHE_MS) return cached
  try {
    const answer = await http.getJson('/names/v1/profile', { address }, profileResponse)
    const entry = { name: answer.name, avatar: answer.avatar, fetchedAt: now }
    config.$profiles.setKey(key, entry)
    return entry
  } catch {
    return undefined
  }
}

/** Whether text is a name (`alice.wallet.test`) rather than an address. */
export const isName = (text: string) => /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(text.trim())

/**
 * The address a name resolves to (the first of its addresses list, SPEC 7), kept 5 minutes (SPEC 9:
 * name cache); null when nobody holds it. Other names looked up 5 minutes ago or more are dropped.
 *
 * @example
 * await resolveName(config, 'alice.wallet.test') // '0xf39f…'
 */
export async function resolveName(config: Config, name: string): Promise<string | null> {
  const http = client(config)
  if (!http) return null
  const now = config.platform.now()
  const key = name.trim().toLowerCase()
  const names = config.internal.resolvedNames
  for (const [other, entry] of names)
    if (other !== key && now - entry.fetchedAt >= CACHE_GC_MS) names.delete(other)
  const cached = names.get(key)
  if (cached && now - cached.fetchedAt < NAME_CACHE_MS) return cached.address
  const address = http.getJson('/names/v1/resolve', { name: key }, nameRecord).then(
    (record) => record.addresses[0]?.address ?? null,
    (error: unknown) => {
      if (error instanceof ValidationError && error.messageId === 'nameNotFound') return null
      throw error
    },
  )
  const entry = { fetchedAt: now, address }
  names.set(key, entry)
  // Only an answer is kept: "not registered" (null) included, a failure not.
  address.catch(() => {
    if (names.get(key) === entry) names.delete(key)
  })
  return address.catch(() => null)
}

/**
 * Whether a label is free under the service's suffix, with suggestions when it is taken.
 *
 * @example
 * const { name, available, suggestions } = await checkName(config, 'alice')
 */
export async function checkName(config: Config, label: string): Promise<NameCheckResponse> {
  const http = client(config)
  if (!http) throw new WalletServiceNotConfiguredError()
  return http.getJson('/names/v1/check', { name: label }, nameCheckResponse)
}

/**
 * Registers `fullName` (as `checkName` gave it) for the connected account, or moves its name there
 * when it has one (a change): the wallet signs the
 * registration message (as it signs in: personal_sign, or ed25519 on Solana), the service checks it
 * and keeps the name. The account's profile is updated at once.
 *
 * @example
 * const record = await registerName(config, 'alice.wallet.test')
 */
export async function registerName(config: Config, fullName: string): Promise<NameRecord> {
  // A change moves the account's name: the old one no longer resolves to it.
  const account = config.$account.get()
  const before = account ? config.$profiles.get()[account.address]?.name : undefined
  if (before) config.internal.resolvedNames.delete(before)
  const record = await signAndSend(config, '/names/v1/register', (fields) => ({
    name: fullName.split('.')[0],
    message: nameRegistrationMessage({ ...fields, name: fullName }),
  }))
  config.internal.resolvedNames.delete(record.name)
  return record
}

/**
 * Releases the connected account's name: the wallet signs the release message (as it signed the
 * registration), the service frees the name for anyone, and the account's profile has no name (nor
 * image) at once. To change the name instead, {@link registerName} another: the service moves it.
 *
 * @example
 * await releaseName(config) // 'alice.wallet.test'
 */
export async function releaseName(config: Config): Promise<string> {
  const http = client(config)
  const account = config.$account.get()
  const network = config.$network.get()
  const win = config.platform.window
  const name = account && config.$profiles.get()[account.address]?.name
  if (!http || !account || !network || !win)
    throw new ValidationError('Connect a wallet first', { messageId: 'connectFirst' })
  if (!name) throw new ValidationError('Register a name first', { messageId: 'registerNameFirst' })
  const message = nameReleaseMessage({
    domain: win.location.host,
    name,
    address: account.address,
    chainId: network.caipNetworkId,
    issuedAt: new Date(config.platform.now()).toISOString(),
  })
  const signature = await signText(config, account, message)
  const answer = await http.request(
    'POST',
    '/names/v1/release',
    { address: account.address, chainId: network.caipNetworkId, message, signature },
    nameReleaseResponse,
  )
  if (!answer) throw new InvalidResponseError({ method: 'POST /names/v1/release' })
  config.$profiles.setKey(account.address, { name: null, avatar: null, fetchedAt: config.platform.now() })
  config.internal.resolvedNames.delete(answer.released)
  return answer.released
}

/**
 * Sets (or, with null, clears) the connected account's profile image: an `https://` URL (see
 * `isAvatarUrl`). The wallet signs the update for the account's name as it signed the registration;
 * the profile is updated at once, so the button and Account show the image.
 *
 * @example
 * await setProfileImage(config, 'https://example.com/me.png')
 */
export async function setProfileImage(config: Config, avatar: string | null): Promise<NameRecord> {
  const account = config.$account.get()
  const name = account && config.$profiles.get()[account.address]?.name
  if (!name) throw new ValidationError('Register a name first', { messageId: 'registerNameFirst' })
  return signAndSend(config, '/names/v1/avatar', (fields) => ({
    avatar,
    message: avatarUpdateMessage({ ...fields, name, avatar }),
  }))
}

/**
 * Builds a message for the connected account (`build` gets its domain, address, network and time and
 * answers the body's own fields with the message), has the wallet sign it, posts it to `path`, and
 * keeps the answered record as the account's profile.
 */
async function signAndSend(
  config: Config,
  path: string,
  build: (fields: { domain: string; address: string; chainId: string; issuedAt: string }) => {
    message: string
  } & Record<string, unknown>,
): Promise<NameRecord> {
  const http = client(config)
  const account = config.$account.get()
  const network = config.$network.get()
  const win = config.platform.window
  if (!http || !account || !network || !win)
    throw new ValidationError('Connect a wallet first', { messageId: 'connectFirst' })
  const fields = {
    domain: win.location.host,
    address: account.address,
    chainId: network.caipNetworkId,
    issuedAt: new Date(config.platform.now()).toISOString(),
  }
  const { message, ...rest } = build(fields)
  const signature = await signText(config, account, message)
  const record = await http.request(
    'POST',
    path,
    { ...rest, address: account.address, chainId: network.caipNetworkId, message, signature },
    nameRecord,
  )
  if (!record) throw new InvalidResponseError({ method: `POST ${path}` })
  config.$profiles.setKey(account.address, {
    name: record.name,
    avatar: record.avatar,
    fetchedAt: config.platform.now(),
  })
  return record
}
