// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {USDX} from "../USDX.sol";

/// @title USDXV2Unsafe
/// @notice Test-only upgrade that hardhat-upgrades must reject: a state variable with an initial
/// value (set in the implementation's constructor, never in the proxy's storage) and a delegatecall.
contract USDXV2Unsafe is USDX {
    /// @notice A state variable with an initial value: unsafe behind a proxy, on purpose.
    uint256 public feeBasisPoints = 25;

    /// @notice An arbitrary delegatecall: it could selfdestruct or overwrite the proxy's storage.
    /// @param target The contract to run in this contract's context.
    /// @param data The call.
    function execute(address target, bytes calldata data) external returns (bytes memory) {
        // The unsafe delegatecall this contract exists to show (hardhat-upgrades must refuse it).
        // solhint-disable-next-line avoid-low-level-calls
        (bool ok, bytes memory result) = target.delegatecall(data);
        require(ok, "delegatecall failed"); // solhint-disable-line gas-custom-errors
        return result;
    }
}
