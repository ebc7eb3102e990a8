// The companion service's configuration in the local stack: its frame, providers and upstreams on the stand-ins.
import { parseTokenLists } from '../../server/blockchain/tokenLists.ts'
import type { ServiceConfig } from '../../server/config.ts'
import type { LocalMarket, marketTokenList } from '../../server/dev/chain/market.ts'
import { devAppleKey, socialProviderNames, standInClient } from '../../server/dev/oidc/index.ts'
import { LOCAL_BITCOIN_NETWORK_ID } from '../../src/chains/bip122/networks.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../src/chains/solana/networks.ts'
import { HOST } from './options.ts'

/** Where the stack's other parts are, for the service to use them. */
export interface StackServiceParameters {
  /** The configuration from the environment, which the stack's parts override. */
  base: ServiceConfig
  nameGatewayKey: `0x${string}`
  /** The paymaster's signing key for this run and its contract on eip155:31337. */
  paymaster: { signerKey: `0x${string}`; address: `0x${string}` }
  /** The wallet frame's own origin, and the folder of its build for this run (else the configured one). */
  frame: { port: number; url: string; dir: string | undefined }
  smtpUrl: string | undefined
  oidcPort: number
  farcasterPorts: { relayPort: number; chainPort: number }
  servicePort: number
  serviceDataDir: string
  projectId: string
  demoPort: number
  /** Sites beside the demo page that the dev project accepts (StackOptions.siteOrigins). */
  siteOrigins: readonly string[]
  market: LocalMarket
  tokenList: ReturnType<typeof marketTokenList>
  onramp: { url: string; apiKey: string; webhookSecret: string; sender: string }
  upstreams: { chainUrl: string; chain2Url: string; solanaUrl: string; bundlerUrl: string }
  /** The local Bitcoin regtest node, when the stack runs one: the embedded wallet's Bitcoin account uses it. */
  bitcoinUrl?: string | undefined
}

/**
 * The service's configuration for `npm start` and the end-to-end tests: development, every social
 * provider on the OIDC stand-in, Farcaster on its local relay and registries, the local chains, Solana,
 * bundler and on-ramp as upstreams.
 *
 * @example
 * startService({ config: stackServiceConfig({ base, nameGatewayKey, frame, ... }) })
 */
export function stackServiceConfig({
  base,
  nameGatewayKey,
  paymaster,
  frame,
  smtpUrl,
  oidcPort,
  farcasterPorts,
  servicePort,
  serviceDataDir,
  projectId,
  demoPort,
  siteOrigins,
  market,
  tokenList,
  onramp,
  upstreams,
  bitcoinUrl,
}: StackServiceParameters): ServiceConfig {
  return {
    ...base,
    // npm start is development: the dev project below, local origins without warnings.
    environment: 'development',
    nameGatewayKey,
    // Sponsored gas on the local chain; a project sponsors once `npm run project -- sponsor` says what.
    paymasterSignerKey: paymaster.signerKey,
    paymasterAddresses: { 'eip155:31337': paymaster.address },
    paymasterPublicUrl: `http://${HOST}:${servicePort}/paymaster/v1`,
    embedded: {
      ...base.embedded,
      framePort: frame.port,
      framePublicUrl: frame.url,
      frameDir: frame.dir ?? base.embedded.frameDir,
      smtpUrl: smtpUrl ?? base.embedded.smtpUrl,
      // Every social provider on the local stand-in, with its dev client.
      social: {
        providerUrl: `http://${HOST}:${oidcPort}`,
        redirectBase: frame.url,
        credentials: Object.fromEntries(
          socialProviderNames.map((provider) => [provider, standInClient(provider)]),
        ),
        apple: {
          teamId: devAppleKey.teamId,
          keyId: devAppleKey.keyId,
          privateKey: devAppleKey.privateKeyPem,
        },
      },
      // Sign In With Farcaster through the local relay, against the local registries.
      farcaster: {
        relayUrl: `http://${HOST}:${farcasterPorts.relayPort}`,
        rpcUrl: `http://${HOST}:${farcasterPorts.chainPort}`,
      },
      // The embedded wallet's Bitcoin account on the local regtest node.
      bitcoinNodes: bitcoinUrl
        ? { ...base.embedded.bitcoinNodes, [LOCAL_BITCOIN_NETWORK_ID]: bitcoinUrl }
        : base.embedded.bitcoinNodes,
    },
    host: HOST,
    port: servicePort,
    dataDir: serviceDataDir,
    devProjectId: projectId,
    devOrigins: [
      `http://${HOST}:${demoPort}`,
      `http://localhost:${demoPort}`,
      'http://127.0.0.1:4173',
      ...siteOrigins,
    ],
    tokenLists: parseTokenLists({ networks: { [market.caipNetworkId]: tokenList } }),
    onramp: {
      providerUrl: onramp.url,
      apiKey: onramp.apiKey,
      webhookSecret: onramp.webhookSecret,
      senderAddresses: { [market.caipNetworkId]: [onramp.sender] },
    },
    rpcUpstreams: {
      'eip155:31337': upstreams.chainUrl,
      'eip155:31338': upstreams.chain2Url,
      [LOCAL_SOLANA_NETWORK_ID]: upstreams.solanaUrl,
    },
    bundlerUpstreams: { 'eip155:31337': upstreams.bundlerUrl },
    // The Activity list's history: the service indexes both local EVM chains itself.
    historyNetworks: ['eip155:31337', 'eip155:31338'],
  }
}
