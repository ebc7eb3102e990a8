/**
 * The verifying paymaster's approval (server/dev/chain/contracts/WalletPaymaster.sol): the hash its signer
 * signs for one UserOperation, chain and window, and the `paymasterData` that carries the window and the
 * signature. Mirrors the contract's `getHash`; the contract tests check both agree.
 */
import { type Address, concat, encodeAbiParameters, type Hex, keccak256, pad, size, slice, toHex } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import type { LocalAccount } from 'viem/accounts'

/** `paymasterData`: validUntil (6 bytes) ‖ validAfter (6 bytes) ‖ signature (65 bytes). */
export const PAYMASTER_DATA_BYTES = 6 + 6 + 65

/**
 * A 65-byte signature that recovers to no signer (r is above the curve order): the stub data's, so the
 * paymaster answers "signature failed" during estimation instead of reverting. No zero byte, so a
 * bundler's calldata estimate with it covers the real signature.
 */
export const STUB_PAYMASTER_SIGNATURE: Hex = `0x${'ff'.repeat(32)}${'7a'.repeat(32)}1c`

/** What the paymaster approves: the operation with its paymaster gas limits, and the window (unix seconds). */
export type PaymasterApproval = {
  userOperation: Omit<UserOperation<'0.8'>, 'paymasterData' | 'signature'> & {
    paymaster: Address
    paymasterVerificationGasLimit: bigint
    paymasterPostOpGasLimit: bigint
  }
  chainId: number
  validUntil: number
  validAfter: number
}

/**
 * The hash the paymaster's signer signs (as an EIP-191 message): every field of the operation but the
 * paymaster's signature and the account's, the chain id, the paymaster's address and the window.
 *
 * @example
 * const hash = paymasterHash({ userOperation, chainId: 31337, validUntil, validAfter: 0 })
 */
export function paymasterHash({ userOperation, chainId, validUntil, validAfter }: PaymasterApproval): Hex {
  const packed = toPackedUserOperation({ ...userOperation, paymasterData: '0x', signature: '0x' })
  // paymaster (20) ‖ verification gas (16) ‖ postOp gas (16): the limits are bytes 20 to 52.
  const paymasterGasLimits = slice(packed.paymasterAndData, 20, 52)
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        packed.sender,
        packed.nonce,
        keccak256(packed.initCode),
        keccak256(packed.callData),
        packed.accountGasLimits,
        paymasterGasLimits,
        packed.preVerificationGas,
        packed.gasFees,
        BigInt(chainId),
        userOperation.paymaster,
        validUntil,
        validAfter,
      ],
    ),
  )
}

/**
 * `paymasterData` for a window and a signature (the stub's when none is given).
 *
 * @example
 * encodePaymasterData({ validUntil: 1_900_000_000, validAfter: 0, signature })
 */
export function encodePaymasterData({
  validUntil,
  validAfter,
  signature = STUB_PAYMASTER_SIGNATURE,
}: {
  validUntil: number
  validAfter: number
  signature?: Hex
}): Hex {
  if (size(signature) !== 65) throw new RangeError('encodePaymasterData: the signature must be 65 bytes')
  return concat([pad(toHex(validUntil), { size: 6 }), pad(toHex(validAfter), { size: 6 }), signature])
}

/**
 * The signed `paymasterData` that makes the paymaster pay for `approval.userOperation`.
 *
 * @example
 * const paymasterData = await signPaymasterData(signer, { userOperation, chainId, validUntil, validAfter: 0 })
 */
export async function signPaymasterData(signer: LocalAccount, approval: PaymasterApproval): Promise<Hex> {
  if (!signer.signMessage) throw new TypeError('signPaymasterData: the signer cannot sign messages')
  const signature = await signer.signMessage({ message: { raw: paymasterHash(approval) } })
  return encodePaymasterData({ validUntil: approval.validUntil, validAfter: approval.validAfter, signature })
}
