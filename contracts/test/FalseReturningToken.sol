// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Test-only token whose transferFrom returns false instead of reverting, as some
/// non-standard ERC-20 tokens do; BatchPayments must treat that as a failure.
contract FalseReturningToken {
    function transferFrom(address, address, uint256) external pure returns (bool) {
        return false;
    }

    function allowance(address, address) external pure returns (uint256) {
        return type(uint256).max;
    }
}
