/**
 * The embedded wallet on the service: custody, e-mail sign-in and requests, put together from the
 * configuration. The frame's server (server/frame/app.ts) serves its routes on the frame's origin.
 */
import { socialProviders } from '../../src/protocol/api/catalogue.ts'
import type { ServiceConfig } from '../config.ts'
import type { Db } from '../db/database.ts'
import type { ServiceLogger } from '../logger.ts'
import { createMailer, type Mailer } from '../mail/mailer.ts'
import { createPaymasterService } from '../paymaster/sponsor.ts'
import type { RpcForwarder } from '../rpc/forward.ts'
import { type BitcoinKeys, createBitcoinKeys } from './bitcoinKeys.ts'
import { createBitcoinNodes } from './bitcoinNode.ts'
import { type Custody, createCustody } from './custody.ts'
import { createFarcasterService, type FarcasterService } from './farcasterLogin.ts'
import { type KekRing, loadKekRing } from './kek.ts'
import { createLoginService, type LoginService } from './login.ts'
import { embeddedNetworks } from './networks.ts'
import { createPasskeys, type Passkeys } from './passkeys.ts'
import { nativeUsdPrice } from './preview/fiat.ts'
import { createRequestService, type RequestService } from './requests.ts'
import { codeHasher } from './secrets.ts'
import { createSmartAccounts, type SmartAccounts } from './smartAccounts.ts'
import { createSocialService, type SocialService } from './social.ts'
import { createEmailThrottle } from './throttle.ts'
import { createUpstream } from './upstream.ts'

export interface EmbeddedWallet {
  login: LoginService
  /** The person's Bitcoin public keys (the frame sends them; `keys/bitcoin`). */
  bitcoinKeys: BitcoinKeys
  requests: RequestService
  smart: SmartAccounts
  social: SocialService
  farcaster: FarcasterService
  passkeys: Passkeys
  custody: Custody
  keks: KekRing
  /** The service's clock (tests move it): signed session requests are checked against it. */
  now: () => number
  /** Closes the mail connections. */
  close(): void
}

export interface EmbeddedWalletDependencies {
  forwarder: RpcForwarder
  logger?: ServiceLogger
  /** A mailer instead of one on `SMTP_URL` (tests). */
  mailer?: Mailer | null
  /** KEKs instead of the configured ones (tests). */
  keks?: KekRing
  now?: () => number
  /** How long a device wait is held open (tests shorten it). */
  deviceWaitMs?: number
  /** How long a Farcaster finish waits for the approval (tests shorten it). */
  farcasterWaitMs?: number
}

/**
 * Creates the embedded wallet's services on the database.
 *
 * @example
 * const wallet = await createEmbeddedWallet(config, database.db, { forwarder, logger })
 */
export async function createEmbeddedWallet(
  config: ServiceConfig,
  db: Db,
  deps: EmbeddedWalletDependencies,
): Promise<EmbeddedWallet> {
  const keks =
    deps.keks ??
    (await loadKekRing(
      { ...config.embedded, production: config.environment === 'production' },
      {
        memory: config.dataDir === 'memory://' && config.databaseUrl === null,
        ...(config.databaseUrl === null ? { dataDir: config.dataDir } : {}),
        ...(deps.logger ? { logger: deps.logger } : {}),
      },
    ))
  const custody = createCustody(db, keks)
  const mailer =
    deps.mailer !== undefined
      ? deps.mailer
      : config.embedded.smtpUrl === null
        ? null
        : createMailer({ smtpUrl: config.embedded.smtpUrl, from: config.embedded.mailFrom })
  if (mailer === null) deps.logger?.warn({}, 'No SMTP_URL: e-mail sign-in to the embedded wallet is off')
  const common = {
    db,
    custody,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.logger ? { logger: deps.logger } : {}),
  }
  const login = createLoginService({
    ...common,
    codes: codeHasher(keks),
    throttle: createEmailThrottle(db),
    mailer,
    frameUrl: config.embedded.framePublicUrl,
    projectMailsPerHour: config.embedded.mailsPerHour,
    ...(deps.deviceWaitMs === undefined ? {} : { deviceWaitMs: deps.deviceWaitMs }),
  })
  const social = createSocialService({
    ...common,
    login,
    config: config.embedded.social,
    allowHttp: config.environment === 'development',
  })
  const missing = socialProviders.filter((provider) => !social.available().includes(provider))
  if (missing.length > 0) {
    deps.logger?.warn(
      { providers: missing },
      'Social sign-in without credentials (SOCIAL_<PROVIDER>_CLIENT_ID/SECRET): these providers are hidden',
    )
  }
  const farcaster = createFarcasterService({
    ...common,
    login,
    social,
    config: config.embedded.farcaster,
    frameUrl: config.embedded.framePublicUrl,
    allowHttp: config.environment === 'development',
    ...(deps.farcasterWaitMs === undefined ? {} : { waitMs: deps.farcasterWaitMs }),
  })
  const passkeys = createPasskeys({
    ...common,
    users: login.users,
    sessions: login.sessions,
    frameUrl: config.embedded.framePublicUrl,
  })
  const upstream = createUpstream({
    upstreams: config.rpcUpstreams,
    forwarder: deps.forwarder,
    timeoutMs: config.rpcTimeoutMs,
  })
  const smart = createSmartAccounts({
    db,
    custody,
    upstream,
    bundler: createUpstream({
      upstreams: config.bundlerUpstreams,
      forwarder: deps.forwarder,
      timeoutMs: config.rpcTimeoutMs,
      upstreamName: 'bundler',
    }),
    // A network needs both: its chain for reads and its bundler for UserOperations.
    chains: Object.keys(config.bundlerUpstreams).filter((chainId) => chainId in config.rpcUpstreams),
    paymaster: createPaymasterService({
      db,
      signerKey: config.paymasterSignerKey,
      addresses: config.paymasterAddresses,
    }),
  })
  const bitcoinNodes = createBitcoinNodes(config.embedded.bitcoinNodes)
  const bitcoinKeys = createBitcoinKeys(db)
  const requests = createRequestService({
    ...common,
    upstream,
    networks: embeddedNetworks([...Object.keys(config.rpcUpstreams), ...bitcoinNodes.networks()]),
    bitcoin: { keys: bitcoinKeys, nodes: bitcoinNodes },
    smart,
    paymasterPublicUrl: config.paymasterPublicUrl,
    nativeUsdPrice: nativeUsdPrice(config, {
      forwarder: deps.forwarder,
      ...(deps.logger ? { logger: deps.logger } : {}),
      ...(deps.now ? { now: deps.now } : {}),
    }),
  })
  return {
    login,
    bitcoinKeys,
    requests,
    smart,
    social,
    farcaster,
    passkeys,
    custody,
    keks,
    now: deps.now ?? Date.now,
    close: () => mailer?.close(),
  }
}
