// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title WrongUUIDImplementation
/// @notice Test-only "implementation" that claims a proxiable UUID other than the ERC-1967 slot,
/// so an upgrade to it must revert UUPSUnsupportedProxiableUUID.
contract WrongUUIDImplementation {
    /// @notice A UUID that is not ERC-1967's implementation slot.
    /// @return The wrong UUID.
    function proxiableUUID() external pure returns (bytes32) {
        return bytes32(uint256(1));
    }
}
