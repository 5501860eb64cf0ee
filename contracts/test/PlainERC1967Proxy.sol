// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";

/// @title PlainERC1967Proxy
/// @notice Test-only ERC-1967 proxy in front of any implementation, deployed without
/// hardhat-upgrades: `usdx adopt` is shown a proxy in front of another contract (it must refuse),
/// and a USDX proxy its deployer made without a BatchPayments next to it.
contract PlainERC1967Proxy is ERC1967Proxy {
    /// @notice Points the proxy at `implementation` and runs `data` on it, as ERC1967Proxy does.
    /// @param implementation The contract behind the proxy.
    /// @param data The initialising call.
    constructor(address implementation, bytes memory data) ERC1967Proxy(implementation, data) {} // solhint-disable-line no-empty-blocks
}
