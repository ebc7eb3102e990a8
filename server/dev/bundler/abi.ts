// The ABI pieces the bundler calls and reads: EntryPointSimulations' `simulateHandleOp`, UserOperationEvent.
import type { Abi } from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'

/** EntryPointSimulations' `simulateHandleOp` (v0.8), run with `eth_call` over the EntryPoint's address. */
export const simulationsAbi = [
  {
    type: 'function',
    name: 'simulateHandleOp',
    stateMutability: 'nonpayable',
    inputs: [
      {
        name: 'op',
        type: 'tuple',
        components: [
          { name: 'sender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'initCode', type: 'bytes' },
          { name: 'callData', type: 'bytes' },
          { name: 'accountGasLimits', type: 'bytes32' },
          { name: 'preVerificationGas', type: 'uint256' },
          { name: 'gasFees', type: 'bytes32' },
          { name: 'paymasterAndData', type: 'bytes' },
          { name: 'signature', type: 'bytes' },
        ],
      },
      { name: 'target', type: 'address' },
      { name: 'targetCallData', type: 'bytes' },
    ],
    outputs: [
      {
        name: '',
        type: 'tuple',
        components: [
          { name: 'preOpGas', type: 'uint256' },
          { name: 'paid', type: 'uint256' },
          { name: 'accountValidationData', type: 'uint256' },
          { name: 'paymasterValidationData', type: 'uint256' },
          { name: 'targetSuccess', type: 'bool' },
          { name: 'targetResult', type: 'bytes' },
        ],
      },
    ],
  },
] as const satisfies Abi

/** The EntryPoint's event for each UserOperation it ran: what receipts are read from. */
export const userOperationEvent = entryPoint08Abi.find(
  (item): item is Extract<(typeof entryPoint08Abi)[number], { name: 'UserOperationEvent' }> =>
    item.type === 'event' && item.name === 'UserOperationEvent',
) as Extract<(typeof entryPoint08Abi)[number], { name: 'UserOperationEvent' }>
