// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// EIP-3668: a read that must be answered off chain.
error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);

/// The least of an ENS registry the local chain needs: owners and resolvers of nodes.
contract DevEnsRegistry {
    mapping(bytes32 => address) public owner;
    mapping(bytes32 => address) public resolver;

    error NotOwner(bytes32 node);

    constructor() {
        owner[bytes32(0)] = msg.sender;
    }

    modifier onlyOwner(bytes32 node) {
        if (owner[node] != msg.sender) revert NotOwner(node);
        _;
    }

    function setSubnodeOwner(bytes32 node, bytes32 label, address newOwner) external onlyOwner(node) returns (bytes32 subnode) {
        subnode = keccak256(abi.encodePacked(node, label));
        owner[subnode] = newOwner;
    }

    function setResolver(bytes32 node, address newResolver) external onlyOwner(node) {
        resolver[node] = newResolver;
    }
}

/// An ENSIP-10 resolver for the names of the companion service: every read goes to the service's
/// EIP-3668 gateway, whose answer counts only when signed by the gateway key and not expired.
contract DevOffchainResolver {
    string public gatewayUrl;
    address public immutable signer;

    error InvalidSignature();
    error ExpiredAnswer(uint64 expires);

    constructor(string memory url, address gatewaySigner) {
        gatewayUrl = url;
        signer = gatewaySigner;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        // ENSIP-10 resolve(bytes,bytes) and ERC-165 itself.
        return interfaceId == 0x9061b923 || interfaceId == 0x01ffc9a7;
    }

    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory) {
        bytes memory callData = abi.encodeWithSelector(0x9061b923, name, data);
        string[] memory urls = new string[](1);
        urls[0] = gatewayUrl;
        revert OffchainLookup(address(this), urls, callData, this.resolveWithProof.selector, callData);
    }

    /// The gateway answers abi.encode(bytes result, uint64 expires, bytes signature), signed over
    /// keccak256(0x1900 ‖ resolver ‖ expires ‖ keccak256(request) ‖ keccak256(result)).
    function resolveWithProof(bytes calldata response, bytes calldata extraData) external view returns (bytes memory) {
        (bytes memory result, uint64 expires, bytes memory signature) = abi.decode(response, (bytes, uint64, bytes));
        bytes32 digest = keccak256(
            abi.encodePacked(hex"1900", address(this), expires, keccak256(extraData), keccak256(result))
        );
        (address recovered, ECDSA.RecoverError failure,) = ECDSA.tryRecover(digest, signature);
        if (failure != ECDSA.RecoverError.NoError || recovered != signer) revert InvalidSignature();
        if (expires < block.timestamp) revert ExpiredAnswer(expires);
        return result;
    }
}

/// What viem's getEnsAddress calls: resolveWithGateways finds the name's resolver in the registry
/// (ENSIP-10: the nearest ancestor with one), asks it, and passes its OffchainLookup on as a batch
/// gateway query (so the client calls the resolver's gateway with the resolver as sender).
contract DevUniversalResolver {
    DevEnsRegistry public immutable registry;

    struct Query {
        address sender;
        string[] urls;
        bytes data;
    }

    error ResolverNotFound(bytes name);
    error ResolverError(bytes errorData);
    error DNSDecodingFailed(bytes dns);
    error InvalidBatchGatewayResponse();

    bytes4 private constant OFFCHAIN_LOOKUP = 0x556f1830;
    // query((address,string[],bytes)[]) of the batch gateway.
    bytes4 private constant BATCH_QUERY = 0xa780bab6;

    constructor(DevEnsRegistry ensRegistry) {
        registry = ensRegistry;
    }

    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata gateways)
        external
        view
        returns (bytes memory, address)
    {
        address resolverAddress = findResolver(name);
        (bool ok, bytes memory answer) =
            resolverAddress.staticcall(abi.encodeWithSelector(0x9061b923, name, data));
        if (ok) return (abi.decode(answer, (bytes)), resolverAddress);
        if (answer.length < 4 || bytes4(answer) != OFFCHAIN_LOOKUP) revert ResolverError(answer);
        (address sender, string[] memory urls, bytes memory callData, bytes4 callback, bytes memory extraData) =
            abi.decode(withoutSelector(answer), (address, string[], bytes, bytes4, bytes));
        if (sender != resolverAddress) revert ResolverError(answer);
        Query[] memory queries = new Query[](1);
        queries[0] = Query(sender, urls, callData);
        revert OffchainLookup(
            address(this),
            gateways,
            abi.encodeWithSelector(BATCH_QUERY, queries),
            this.resolveCallback.selector,
            abi.encode(resolverAddress, callback, extraData)
        );
    }

    function resolveCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (bytes memory, address)
    {
        (bool[] memory failures, bytes[] memory responses) = abi.decode(response, (bool[], bytes[]));
        if (failures.length != 1 || responses.length != 1) revert InvalidBatchGatewayResponse();
        if (failures[0]) revert ResolverError(responses[0]);
        (address resolverAddress, bytes4 callback, bytes memory innerExtraData) =
            abi.decode(extraData, (address, bytes4, bytes));
        (bool ok, bytes memory answer) =
            resolverAddress.staticcall(abi.encodeWithSelector(callback, responses[0], innerExtraData));
        if (!ok) revert ResolverError(answer);
        return (abi.decode(answer, (bytes)), resolverAddress);
    }

    /// The resolver of the name or of its nearest ancestor.
    function findResolver(bytes calldata name) public view returns (address) {
        for (uint256 offset = 0; offset < name.length; offset += uint8(name[offset]) + 1) {
            if (name[offset] == 0) break;
            address found = registry.resolver(namehash(name, offset));
            if (found != address(0)) return found;
        }
        revert ResolverNotFound(name);
    }

    /// The ENS namehash of the DNS-encoded name from `offset` on.
    function namehash(bytes calldata name, uint256 offset) public pure returns (bytes32) {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        uint256 length = uint8(name[offset]);
        if (length == 0) return bytes32(0);
        if (offset + 1 + length >= name.length) revert DNSDecodingFailed(name);
        bytes32 label = keccak256(name[offset + 1:offset + 1 + length]);
        return keccak256(abi.encodePacked(namehash(name, offset + 1 + length), label));
    }

    function withoutSelector(bytes memory data) private pure returns (bytes memory rest) {
        rest = new bytes(data.length - 4);
        for (uint256 i = 0; i < rest.length; i++) rest[i] = data[i + 4];
    }
}
