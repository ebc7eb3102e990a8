// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The two functions of the Multicall3 interface the modal uses (aggregate3 and getEthBalance),
/// placed by the local market at Multicall3's usual address, so balances are read the same way on the
/// local chain as on public networks.
contract DevMulticall {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory returnData) = calls[i].target.call(calls[i].callData);
            require(success || calls[i].allowFailure, "DevMulticall: call failed");
            results[i] = Result(success, returnData);
        }
    }

    function getEthBalance(address account) external view returns (uint256) {
        return account.balance;
    }
}
