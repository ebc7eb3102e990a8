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
/// - Sessions: the account itself (a call the owner signed) grants a session key a {Policy}; a
///   UserOperation signed by that key is validated against the policy here, on chain, and runs through
///   {executeUserOp}, which measures what leaves the account (docs/EMBEDDED-WALLET.md, "Smart sessions:
///   the contract").
contract WalletAccount {
    /// @notice ExecuteError's signature is that of eth-infinitism's SimpleAccount, so tools read it alike.
    error ExecuteError(uint256 index, bytes error);
    error NotAllowed(address caller);

    /// @notice The session policy is malformed (an empty window, a zero key, an allowance with no period).
    error InvalidPolicy(address key);
    /// @notice No session was ever granted to `key` on this account.
    error SessionUnknown(address key);
    error SessionIsRevoked(address key);
    error SessionCallLimitReached(address key, uint32 callLimit);
    /// @notice A session op's callData is not `executeUserOp` followed by `execute` or `executeBatch`.
    error SessionNotACall(bytes4 selector);
    error SessionCallNotAllowed(uint256 index, address target, bytes4 selector);
    /// @notice A session may never call the account itself (it would grant itself more).
    error SessionSelfCall(uint256 index);
    error SessionValueOverCap(uint256 index, uint256 value, uint256 cap);
    error SessionAllowanceExceeded(address token, uint48 period, uint256 spent, uint256 allowance);
    error SessionGasCostOverCap(uint256 cost, uint256 cap);
    error SessionPeriodOutOfRange(address token, uint48 period);
    /// @notice A session op's calls took more native value out of the account than the session's cap.
    error SessionNativeOverCap(uint256 sent, uint256 cap);
    /// @notice `executeUserOp` runs session ops only (the owner's ops call `execute` or `executeBatch`).
    error NotASessionOp();
    /// @notice A session op's calls reached `executeUserOp` again before it finished.
    error SessionReentered();

    /// @notice A session key was granted `policy` (replacing any earlier grant to the key).
    event SessionGranted(address indexed key, uint256 indexed grant, Policy policy);
    event SessionRevoked(address indexed key, uint256 indexed grant);

    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    /// @notice One call a session may make: `selector` on `target` (selector zero: a call with no data).
    struct Permission {
        address target;
        bytes4 selector;
    }

    /// @notice How much of `token` may leave the account through a session in each period of `period`
    /// seconds (period n is [n * period, (n + 1) * period)): what its ops' calls take out of the account's
    /// balance, whichever contract takes it, plus what their approvals still let others take afterwards.
    struct Allowance {
        address token;
        uint256 amount;
        uint48 period;
    }

    /// @notice What a session key may do: within [validAfter, validUntil), at most `callLimit` calls
    /// (0: no limit), each with at most `valueCap` wei and at most `valueCap` wei leaving the account in
    /// one op, only the `permissions`, ERC-20 amounts within the `allowances`, and ops whose gas limits ×
    /// maxFeePerGas stay within `maxGasCost` wei when the account pays its own gas.
    struct Policy {
        uint48 validAfter;
        uint48 validUntil;
        uint32 callLimit;
        uint256 valueCap;
        uint256 maxGasCost;
        Permission[] permissions;
        Allowance[] allowances;
    }

    /// @notice A granted session's state; `grant` numbers the grant so that a re-grant starts afresh.
    struct Session {
        uint48 validAfter;
        uint48 validUntil;
        uint32 callLimit;
        uint32 callsMade;
        bool revoked;
        uint256 grant;
        uint256 valueCap;
        uint256 maxGasCost;
    }

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant MESSAGE_TYPEHASH = keccak256("WalletAccountMessage(bytes32 hash)");
    bytes32 private constant NAME_HASH = keccak256("WalletAccount");
    bytes32 private constant VERSION_HASH = keccak256("1");
    bytes4 private constant ERC1271_VALID = 0x1626ba7e;
    bytes4 private constant ERC1271_INVALID = 0xffffffff;
    /// @notice A session signature: `0x01 ‖ key (20) ‖ period index (uint48, 6) ‖ ECDSA signature (65)`.
    bytes1 private constant SESSION_SIGNATURE = 0x01;
    uint256 private constant SESSION_SIGNATURE_LENGTH = 92;
    bytes4 private constant ERC20_TRANSFER = 0xa9059cbb;
    bytes4 private constant ERC20_APPROVE = 0x095ea7b3;
    bytes4 private constant ERC20_TRANSFER_FROM = 0x23b872dd;
    bytes4 private constant ERC20_BALANCE_OF = 0x70a08231;
    bytes4 private constant ERC20_ALLOWANCE = 0xdd62ed3e;
    /// @dev Transient: set while a session op's calls run (see {executeUserOp}).
    bytes32 private constant METERING_SLOT = keccak256("WalletAccount.metering");

    /// @dev An approval a session op makes: its token, its spender and the allowance before the calls.
    struct Approval {
        address token;
        address spender;
        uint256 before;
    }

    address public immutable entryPoint;

    /// @notice How many grants this account made (each grant's number; zero is "never granted").
    uint256 private _grants;
    mapping(address key => Session) private _sessions;
    mapping(address key => Permission[]) private _permissions;
    mapping(address key => Allowance[]) private _allowances;
    /// @dev keccak256(grant, target, selector) => allowed.
    mapping(bytes32 => bool) private _allowed;
    /// @dev keccak256(grant, token) => index in _allowances + 1 (0: no allowance for the token).
    mapping(bytes32 => uint256) private _allowanceSlot;
    /// @dev keccak256(grant, token, period index) => amount spent in that period.
    mapping(bytes32 => uint256) private _spent;

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
        if (_isSessionSignature(userOp.signature)) {
            validationData = _validateSession(userOp, userOpHash);
        } else {
            validationData = _signedByOwner(userOpHash, userOp.signature) ? 0 : 1;
        }
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

    /// @notice Runs a session op: the EntryPoint calls this with the whole op when its callData starts with
    /// this function's selector (ERC-4337's IAccountExecute), which validation demands of every session op;
    /// the calls follow the selector as `execute` or `executeBatch` encodes them.
    ///
    /// What leaves the account is measured here, in execution (validation may read only the account's own
    /// storage, and the gas prefund is paid before this and refunded to the deposit after it): the balance
    /// of each token with an allowance and the native balance before the calls and after them. Each
    /// token's decrease, plus what the op's `approve` calls on it still let their spenders take afterwards
    /// (the allowance's increase, so an approval spent within the op is not charged twice), is charged to
    /// the allowance of the period of this block's time; the native decrease may be at most `valueCap`.
    /// Whichever contract moved the funds (a router under an earlier approval, a third contract's
    /// `transferFrom`, ether forwarded on), they count; funds that come back within the op are netted.
    /// Over a limit, the whole op reverts. A called contract cannot enter this function again (only the
    /// EntryPoint may call it, and a transient lock refuses a nested run) nor `execute`/`executeBatch`
    /// (the EntryPoint's or the owner's); whatever else happens between the two readings is counted.
    function executeUserOp(PackedUserOperation calldata userOp, bytes32) external {
        if (msg.sender != entryPoint) revert NotAllowed(msg.sender);
        if (!_isSessionSignature(userOp.signature)) revert NotASessionOp();
        _lockMetering();
        address key = address(bytes20(userOp.signature[1:21]));
        Call[] memory calls = _sessionCalls(userOp.callData);
        Allowance[] storage allowances = _allowances[key];
        uint256 grant = _sessions[key].grant;
        uint256[] memory balances = new uint256[](allowances.length);
        for (uint256 index = 0; index < allowances.length; index++) {
            balances[index] = _tokenRead(
                allowances[index].token,
                abi.encodeWithSelector(ERC20_BALANCE_OF, address(this))
            );
        }
        Approval[] memory approvals = _approvals(grant, calls);
        uint256 nativeBefore = address(this).balance;

        for (uint256 index = 0; index < calls.length; index++) {
            (bool ok, bytes memory result) = calls[index].target.call{value: calls[index].value}(calls[index].data);
            if (!ok) revert ExecuteError(index, result);
        }

        uint256 nativeAfter = address(this).balance;
        uint256 cap = _sessions[key].valueCap;
        if (nativeAfter < nativeBefore && nativeBefore - nativeAfter > cap)
            revert SessionNativeOverCap(nativeBefore - nativeAfter, cap);
        for (uint256 index = 0; index < allowances.length; index++) {
            _charge(grant, allowances[index], balances[index], approvals);
        }
        _unlockMetering();
    }

    /// @notice Grants `key` a session under `policy`, replacing any earlier grant to it (its use starts
    /// at zero and it is no longer revoked). Only the account itself: a call the owner signed.
    function grantSession(address key, Policy calldata policy) external {
        _onlySelf();
        if (key == address(0) || policy.validUntil <= policy.validAfter) revert InvalidPolicy(key);
        uint256 grant = ++_grants;
        _sessions[key] = Session({
            validAfter: policy.validAfter,
            validUntil: policy.validUntil,
            callLimit: policy.callLimit,
            callsMade: 0,
            revoked: false,
            grant: grant,
            valueCap: policy.valueCap,
            maxGasCost: policy.maxGasCost
        });
        delete _permissions[key];
        for (uint256 index = 0; index < policy.permissions.length; index++) {
            Permission calldata permission = policy.permissions[index];
            _permissions[key].push(permission);
            _allowed[keccak256(abi.encode(grant, permission.target, permission.selector))] = true;
        }
        delete _allowances[key];
        for (uint256 index = 0; index < policy.allowances.length; index++) {
            Allowance calldata allowance = policy.allowances[index];
            bytes32 slot = keccak256(abi.encode(grant, allowance.token));
            if (allowance.period == 0 || _allowanceSlot[slot] != 0) revert InvalidPolicy(key);
            _allowances[key].push(allowance);
            _allowanceSlot[slot] = index + 1;
        }
        emit SessionGranted(key, grant, policy);
    }

    /// @notice Revokes `key`'s session: from the next block, its UserOperations fail validation.
    /// Only the account itself: a call the owner signed.
    function revokeSession(address key) external {
        _onlySelf();
        Session storage stored = _sessions[key];
        if (stored.grant == 0) revert SessionUnknown(key);
        stored.revoked = true;
        emit SessionRevoked(key, stored.grant);
    }

    /// @notice `key`'s session as granted, how many calls it made and whether it is revoked (a key never
    /// granted answers an empty policy and `grant` zero).
    function session(
        address key
    ) external view returns (Policy memory policy, uint256 grant, uint32 callsMade, bool revoked) {
        Session storage stored = _sessions[key];
        policy = Policy({
            validAfter: stored.validAfter,
            validUntil: stored.validUntil,
            callLimit: stored.callLimit,
            valueCap: stored.valueCap,
            maxGasCost: stored.maxGasCost,
            permissions: _permissions[key],
            allowances: _allowances[key]
        });
        return (policy, stored.grant, stored.callsMade, stored.revoked);
    }

    /// @notice What `key` spent of `token` in period `period` (of that token's allowance).
    function sessionSpent(address key, address token, uint48 period) public view returns (uint256) {
        return _spent[keccak256(abi.encode(_sessions[key].grant, token, period))];
    }

    /// @notice `key`'s use so far: calls made, and per allowance the current period and what was spent
    /// in it (by this block's timestamp).
    function sessionUse(
        address key
    ) external view returns (uint32 callsMade, uint48[] memory periods, uint256[] memory spent) {
        Allowance[] storage allowances = _allowances[key];
        periods = new uint48[](allowances.length);
        spent = new uint256[](allowances.length);
        for (uint256 index = 0; index < allowances.length; index++) {
            periods[index] = uint48(block.timestamp / allowances[index].period);
            spent[index] = sessionSpent(key, allowances[index].token, periods[index]);
        }
        return (_sessions[key].callsMade, periods, spent);
    }

    /// @notice Whether `key`'s session was revoked (and not granted again since).
    function isSessionRevoked(address key) external view returns (bool) {
        return _sessions[key].revoked;
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

    /// @dev A session op: checks the policy (reverting with the reason), counts its calls, then answers 1
    /// if the key did not sign, else the time window the EntryPoint enforces. The policy
    /// comes before the signature so that a bundler can estimate with a stub signature.
    function _validateSession(PackedUserOperation calldata userOp, bytes32 userOpHash) private returns (uint256) {
        address key = address(bytes20(userOp.signature[1:21]));
        uint48 period = uint48(bytes6(userOp.signature[21:27]));
        Session storage stored = _sessions[key];
        if (stored.grant == 0) revert SessionUnknown(key);
        if (stored.revoked) revert SessionIsRevoked(key);
        if (userOp.paymasterAndData.length == 0) {
            uint256 cost = _maxGasCost(userOp);
            if (cost > stored.maxGasCost) revert SessionGasCostOverCap(cost, stored.maxGasCost);
        }
        Call[] memory calls = _sessionCalls(userOp.callData);
        uint256 start = stored.validAfter;
        uint256 end = stored.validUntil;
        uint256[] memory declared = new uint256[](_allowances[key].length);
        for (uint256 index = 0; index < calls.length; index++) {
            (uint256 periodStart, uint256 periodEnd) = _checkCall(key, stored, index, calls[index], period, declared);
            if (periodStart > start) start = periodStart;
            if (periodEnd < end) end = periodEnd;
        }
        uint256 made = uint256(stored.callsMade) + calls.length;
        if (stored.callLimit != 0 && made > stored.callLimit) revert SessionCallLimitReached(key, stored.callLimit);
        stored.callsMade = uint32(made);

        (address recovered, ECDSA.RecoverError failure, ) = ECDSA.tryRecoverCalldata(
            userOpHash,
            userOp.signature[27:]
        );
        if (failure != ECDSA.RecoverError.NoError || recovered != key) return 1;
        // The EntryPoint accepts validAfter < block.timestamp <= validUntil; the window is [start, end).
        // An empty window packs validAfter >= validUntil, which no timestamp passes.
        if (end <= start || end <= 1) return (uint256(1) << 160) | (uint256(1) << 208);
        uint256 validAfter = start == 0 ? 0 : start - 1;
        return ((end - 1) << 160) | (validAfter << 208);
    }

    /// @dev One call of a session op against the policy; answers the period of the token it spends
    /// (or the whole range when it spends none). The `transfer`, `approve` and `transferFrom` amounts it
    /// names on a token with an allowance are added to `declared` and checked against what is left of the
    /// named period's allowance, so a plain overspend is refused before anything runs; they are charged
    /// in execution, as measured ({executeUserOp}), not here.
    function _checkCall(
        address key,
        Session storage stored,
        uint256 index,
        Call memory call,
        uint48 period,
        uint256[] memory declared
    ) private view returns (uint256 periodStart, uint256 periodEnd) {
        if (call.target == address(this)) revert SessionSelfCall(index);
        if (call.data.length != 0 && call.data.length < 4) revert SessionCallNotAllowed(index, call.target, 0);
        bytes4 selector = bytes4(call.data);
        // The EntryPoint holds the account's deposit (`withdrawTo` would send it anywhere, unmeasured).
        if (call.target == entryPoint || !_allowed[keccak256(abi.encode(stored.grant, call.target, selector))])
            revert SessionCallNotAllowed(index, call.target, selector);
        if (call.value > stored.valueCap) revert SessionValueOverCap(index, call.value, stored.valueCap);
        periodEnd = type(uint256).max;
        uint256 slot = _allowanceSlot[keccak256(abi.encode(stored.grant, call.target))];
        if (slot == 0) return (0, periodEnd);
        Allowance storage allowance = _allowances[key][slot - 1];
        periodStart = uint256(period) * allowance.period;
        periodEnd = periodStart + allowance.period;
        if (periodStart > type(uint48).max) revert SessionPeriodOutOfRange(call.target, period);
        uint256 amount = _erc20Amount(selector, call.data);
        if (amount == 0) return (periodStart, periodEnd);
        declared[slot - 1] = _add(declared[slot - 1], amount);
        uint256 spent = _add(_spent[keccak256(abi.encode(stored.grant, call.target, period))], declared[slot - 1]);
        if (spent > allowance.amount) revert SessionAllowanceExceeded(call.target, period, spent, allowance.amount);
    }

    /// @dev The op's `approve` calls on tokens with an allowance (one entry per token and spender), with
    /// each spender's allowance before the calls.
    function _approvals(uint256 grant, Call[] memory calls) private view returns (Approval[] memory approvals) {
        approvals = new Approval[](calls.length);
        uint256 count = 0;
        for (uint256 index = 0; index < calls.length; index++) {
            Call memory call = calls[index];
            if (call.data.length < 68 || bytes4(call.data) != ERC20_APPROVE) continue;
            if (_allowanceSlot[keccak256(abi.encode(grant, call.target))] == 0) continue;
            bytes memory data = call.data;
            address spender;
            assembly {
                spender := and(mload(add(data, 36)), 0xffffffffffffffffffffffffffffffffffffffff)
            }
            bool seen = false;
            for (uint256 other = 0; other < count; other++) {
                if (approvals[other].token == call.target && approvals[other].spender == spender) seen = true;
            }
            if (seen) continue;
            approvals[count++] = Approval({
                token: call.target,
                spender: spender,
                before: _tokenRead(call.target, abi.encodeWithSelector(ERC20_ALLOWANCE, address(this), spender))
            });
        }
        assembly {
            mstore(approvals, count)
        }
    }

    /// @dev Charges what left the account of `allowance.token` during a session op's calls (the balance's
    /// decrease, and the increase of the allowances its approvals gave) to this block's period.
    function _charge(
        uint256 grant,
        Allowance storage allowance,
        uint256 balanceBefore,
        Approval[] memory approvals
    ) private {
        address token = allowance.token;
        uint256 balanceAfter = _tokenRead(token, abi.encodeWithSelector(ERC20_BALANCE_OF, address(this)));
        uint256 out = balanceBefore > balanceAfter ? balanceBefore - balanceAfter : 0;
        for (uint256 index = 0; index < approvals.length; index++) {
            if (approvals[index].token != token) continue;
            uint256 allowed = _tokenRead(
                token,
                abi.encodeWithSelector(ERC20_ALLOWANCE, address(this), approvals[index].spender)
            );
            if (allowed > approvals[index].before) out = _add(out, allowed - approvals[index].before);
        }
        if (out == 0) return;
        uint48 period = uint48(block.timestamp / allowance.period);
        bytes32 spentSlot = keccak256(abi.encode(grant, token, period));
        uint256 spent = _add(_spent[spentSlot], out);
        if (spent > allowance.amount) revert SessionAllowanceExceeded(token, period, spent, allowance.amount);
        _spent[spentSlot] = spent;
    }

    /// @dev A token's `balanceOf`/`allowance` answer; a token that reverts or answers no word fails the op.
    function _tokenRead(address token, bytes memory data) private view returns (uint256) {
        (bool ok, bytes memory result) = token.staticcall(data);
        if (!ok || result.length < 32) revert ExecuteError(type(uint256).max, result);
        return abi.decode(result, (uint256));
    }

    /// @dev a + b, at most uint256's largest (an unlimited approval reads as over any allowance).
    function _add(uint256 a, uint256 b) private pure returns (uint256) {
        unchecked {
            uint256 sum = a + b;
            return sum < a ? type(uint256).max : sum;
        }
    }

    function _isSessionSignature(bytes calldata signature) private pure returns (bool) {
        return signature.length == SESSION_SIGNATURE_LENGTH && signature[0] == SESSION_SIGNATURE;
    }

    function _lockMetering() private {
        bytes32 slot = METERING_SLOT;
        uint256 locked;
        assembly {
            locked := tload(slot)
        }
        if (locked != 0) revert SessionReentered();
        assembly {
            tstore(slot, 1)
        }
    }

    function _unlockMetering() private {
        bytes32 slot = METERING_SLOT;
        assembly {
            tstore(slot, 0)
        }
    }

    /// @dev The amount an ERC-20 `transfer`, `approve` or `transferFrom` moves or allows (0 otherwise).
    function _erc20Amount(bytes4 selector, bytes memory data) private pure returns (uint256 amount) {
        if (selector == ERC20_TRANSFER || selector == ERC20_APPROVE) {
            if (data.length < 68) revert SessionNotACall(selector);
            assembly {
                amount := mload(add(data, 68))
            }
        } else if (selector == ERC20_TRANSFER_FROM) {
            if (data.length < 100) revert SessionNotACall(selector);
            assembly {
                amount := mload(add(data, 100))
            }
        }
    }

    /// @dev The calls of a session op's callData: `executeUserOp`'s selector, then an `execute` or
    /// `executeBatch` call, decoded as those functions decode it. A session op without the selector would
    /// run through `execute` unmeasured: refused.
    function _sessionCalls(bytes calldata userOpCallData) private pure returns (Call[] memory calls) {
        bytes4 outer = userOpCallData.length >= 4 ? bytes4(userOpCallData[:4]) : bytes4(0);
        if (outer != this.executeUserOp.selector) revert SessionNotACall(outer);
        bytes calldata callData = userOpCallData[4:];
        bytes4 selector = callData.length >= 4 ? bytes4(callData[:4]) : bytes4(0);
        if (selector == this.execute.selector) {
            calls = new Call[](1);
            (calls[0].target, calls[0].value, calls[0].data) = abi.decode(callData[4:], (address, uint256, bytes));
        } else if (selector == this.executeBatch.selector) {
            calls = abi.decode(callData[4:], (Call[]));
        } else {
            revert SessionNotACall(selector);
        }
        // An op with no call would only spend gas: fees paid for nothing, outside the call count.
        if (calls.length == 0) revert SessionNotACall(selector);
    }

    /// @dev The most the op may cost its account: all its gas limits at its maxFeePerGas.
    function _maxGasCost(PackedUserOperation calldata userOp) private pure returns (uint256) {
        uint256 limits = uint256(userOp.accountGasLimits);
        uint256 gas = (limits >> 128) + uint128(limits) + userOp.preVerificationGas;
        return gas * uint128(uint256(userOp.gasFees));
    }

    function _onlySelf() private view {
        if (msg.sender != address(this)) revert NotAllowed(msg.sender);
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
