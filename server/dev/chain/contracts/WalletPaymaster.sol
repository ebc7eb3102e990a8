// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

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

/// @notice The EntryPoint's deposit functions this paymaster uses.
interface IEntryPointDeposits {
    function depositTo(address account) external payable;
    function withdrawTo(address payable withdrawAddress, uint256 withdrawAmount) external;
    function balanceOf(address account) external view returns (uint256);
}

/// @notice The companion service's verifying paymaster: it pays the gas of a UserOperation that its
/// signer (the service, `PAYMASTER_SIGNER_KEY`) approved for a time window. The service decides which
/// operations to sponsor (the project's policy, docs/SELF-HOSTING.md); this contract only checks that the
/// signer approved exactly this operation, on this chain, for this paymaster, within the window.
///
/// `paymasterAndData` is `paymaster (20) ‖ verification gas (16) ‖ postOp gas (16) ‖ paymasterData`, and
/// `paymasterData` is `validUntil (uint48, 6) ‖ validAfter (uint48, 6) ‖ signature (65)`. The signer
/// signs {getHash} as an EIP-191 message: every field of the operation but the paymaster's signature
/// (its nonce too, so an approval is spent with the operation), the chain id, this address and the window.
contract WalletPaymaster is Ownable {
    /// @notice Only the EntryPoint may ask this paymaster to validate or to run postOp.
    error NotFromEntryPoint(address caller);
    /// @notice `paymasterData` is not `validUntil ‖ validAfter ‖ 65-byte signature`.
    error InvalidPaymasterData(uint256 length);
    error ZeroSigner();

    event SignerChanged(address indexed previousSigner, address indexed newSigner);

    /// @notice The EntryPoint's postOp modes (v0.7 and v0.8).
    enum PostOpMode {
        opSucceeded,
        opReverted,
        postOpReverted
    }

    uint256 private constant PAYMASTER_DATA_OFFSET = 52;
    uint256 private constant PAYMASTER_DATA_LENGTH = 6 + 6 + 65;
    uint256 private constant SIG_VALIDATION_FAILED = 1;

    IEntryPointDeposits public immutable entryPoint;
    /// @notice The key whose signature makes this paymaster pay.
    address public signer;

    constructor(address entryPoint_, address owner_, address signer_) Ownable(owner_) {
        if (signer_ == address(0)) revert ZeroSigner();
        entryPoint = IEntryPointDeposits(entryPoint_);
        signer = signer_;
        emit SignerChanged(address(0), signer_);
    }

    /// @notice Replaces the signer (a new `PAYMASTER_SIGNER_KEY`); approvals by the old one stop paying.
    function setSigner(address newSigner) external onlyOwner {
        if (newSigner == address(0)) revert ZeroSigner();
        emit SignerChanged(signer, newSigner);
        signer = newSigner;
    }

    /// @notice Adds to this paymaster's deposit at the EntryPoint (what it pays gas with). Anyone may.
    function deposit() external payable {
        entryPoint.depositTo{value: msg.value}(address(this));
    }

    /// @notice Takes `amount` wei of the deposit back to `to`.
    function withdrawTo(address payable to, uint256 amount) external onlyOwner {
        entryPoint.withdrawTo(to, amount);
    }

    /// @notice The deposit left at the EntryPoint, in wei.
    function getDeposit() external view returns (uint256) {
        return entryPoint.balanceOf(address(this));
    }

    /// @notice What the signer signs (as an EIP-191 message) to sponsor `userOp` within the window.
    function getHash(
        PackedUserOperation calldata userOp,
        uint48 validUntil,
        uint48 validAfter
    ) public view returns (bytes32) {
        // The paymaster's own gas limits, but not its data (which holds the signature).
        bytes32 paymasterGasLimits = bytes32(userOp.paymasterAndData[20:PAYMASTER_DATA_OFFSET]);
        return
            keccak256(
                abi.encode(
                    userOp.sender,
                    userOp.nonce,
                    keccak256(userOp.initCode),
                    keccak256(userOp.callData),
                    userOp.accountGasLimits,
                    paymasterGasLimits,
                    userOp.preVerificationGas,
                    userOp.gasFees,
                    block.chainid,
                    address(this),
                    validUntil,
                    validAfter
                )
            );
    }

    /// @notice Validates the signer's approval: a wrong signature answers SIG_VALIDATION_FAILED (1) rather
    /// than reverting, so a bundler can estimate with stub data; the window goes back in validationData.
    function validatePaymasterUserOp(
        PackedUserOperation calldata userOp,
        bytes32,
        uint256
    ) external view returns (bytes memory context, uint256 validationData) {
        if (msg.sender != address(entryPoint)) revert NotFromEntryPoint(msg.sender);
        uint256 length = userOp.paymasterAndData.length;
        if (length != PAYMASTER_DATA_OFFSET + PAYMASTER_DATA_LENGTH)
            revert InvalidPaymasterData(length > PAYMASTER_DATA_OFFSET ? length - PAYMASTER_DATA_OFFSET : 0);
        bytes calldata data = userOp.paymasterAndData[PAYMASTER_DATA_OFFSET:];
        uint48 validUntil = uint48(bytes6(data[0:6]));
        uint48 validAfter = uint48(bytes6(data[6:12]));
        bytes32 hash = MessageHashUtils.toEthSignedMessageHash(getHash(userOp, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, data[12:]);
        uint256 failed = error == ECDSA.RecoverError.NoError && recovered == signer ? 0 : SIG_VALIDATION_FAILED;
        validationData = failed | (uint256(validUntil) << 160) | (uint256(validAfter) << 208);
        context = "";
    }

    /// @notice Never called with the empty context this paymaster returns; present for the interface.
    function postOp(PostOpMode, bytes calldata, uint256, uint256) external view {
        if (msg.sender != address(entryPoint)) revert NotFromEntryPoint(msg.sender);
    }
}
