// What the stack can be asked for (ports, parts, folders) and the URLs it answers with.
import { fileURLToPath } from 'node:url'

/** The checkout's root folder. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
/** Every part of the stack listens on loopback only. */
export const HOST = '127.0.0.1'
/**
 * The wallet frame's host in its URL: it listens on {@link HOST} like the rest, but WebAuthn refuses an
 * IP address as RP ID, and `localhost` keeps it cross-site to the demo page on 127.0.0.1, as the
 * wallet's own domain is beside a site in production (docs/ARCHITECTURE.md, "Local stand-ins and ports").
 */
export const FRAME_HOST = 'localhost'

export type StackUrls = {
  /** Local EVM chain, eip155:31337. */
  chain: string
  /** Second local EVM chain, eip155:31338. */
  chain2: string
  /** The companion service. */
  service: string
  /** The embedded wallet's frame, on its own origin (served by the service). */
  frame: string
  /** The dev inbox page: the mail the stack sent (codes and approval links). */
  inbox: string
  /** The local SMTP server (`smtp://`). */
  smtp: string
  /** The social providers' stand-in: each provider at `<url>/<provider>`. */
  oidc: string
  /** The WalletConnect dev relay (ws://). */
  relay: string
  /** The local ERC-4337 bundler of eip155:31337 (EntryPoint v0.8). */
  bundler: string
  /** The local Solana network's JSON-RPC (empty when not started). */
  solana: string
  /** The local Bitcoin regtest node's HTTP API and JSON-RPC (empty when not started). */
  bitcoin: string
  /** The local on-ramp stand-in (its API and checkout pages). */
  onramp: string
  /** The demo Farcaster app's page (opens a sign-in channel's link), with a trailing slash. */
  farcasterApp: string
  /** The Farcaster auth relay stand-in. */
  farcasterRelay: string
  /** The chain with chain id 10 holding the Farcaster registry stand-ins. */
  farcasterChain: string
  /** The demo page (vite dev server), with a trailing slash. */
  demo: string
}

export type StackOptions = {
  /** Default `CHAIN_PORT` or 8545. */
  chainPort?: number
  /** Default `CHAIN2_PORT` or 8546. */
  chain2Port?: number
  /** Default `DEMO_PORT` or 5173. */
  demoPort?: number
  /** Default `SERVICE_PORT` or 8787. */
  servicePort?: number
  /** Default `RELAY_PORT` or 8789. */
  relayPort?: number
  /** Default `BUNDLER_PORT` or 4337. */
  bundlerPort?: number
  /** Default `FRAME_PORT` or 8788. */
  framePort?: number
  /** A built wallet frame to serve (else FRAME_DIR, else one is built for this run). */
  frameDir?: string
  /** Default `SMTP_PORT` or 2525. */
  smtpPort?: number
  /** Default `ONRAMP_PORT` or 8795. */
  onrampPort?: number
  /** The social providers' stand-in (`oidc-provider`); default `OIDC_PORT` or 8790. */
  oidcPort?: number
  /** Default `SOLANA_PORT` or 8899 (WebSocket on the next port). */
  solanaPort?: number
  /** The Bitcoin regtest node (bcoin); default `BITCOIN_PORT` or 8794. */
  bitcoinPort?: number
  /** The Farcaster registries' chain (id 10); default `FARCASTER_CHAIN_PORT` or 8791. */
  farcasterChainPort?: number
  /** The Farcaster relay stand-in; default `FARCASTER_RELAY_PORT` or 8792. */
  farcasterRelayPort?: number
  /** The demo Farcaster app; default `FARCASTER_APP_PORT` or 8793. */
  farcasterAppPort?: number
  /** Run the Farcaster stand-ins (default true; end-to-end tests of other flows turn them off). */
  farcaster?: boolean
  /** Run the local Solana network (default true; end-to-end tests of EVM flows turn it off). */
  solana?: boolean
  /** Run the local Bitcoin regtest node (default true; end-to-end tests turn it off unless they ask for it). */
  bitcoin?: boolean
  /**
   * How often the regtest node mines a block, in milliseconds; 0 mines only on demand (`POST /dev/mine`).
   * Default `BITCOIN_BLOCK_INTERVAL_MS` or 5000.
   */
  bitcoinBlockIntervalMs?: number
  /**
   * The embedded wallet's key-encryption key (32 bytes, base64), instead of `WALLET_KEK` or the development
   * key: tests that open a person's keys from the database as the operator could name it.
   */
  walletKek?: string
  /** The service's PGlite data folder; default `SERVICE_DATA_DIR` or `.data/service` (`memory://` in tests). */
  serviceDataDir?: string
  /**
   * Vite config of the demo, relative to the repository root or absolute.
   * Default `DEMO_VITE_CONFIG` or `vite.demo.config.ts`.
   */
  demoConfigFile?: string
  /**
   * More sites the dev project accepts besides the demo page, as origins (`http://127.0.0.1:3000`): a
   * fixture app served on a port of its own, such as the package suite's Next.js app.
   */
  siteOrigins?: readonly string[]
  /** Vite's log level; `npm start` uses 'info', tests 'warn'. Default 'info'. */
  logLevel?: 'info' | 'warn' | 'error' | 'silent'
  /**
   * Where to write the local market's token list (the service's `TOKEN_LIST_FILE` format), for a
   * service started on its own; `npm start` writes `.data/local-market.json`. Nothing is written when absent.
   */
  marketFile?: string
}

/** A port from the environment variable `name`, else `fallback`; throws on a value that is not a port. */
export function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name}="${raw}" is not a TCP port`)
  return port
}
