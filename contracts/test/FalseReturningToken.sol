// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title FalseReturningToken
/// @notice Test-only token whose transferFrom returns false instead of reverting, as some
/// non-standard ERC-20 tokens do; BatchPayments must treat that as a failure.
contract FalseReturningToken {
    /// @notice Refuses every transfer by returning false.
    /// @return Always false.
    function transferFrom(address, address, uint256) external pure returns (bool) {
        return false;
    }

    /// @notice Claims an unlimited allowance, so the permit step passes and the transfer is tried.
    /// @return The largest allowance.
    function allowance(address, address) external pure returns (uint256) {
        return type(uint256).max;
    }
}
