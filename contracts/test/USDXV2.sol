// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {USDX} from "../USDX.sol";

/// @title USDXV2
/// @notice Test-only upgrade of USDX: adds a field in its own namespace, keeps every old one.
contract USDXV2 is USDX {
    /// @custom:storage-location erc7201:usdx.storage.USDXV2
    struct USDXV2Storage {
        string memo;
    }

    // keccak256(abi.encode(uint256(keccak256("usdx.storage.USDXV2")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant USDXV2_STORAGE_LOCATION =
        0xf9912200639bd449bdf80cf7a168c3b2c570f3a20c9e6bc083dea4f1489c4e00;

    /// @notice Runs once, on upgrade through upgradeToAndCall.
    /// @param memo_ A value the upgrade stores.
    function initializeV2(string calldata memo_) external reinitializer(2) {
        _getV2Storage().memo = memo_;
    }

    /// @notice The implementation's version.
    /// @return "2".
    function version() external pure returns (string memory) {
        return "2";
    }

    /// @notice The value stored by initializeV2.
    /// @return The memo.
    function memo() external view returns (string memory) {
        return _getV2Storage().memo;
    }

    function _getV2Storage() private pure returns (USDXV2Storage storage $) {
        // ERC-7201: the namespaced storage's slot can only be set in assembly.
        // solhint-disable-next-line no-inline-assembly
        assembly {
            $.slot := USDXV2_STORAGE_LOCATION
        }
    }
}
