// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @notice ERC-4337 v0.8's packed UserOperation (the EntryPoint's calldata layout).
struct PackedUserOperation {
    address sender;
    uint256 nonce;
    bytes initCode;
    bytes callData;
    bytes32 accountGasLimits;
    uint256 preVerificationGas;
    bytes32 gasFees;
    bytes paymasterAndData;
    bytes signature;
}

/// @notice The embedded wallet's smart account: an ERC-4337 v0.8 account owned by one key, with
/// ERC-1271 signatures. Each account is a minimal proxy (ERC-1167 with immutable args) of one
/// implementation; its owner is the clone's immutable argument, so it can never change nor be set by
/// anyone else.
///
/// - UserOperations: v0.8's userOpHash is already EIP-712 (bound to the EntryPoint and the chain); the
///   owner signs it as it is. A wrong signature answers SIG_VALIDATION_FAILED (1) rather than reverting,
///   so a bundler can estimate with a dummy signature.
/// - ERC-1271: the owner signs `WalletAccountMessage(bytes32 hash)` under an EIP-712 domain bound to this
///   account's address and the chain id, so one signature of the owner never verifies for another of
///   their accounts nor on another chain.
contract WalletAccount {
    /// @notice ExecuteError's signature is that of eth-infinitism's SimpleAccount, so tools read it alike.
    error ExecuteError(uint256 index, bytes error);
    error NotAllowed(address caller);

    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant MESSAGE_TYPEHASH = keccak256("WalletAccountMessage(bytes32 hash)");
    bytes32 private constant NAME_HASH = keccak256("WalletAccount");
    bytes32 private constant VERSION_HASH = keccak256("1");
    bytes4 private constant ERC1271_VALID = 0x1626ba7e;
    bytes4 private constant ERC1271_INVALID = 0xffffffff;

    address public immutable entryPoint;

    constructor(address entryPoint_) {
        entryPoint = entryPoint_;
    }

    receive() external payable {}

    /// @notice The key that signs for this account (the clone's immutable argument).
    function owner() public view returns (address) {
        return abi.decode(Clones.fetchCloneArgs(address(this)), (address));
    }

    function validateUserOp(
        PackedUserOperation calldata userOp,
        bytes32 userOpHash,
        uint256 missingAccountFunds
    ) external returns (uint256 validationData) {
        if (msg.sender != entryPoint) revert NotAllowed(msg.sender);
        validationData = _signedByOwner(userOpHash, userOp.signature) ? 0 : 1;
        if (missingAccountFunds != 0) {
            // The EntryPoint checks the deposit; a failed transfer shows there.
            (bool sent, ) = payable(msg.sender).call{value: missingAccountFunds}("");
            sent;
        }
    }

    function execute(address target, uint256 value, bytes calldata data) external {
        _onlyEntryPointOrOwner();
        (bool ok, bytes memory result) = target.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }

    /// @notice All calls or none: the first call that reverts reverts the batch.
    function executeBatch(Call[] calldata calls) external {
        _onlyEntryPointOrOwner();
        for (uint256 index = 0; index < calls.length; index++) {
            (bool ok, bytes memory result) = calls[index].target.call{value: calls[index].value}(
                calls[index].data
            );
            if (!ok) revert ExecuteError(index, result);
        }
    }

    /// @notice ERC-1271: whether the owner signed `hash` for this account on this chain.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return _signedByOwner(replaySafeHash(hash), signature) ? ERC1271_VALID : ERC1271_INVALID;
    }

    /// @notice The EIP-712 digest the owner signs for `hash` (see the contract's notice).
    function replaySafeHash(bytes32 hash) public view returns (bytes32) {
        bytes32 domain = keccak256(
            abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this))
        );
        return keccak256(abi.encodePacked("\x19\x01", domain, keccak256(abi.encode(MESSAGE_TYPEHASH, hash))));
    }

    function _signedByOwner(bytes32 digest, bytes calldata signature) private view returns (bool) {
        (address recovered, ECDSA.RecoverError failure, ) = ECDSA.tryRecoverCalldata(digest, signature);
        return failure == ECDSA.RecoverError.NoError && recovered == owner();
    }

    function _onlyEntryPointOrOwner() private view {
        if (msg.sender != entryPoint && msg.sender != owner()) revert NotAllowed(msg.sender);
    }
}

/// @notice Creates WalletAccounts with CREATE2: anyone may call it (an EIP-6492 verifier deploys an
/// account this way), and it answers the existing account when it is already deployed.
contract WalletAccountFactory {
    WalletAccount public immutable accountImplementation;

    constructor(address entryPoint) {
        accountImplementation = new WalletAccount(entryPoint);
    }

    function createAccount(address owner, uint256 salt) external returns (WalletAccount) {
        address account = getAddress(owner, salt);
        if (account.code.length == 0) {
            Clones.cloneDeterministicWithImmutableArgs(address(accountImplementation), abi.encode(owner), bytes32(salt));
        }
        return WalletAccount(payable(account));
    }

    function getAddress(address owner, uint256 salt) public view returns (address) {
        return
            Clones.predictDeterministicAddressWithImmutableArgs(
                address(accountImplementation),
                abi.encode(owner),
                bytes32(salt)
            );
    }
}
