// The account the page sees (FrameUser) and the switch of the EVM account type (SPEC 4).
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { EmbeddedUser, FrameUser } from '../protocol/embedded/index.ts'
import { accountTypeResponse } from '../protocol/embedded/index.ts'
import { isSessionEnded, notAvailable } from './failure.ts'
import type { Keyring } from './keyring.ts'
import { recoveryOf } from './secureWallet.ts'
import type { FrameSession } from './session.ts'
import type { FrameWalletDependencies } from './walletTypes.ts'

/**
 * The account side of the frame's wallet: what the page is told of the user, and the person's
 * preferred EVM account type.
 *
 * @example
 * const accounts = createFrameAccounts(session, deps, keyring)
 * const frameUser = await accounts.frameUserOf(await session.currentUser(), undefined)
 */
export function createFrameAccounts(
  session: FrameSession,
  deps: Pick<FrameWalletDependencies, 'api' | 'approvals'>,
  keyring: Pick<Keyring, 'bitcoinAddress'>,
) {
  const { api } = deps

  /**
   * The user as the page sees it on `requested` (or the frame's network): on an EVM network, the
   * account requests there use (the smart account when the person prefers it and the network has one).
   */
  async function frameUserOf(value: EmbeddedUser, requested: CaipNetworkId | undefined): Promise<FrameUser> {
    const chain = requested ?? session.chainId
    const namespace = chain.startsWith('solana:')
      ? 'solana'
      : chain.startsWith('bip122:')
        ? 'bip122'
        : 'eip155'
    const evm =
      namespace === 'eip155'
        ? await session
            .withSession((current) =>
              api.request('POST', 'account-type', accountTypeResponse, { chainId: chain }, current),
            )
            .catch((error: unknown) => {
              // A network the service does not serve still shows the EOA; a lost session does not.
              if (isSessionEnded(error)) throw error
              return undefined
            })
        : undefined
    const eip155 = evm ? { address: evm.account.address, type: evm.account.type } : value.accounts.eip155
    // On a Bitcoin network, its native segwit account too (derived from the frame's own keys along BIP-84).
    const bitcoin = namespace === 'bip122' ? await keyring.bitcoinAddress(chain) : undefined
    if (namespace === 'bip122' && !bitcoin) throw notAvailable()
    // The e-mail stays here (any script of the site can open a frame of its own and ask), and so does a
    // username that is an e-mail address (Apple's always is; Google's is when the account has no name).
    // Other usernames are the social username SPEC 3 has the page keep; a Farcaster username and picture
    // are its public profile.
    const name = value.userName
    const emailLike = name !== undefined && (/^[^\s@]+@[^\s@]+$/.test(name) || name === value.email)
    const farcaster = value.identityProvider === 'farcaster'
    const recovery = recoveryOf(session.keys)
    return {
      ...(recovery ? { recovery } : {}),
      ...(name === undefined || emailLike ? {} : { userName: name }),
      ...(farcaster && value.userImage !== undefined ? { userImage: value.userImage } : {}),
      address: bitcoin ?? (namespace === 'eip155' ? eip155.address : value.accounts.solana.address),
      chainId: chain,
      accounts: [
        { namespace: 'eip155', ...eip155 },
        { namespace: 'solana', ...value.accounts.solana },
        ...(bitcoin ? [{ namespace: 'bip122' as const, address: bitcoin, type: 'eoa' as const }] : []),
      ],
      preferredAccountType: evm?.preferredAccountType ?? 'eoa',
      smartAccountDeployed: evm?.account.smartAccountDeployed ?? false,
      ...(value.exported ? { exported: true } : {}),
    }
  }

  /** Sets the person's preferred EVM account type on the service (SPEC 4). */
  async function setAccountType(type: 'eoa' | 'smartAccount', on: CaipNetworkId = session.chainId) {
    await session.withSession((current) =>
      api.request('POST', 'account-type', accountTypeResponse, { chainId: on, type }, current),
    )
  }

  /**
   * A switch of the account type asked by the page (SET_PREFERRED_ACCOUNT, INIT_SMART_ACCOUNT): only
   * after the person approved it in the approval view, which shows the account requests use now and
   * the one they will use, as the service says (any script of the site can open its
   * own frame and ask). Rejected: 4001, and nothing changes. Already that type: nothing to ask.
   */
  async function switchAccountType(type: 'eoa' | 'smartAccount') {
    const on = session.chainId
    const now = await session.withSession((current) =>
      api.request('POST', 'account-type', accountTypeResponse, { chainId: on, preview: type }, current),
    )
    if (!now.preview || now.preferredAccountType === type) return
    const served = await session.servedNetworks().catch(() => [])
    const network = served.find((entry) => entry.caipNetworkId === on)?.name ?? on
    await deps.approvals.show(
      { kind: 'accountType', type, network, from: now.account.address, to: now.preview.address },
      () => setAccountType(type, on),
    )
  }

  return { frameUserOf, setAccountType, switchAccountType }
}

export type FrameAccounts = ReturnType<typeof createFrameAccounts>
