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

/// What viem's getEnsAddress, getEnsText and getEnsName call. resolveWithGateways finds the name's
/// resolver in the registry (ENSIP-10: the nearest ancestor with one), asks it, and passes its
/// OffchainLookup on as a batch gateway query (so the client calls the resolver's gateway with the
/// resolver as sender). reverseWithGateways reads name(node) of `<address>.addr.reverse` the same way,
/// then resolves that name's address forward and answers the name only when it is the address's.
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
    error DNSEncodingFailed(string ens);
    error InvalidBatchGatewayResponse();
    error ReverseAddressMismatch(string primary, bytes primaryAddress);
    error UnsupportedResolverProfile(bytes4 selector);

    bytes4 private constant OFFCHAIN_LOOKUP = 0x556f1830;
    // query((address,string[],bytes)[]) of the batch gateway.
    bytes4 private constant BATCH_QUERY = 0xa780bab6;
    // name(bytes32) and addr(bytes32) of resolvers.
    bytes4 private constant NAME_SELECTOR = 0x691f3431;
    bytes4 private constant ADDR_SELECTOR = 0x3b3b57de;
    uint256 private constant COIN_TYPE_ETH = 60;

    constructor(DevEnsRegistry ensRegistry) {
        registry = ensRegistry;
    }

    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata gateways)
        external
        view
        returns (bytes memory, address)
    {
        return ask(name, data, gateways, this.resolveCallback.selector, "");
    }

    function resolveCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (bytes memory, address)
    {
        (bytes memory answer, address resolverAddress,) = answerOf(response, extraData);
        return (answer, resolverAddress);
    }

    /// ENSIP-19 for Ethereum addresses (coin type 60): the primary name of `lookupAddress`, checked
    /// forward. Other coin types have no reverse records here.
    function reverseWithGateways(bytes calldata lookupAddress, uint256 coinType, string[] calldata gateways)
        external
        view
        returns (string memory, address, address)
    {
        if (lookupAddress.length != 20 || coinType != COIN_TYPE_ETH) revert UnsupportedResolverProfile(NAME_SELECTOR);
        return reverseLookup(lookupAddress, gateways);
    }

    function reverseLookup(bytes memory lookupAddress, string[] memory gateways)
        private
        view
        returns (string memory, address, address)
    {
        bytes memory reverseName = reverseNameOf(lookupAddress);
        (bytes memory answer, address reverseResolver) = ask(
            reverseName,
            abi.encodeWithSelector(NAME_SELECTOR, namehash(reverseName, 0)),
            gateways,
            this.reverseCallback.selector,
            abi.encode(lookupAddress, gateways)
        );
        return checkForward(answer, reverseResolver, lookupAddress, gateways);
    }

    function reverseCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (string memory, address, address)
    {
        (bytes memory answer, address reverseResolver, bytes memory carry) = answerOf(response, extraData);
        (bytes memory lookupAddress, string[] memory gateways) = abi.decode(carry, (bytes, string[]));
        return checkForward(answer, reverseResolver, lookupAddress, gateways);
    }

    function forwardCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (string memory, address, address)
    {
        (bytes memory answer, address resolverAddress, bytes memory carry) = answerOf(response, extraData);
        (string memory primary, bytes memory lookupAddress, address reverseResolver) =
            abi.decode(carry, (string, bytes, address));
        return matchAddress(primary, answer, resolverAddress, lookupAddress, reverseResolver);
    }

    /// The name a reverse resolver answered, once its addr(node) is `lookupAddress` (a stale or
    /// forged reverse record is not trusted); "" when there is no primary name.
    function checkForward(
        bytes memory nameAnswer,
        address reverseResolver,
        bytes memory lookupAddress,
        string[] memory gateways
    ) private view returns (string memory, address, address) {
        string memory primary = abi.decode(nameAnswer, (string));
        if (bytes(primary).length == 0) return ("", address(0), reverseResolver);
        return forwardLookup(primary, abi.encode(primary, lookupAddress, reverseResolver), lookupAddress, gateways);
    }

    function forwardLookup(string memory primary, bytes memory carry, bytes memory lookupAddress, string[] memory gateways)
        private
        view
        returns (string memory, address, address)
    {
        bytes memory dnsName = dnsEncode(primary);
        (bytes memory answer, address resolverAddress) = ask(
            dnsName,
            abi.encodeWithSelector(ADDR_SELECTOR, namehash(dnsName, 0)),
            gateways,
            this.forwardCallback.selector,
            carry
        );
        (,, address reverseResolver) = abi.decode(carry, (string, bytes, address));
        return matchAddress(primary, answer, resolverAddress, lookupAddress, reverseResolver);
    }

    function matchAddress(
        string memory primary,
        bytes memory addrAnswer,
        address resolverAddress,
        bytes memory lookupAddress,
        address reverseResolver
    ) private pure returns (string memory, address, address) {
        address resolved = abi.decode(addrAnswer, (address));
        if (keccak256(abi.encodePacked(resolved)) != keccak256(lookupAddress)) {
            revert ReverseAddressMismatch(primary, abi.encodePacked(resolved));
        }
        return (primary, resolverAddress, reverseResolver);
    }

    /// Asks the name's resolver for `data`: its answer when it has one on chain, else an
    /// OffchainLookup whose callback `callback` gets `carry` back with the resolver's answer.
    function ask(bytes memory name, bytes memory data, string[] memory gateways, bytes4 callback, bytes memory carry)
        private
        view
        returns (bytes memory, address)
    {
        address resolverAddress = findResolver(name);
        (bool ok, bytes memory answer) = resolverAddress.staticcall(abi.encodeWithSelector(0x9061b923, name, data));
        if (ok) return (abi.decode(answer, (bytes)), resolverAddress);
        passOn(answer, resolverAddress, gateways, callback, carry);
    }

    /// Reverts with the OffchainLookup that sends the resolver's own lookup (`answer`) through the
    /// batch gateway, the resolver's callback and `carry` kept for `callback`.
    function passOn(
        bytes memory answer,
        address resolverAddress,
        string[] memory gateways,
        bytes4 callback,
        bytes memory carry
    ) private view {
        (bytes memory batchCall, bytes4 innerCallback, bytes memory innerExtraData) =
            batchQueryOf(answer, resolverAddress);
        revert OffchainLookup(
            address(this),
            gateways,
            batchCall,
            callback,
            abi.encode(resolverAddress, innerCallback, innerExtraData, carry)
        );
    }

    /// The batch gateway call carrying a resolver's OffchainLookup revert, with its callback and extra data.
    function batchQueryOf(bytes memory answer, address resolverAddress)
        private
        pure
        returns (bytes memory, bytes4, bytes memory)
    {
        if (answer.length < 4 || bytes4(answer) != OFFCHAIN_LOOKUP) revert ResolverError(answer);
        (address sender, string[] memory urls, bytes memory callData, bytes4 innerCallback, bytes memory extraData) =
            abi.decode(withoutSelector(answer), (address, string[], bytes, bytes4, bytes));
        if (sender != resolverAddress) revert ResolverError(answer);
        Query[] memory queries = new Query[](1);
        queries[0] = Query(sender, urls, callData);
        return (abi.encodeWithSelector(BATCH_QUERY, queries), innerCallback, extraData);
    }

    /// The resolver's answer to a batch gateway response, through the resolver's own callback.
    function answerOf(bytes calldata response, bytes calldata extraData)
        private
        view
        returns (bytes memory, address, bytes memory)
    {
        (bool[] memory failures, bytes[] memory responses) = abi.decode(response, (bool[], bytes[]));
        if (failures.length != 1 || responses.length != 1) revert InvalidBatchGatewayResponse();
        if (failures[0]) revert ResolverError(responses[0]);
        (address resolverAddress, bytes4 callback, bytes memory innerExtraData, bytes memory carry) =
            abi.decode(extraData, (address, bytes4, bytes, bytes));
        (bool ok, bytes memory answer) =
            resolverAddress.staticcall(abi.encodeWithSelector(callback, responses[0], innerExtraData));
        if (!ok) revert ResolverError(answer);
        return (abi.decode(answer, (bytes)), resolverAddress, carry);
    }

    /// The resolver of the name or of its nearest ancestor.
    function findResolver(bytes memory name) public view returns (address) {
        for (uint256 offset = 0; offset < name.length; offset += uint8(name[offset]) + 1) {
            if (name[offset] == 0) break;
            address found = registry.resolver(namehash(name, offset));
            if (found != address(0)) return found;
        }
        revert ResolverNotFound(name);
    }

    /// The ENS namehash of the DNS-encoded name from `offset` on.
    function namehash(bytes memory name, uint256 offset) public pure returns (bytes32) {
        if (offset >= name.length) revert DNSDecodingFailed(name);
        uint256 length = uint8(name[offset]);
        if (length == 0) return bytes32(0);
        if (offset + 1 + length >= name.length) revert DNSDecodingFailed(name);
        bytes32 label;
        assembly {
            label := keccak256(add(add(name, 33), offset), length)
        }
        return keccak256(abi.encodePacked(namehash(name, offset + 1 + length), label));
    }

    /// `<40 lower-case hex digits>.addr.reverse`, DNS-encoded.
    function reverseNameOf(bytes memory lookupAddress) private pure returns (bytes memory) {
        bytes memory digits = new bytes(40);
        bytes16 alphabet = "0123456789abcdef";
        for (uint256 i = 0; i < 20; i++) {
            digits[2 * i] = alphabet[uint8(lookupAddress[i]) >> 4];
            digits[2 * i + 1] = alphabet[uint8(lookupAddress[i]) & 15];
        }
        return abi.encodePacked(uint8(40), digits, uint8(4), "addr", uint8(7), "reverse", uint8(0));
    }

    /// The DNS wire format of a dotted name (labels of 1 to 63 bytes).
    function dnsEncode(string memory dotted) public pure returns (bytes memory encoded) {
        bytes memory name = bytes(dotted);
        encoded = new bytes(name.length + 2);
        uint256 start = 0;
        for (uint256 i = 0; i <= name.length; i++) {
            if (i == name.length || name[i] == ".") {
                uint256 length = i - start;
                if (length == 0 || length > 63) revert DNSEncodingFailed(dotted);
                encoded[start] = bytes1(uint8(length));
                for (uint256 j = start; j < i; j++) encoded[j + 1] = name[j];
                start = i + 1;
            }
        }
        encoded[name.length + 1] = 0;
    }

    function withoutSelector(bytes memory data) private pure returns (bytes memory rest) {
        rest = new bytes(data.length - 4);
        for (uint256 i = 0; i < rest.length; i++) rest[i] = data[i + 4];
    }
}
