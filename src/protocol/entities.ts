import * as z from 'zod/mini'
import { CaipAddressSchema, CaipNetworkIdSchema, ChainNamespaceSchema } from './caip.ts'

// Entities of SPEC section 3. Field names follow the spec, snake_case where the wire uses it.

/** A non-negative decimal amount as text, so no precision is lost on the way. */
const DecimalSchema = z.string().check(z.regex(/^\d+(\.\d+)?$/, { error: 'Invalid decimal amount' }))
const DecimalsSchema = z.int().check(z.gte(0), z.lte(255))
const RpcUrlsSchema = z.object({ http: z.array(z.url()), webSocket: z.optional(z.array(z.url())) })

/**
 * A network the modal can use.
 *
 * @example
 * NetworkSchema.parse({
 *   id: 1,
 *   name: 'Ethereum',
 *   nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
 *   rpcUrls: { default: { http: ['https://eth.example'] } },
 *   chainNamespace: 'eip155',
 *   caipNetworkId: 'eip155:1',
 * })
 */
export const NetworkSchema = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string(),
  nativeCurrency: z.object({ name: z.string(), symbol: z.string(), decimals: DecimalsSchema }),
  rpcUrls: z.catchall(z.object({ default: RpcUrlsSchema }), RpcUrlsSchema),
  blockExplorers: z.optional(
    z.catchall(
      z.object({ default: z.object({ name: z.string(), url: z.url() }) }),
      z.object({ name: z.string(), url: z.url() }),
    ),
  ),
  chainNamespace: ChainNamespaceSchema,
  caipNetworkId: CaipNetworkIdSchema,
  testnet: z.optional(z.boolean()),
  assets: z.optional(z.object({ imageId: z.optional(z.string()), imageUrl: z.optional(z.string()) })),
})
export type Network = z.infer<typeof NetworkSchema>

/**
 * Kind of account: a plain key pair or a smart contract account.
 *
 * @example
 * AccountTypeSchema.parse('smartAccount')
 */
export const AccountTypeSchema = z.enum(['eoa', 'smartAccount'])
export type AccountType = z.infer<typeof AccountTypeSchema>

/**
 * A connected account.
 *
 * @example
 * AccountSchema.parse({ namespace: 'eip155', address: '0xab16…', type: 'eoa' })
 */
export const AccountSchema = z.object({
  namespace: ChainNamespaceSchema,
  address: z.string().check(z.minLength(1)),
  type: AccountTypeSchema,
  publicKey: z.optional(z.string()),
  path: z.optional(z.string()),
})
export type Account = z.infer<typeof AccountSchema>

/**
 * One wallet of the catalogue.
 *
 * @example
 * CatalogueEntrySchema.parse({ id: 'demo', name: 'Demo Wallet', image_id: 'demo', chains: ['eip155:1'] })
 */
export const CatalogueEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  image_id: z.optional(z.nullable(z.string())),
  chains: z.array(CaipNetworkIdSchema),
  mobile_link: z.optional(z.nullable(z.string())),
  desktop_link: z.optional(z.nullable(z.string())),
  webapp_link: z.optional(z.nullable(z.string())),
  app_store: z.optional(z.nullable(z.string())),
  play_store: z.optional(z.nullable(z.string())),
  rdns: z.optional(z.nullable(z.string())),
})
export type CatalogueEntry = z.infer<typeof CatalogueEntrySchema>

/**
 * A token an account holds.
 *
 * @example
 * TokenBalanceSchema.parse({ address: 'eip155:1:0xA0b8…', symbol: 'USDC', quantity: { numeric: '12.5', decimals: 6 }, price: 1 })
 */
export const TokenBalanceSchema = z.object({
  address: z.string(),
  symbol: z.string(),
  name: z.optional(z.string()),
  chainId: z.optional(CaipNetworkIdSchema),
  quantity: z.object({ numeric: DecimalSchema, decimals: DecimalsSchema }),
  price: z.number().check(z.gte(0)),
  value: z.optional(z.number()),
  iconUrl: z.optional(z.string()),
})
export type TokenBalance = z.infer<typeof TokenBalanceSchema>

/**
 * The send-token form as it is being filled in.
 *
 * @example
 * SendFormStateSchema.parse({ loading: false })
 */
export const SendFormStateSchema = z.object({
  token: z.optional(TokenBalanceSchema),
  sendTokenAmount: z.optional(z.string()),
  receiverAddress: z.optional(z.string()),
  receiverProfileName: z.optional(z.string()),
  receiverProfileImageUrl: z.optional(z.string()),
  networkBalanceInUSD: z.optional(z.string()),
  loading: z.boolean(),
})
export type SendFormState = z.infer<typeof SendFormStateSchema>

/**
 * One movement of value inside a transaction.
 *
 * @example
 * TransactionTransferSchema.parse({ direction: 'in', nft_info: { flags: { is_spam: true } } })
 */
export const TransactionTransferSchema = z.object({
  direction: z.optional(z.enum(['in', 'out', 'self'])),
  quantity: z.optional(z.object({ numeric: DecimalSchema })),
  value: z.optional(z.number()),
  price: z.optional(z.number()),
  fungible_info: z.optional(
    z.object({
      name: z.optional(z.string()),
      symbol: z.optional(z.string()),
      icon: z.optional(z.object({ url: z.string() })),
    }),
  ),
  nft_info: z.optional(
    z.object({
      name: z.optional(z.string()),
      content: z.optional(z.object({ preview: z.optional(z.object({ url: z.string() })) })),
      flags: z.object({ is_spam: z.optional(z.boolean()) }),
    }),
  ),
})
export type TransactionTransfer = z.infer<typeof TransactionTransferSchema>

/**
 * An entry of the account's history.
 *
 * @example
 * TransactionSchema.parse({ id: '0x1', metadata: { minedAt: '2024-01-01T00:00:00Z', chain: 'eip155:1' }, transfers: [] })
 */
export const TransactionSchema = z.object({
  id: z.string(),
  metadata: z.object({
    minedAt: z.string(),
    chain: CaipNetworkIdSchema,
    hash: z.optional(z.string()),
    status: z.optional(z.enum(['pending', 'confirmed', 'failed'])),
    operationType: z.optional(z.string()),
    sentFrom: z.optional(z.string()),
    sentTo: z.optional(z.string()),
  }),
  transfers: z.array(TransactionTransferSchema),
})
export type Transaction = z.infer<typeof TransactionSchema>

/**
 * A crypto currency the on-ramp sells.
 *
 * @example
 * OnrampPurchaseCurrencySchema.parse({ id: 'usdc', name: 'USD Coin', symbol: 'USDC', networks: [] })
 */
export const OnrampPurchaseCurrencySchema = z.object({
  id: z.string(),
  name: z.string(),
  symbol: z.string(),
  networks: z.array(
    z.object({
      name: z.string(),
      display_name: z.string(),
      chain_id: z.string(),
      contract_address: z.string(),
    }),
  ),
})
export type OnrampPurchaseCurrency = z.infer<typeof OnrampPurchaseCurrencySchema>

/**
 * A fiat currency the on-ramp takes, with limits per payment method.
 *
 * @example
 * PaymentCurrencySchema.parse({ id: 'USD', payment_method_limits: [{ id: 'card', min: '10.00', max: '7500.00' }] })
 */
export const PaymentCurrencySchema = z.object({
  id: z.string(),
  payment_method_limits: z.array(z.object({ id: z.string(), min: DecimalSchema, max: DecimalSchema })),
})
export type PaymentCurrency = z.infer<typeof PaymentCurrencySchema>

/**
 * The fields of a sign-in (SIWX) message.
 *
 * @example
 * SignInMessageSchema.parse({ nonce: 'n0nce123', domain: 'app.example', uri: 'https://app.example', version: '1', chainId: 'eip155:1', accountAddress: '0xab16…' })
 */
export const SignInMessageSchema = z.object({
  accountAddress: z.string(),
  chainId: CaipNetworkIdSchema,
  domain: z.string(),
  uri: z.string(),
  version: z.string(),
  nonce: z.string(),
  statement: z.optional(z.string()),
  issuedAt: z.optional(z.string()),
  expirationTime: z.optional(z.string()),
  notBefore: z.optional(z.string()),
  requestId: z.optional(z.string()),
  resources: z.optional(z.array(z.string())),
})
export type SignInMessage = z.infer<typeof SignInMessageSchema>

/**
 * A sign-in session: the message fields, the text that was signed and the signature.
 *
 * @example
 * SessionSchema.parse({ data, message: 'app.example wants you to sign in…', signature: '0x…' })
 */
export const SessionSchema = z.object({
  data: SignInMessageSchema,
  message: z.string(),
  signature: z.string(),
  cacao: z.optional(z.record(z.string(), z.unknown())),
})
export type Session = z.infer<typeof SessionSchema>

/**
 * One namespace of a paired wallet session.
 *
 * @example
 * WalletSessionNamespaceSchema.parse({ methods: ['personal_sign'], events: ['accountsChanged', 'chainChanged'], chains: ['eip155:1'] })
 */
export const WalletSessionNamespaceSchema = z.object({
  methods: z.array(z.string()),
  events: z.array(z.string()),
  chains: z.array(CaipNetworkIdSchema),
  accounts: z.optional(z.array(CaipAddressSchema)),
  rpcMap: z.optional(z.record(z.string(), z.string())),
})
export type WalletSessionNamespace = z.infer<typeof WalletSessionNamespaceSchema>
