// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The part of Farcaster's IdRegistry that Sign In With Farcaster reads (`idOf`, `custodyOf`),
/// placed by server/dev/farcaster at the registry's OP-mainnet address on a local chain with chain id
/// 10. `register` stands in for the real registration (no fees, no signatures): dev chains only.
contract DevIdRegistry {
    mapping(address => uint256) public idOf;
    mapping(uint256 => address) public custodyOf;

    event Register(address indexed to, uint256 indexed id);

    function register(address custody, uint256 fid) external {
        require(fid != 0 && custodyOf[fid] == address(0) && idOf[custody] == 0, "taken");
        idOf[custody] = fid;
        custodyOf[fid] = custody;
        emit Register(custody, fid);
    }
}

/// @notice The part of Farcaster's KeyRegistry that Sign In With Farcaster reads (`keyDataOf`), placed
/// at the registry's OP-mainnet address on the local chain. `add` stands in for the real flow.
contract DevKeyRegistry {
    struct KeyData {
        uint8 state;
        uint32 keyType;
    }

    mapping(uint256 => mapping(bytes => KeyData)) internal keys;

    function keyDataOf(uint256 fid, bytes calldata key) external view returns (KeyData memory) {
        return keys[fid][key];
    }

    /// state 1 = added; keyType 2 = auth address (the values the real registry uses).
    function add(uint256 fid, bytes calldata key, uint32 keyType) external {
        keys[fid][key] = KeyData({ state: 1, keyType: keyType });
    }
}
