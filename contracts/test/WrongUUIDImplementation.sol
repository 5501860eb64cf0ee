// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Test-only "implementation" that claims a proxiable UUID other than the ERC-1967 slot,
/// so an upgrade to it must revert UUPSUnsupportedProxiableUUID.
contract WrongUUIDImplementation {
    function proxiableUUID() external pure returns (bytes32) {
        return bytes32(uint256(1));
    }
}
