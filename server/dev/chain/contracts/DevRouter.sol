// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @notice A router-like contract for the tests of session limits: what a swap router, or any contract
/// an account once approved, can do with the account's funds when a session may call it. It swaps
/// nothing: what it takes goes to whoever the caller names, and nothing comes back.
contract DevRouter {
    /// @notice Swap-like, with Uniswap V2's signature: takes `amountIn` of `path[0]` from the caller
    /// under the caller's earlier approval and sends it to `to`.
    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256,
        address[] calldata path,
        address to,
        uint256
    ) external returns (uint256[] memory amounts) {
        require(IERC20(path[0]).transferFrom(msg.sender, to, amountIn), "DevRouter: transferFrom failed");
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
    }

    /// @notice Takes `amount` of `token` from `from` to `to` under an approval `from` gave this contract;
    /// anyone may trigger it (as a careless or hostile spender lets them).
    function pull(address token, address from, address to, uint256 amount) external {
        require(IERC20(token).transferFrom(from, to, amount), "DevRouter: transferFrom failed");
    }

    /// @notice Makes a call to another contract (a router's hook), with the ether it was sent.
    function relay(address target, bytes calldata data) external payable {
        (bool ok, bytes memory result) = target.call{value: msg.value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }

    /// @notice Sends the ether it is sent on to `to`.
    function forward(address payable to) external payable {
        (bool ok, ) = to.call{value: msg.value}("");
        require(ok, "DevRouter: forward failed");
    }
}
