// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";

/**
 * @title BatchPayments
 * @notice Pays many recipients different amounts of one token in a single transaction, straight
 * from the caller's balance to each recipient. It holds no tokens and no funds, has no owner and
 * no admin: every payment is a `transferFrom(payer, recipient, amount)` under the payer's own
 * allowance, so whatever the token refuses (pause, blocklist, balance) reverts the whole chunk.
 * @dev The dashboard splits a CSV of payments into chunks that fit a block; the payer signs one
 * EIP-2612 permit for the job's total and sends one transaction per chunk. `paymentRef` ties a
 * transaction to the server's batch job and chunk.
 */
contract BatchPayments {
    /// @notice The token every payment is made in (the USDX proxy).
    /// @dev Named as the ABI's getter `token()`, which the dashboard and server call.
    IERC20 public immutable token; // solhint-disable-line immutable-vars-naming

    /// @notice `payer` paid `recipientCount` recipients `total` tokens in all, for `paymentRef`.
    /// @param paymentRef The server's batch job and chunk the payment belongs to.
    /// @param payer Who paid.
    /// @param recipientCount How many recipients were paid.
    /// @param total The sum paid.
    /// @dev The counts stay unindexed: logs are found by paymentRef and payer, never by a sum.
    event BatchPaid(bytes32 indexed paymentRef, address indexed payer, uint256 recipientCount, uint256 total); // solhint-disable-line gas-indexed-events

    /// @notice The list of recipients is empty.
    error BatchPaymentsEmpty();
    /// @notice `recipients` addresses were given with `amounts` amounts: they must pair up.
    error BatchPaymentsLengthMismatch(uint256 recipients, uint256 amounts);
    /// @notice The recipient at `index` is the zero address.
    error BatchPaymentsZeroAddress(uint256 index);
    /// @notice The amount at `index` is zero.
    error BatchPaymentsZeroAmount(uint256 index);
    /// @notice The token given at deployment is the zero address.
    error BatchPaymentsInvalidToken();
    /// @notice The token returned false for the payment at `index` instead of reverting.
    error BatchPaymentsTransferFailed(uint256 index);

    /// @notice Binds the contract to the one token it pays in.
    /// @param token_ The token to pay in.
    constructor(IERC20 token_) {
        if (address(token_) == address(0)) revert BatchPaymentsInvalidToken();
        token = token_;
    }

    /**
     * @notice Pays `amounts[i]` tokens from the caller to `recipients[i]`, for every i, all or none.
     * @dev Needs an allowance to this contract of at least the sum of `amounts`.
     * @param recipients The receivers, in CSV order.
     * @param amounts Each receiver's token amount.
     * @param paymentRef A caller-chosen tag (the server's job and chunk), repeated in BatchPaid.
     * @return total The sum of `amounts`.
     */
    function pay(
        address[] calldata recipients,
        uint256[] calldata amounts,
        bytes32 paymentRef
    ) external returns (uint256 total) {
        return _pay(recipients, amounts, paymentRef);
    }

    /**
     * @notice Like `pay`, after setting this contract's allowance from the caller with an EIP-2612
     * permit, so the payer signs once for a whole job and sends no approval transaction.
     * @dev If the permit was already used (someone relayed it first) but the allowance is in place,
     * payment goes ahead; otherwise the token's permit error (expired, bad signature) is raised.
     * @param recipients The receivers, in CSV order.
     * @param amounts Each receiver's token amount.
     * @param paymentRef A caller-chosen tag, repeated in BatchPaid.
     * @param permitValue The allowance the permit grants (the job's total, for all its chunks).
     * @param deadline The permit's deadline.
     * @param v Permit signature recovery byte.
     * @param r Permit signature r.
     * @param s Permit signature s.
     * @return total The sum of `amounts`.
     */
    function payWithPermit(
        address[] calldata recipients,
        uint256[] calldata amounts,
        bytes32 paymentRef,
        uint256 permitValue,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external returns (uint256 total) {
        // A permit already used (front-run from the mempool) reverts, yet leaves the allowance it
        // set: then there is nothing to do here, and the payment goes on.
        // solhint-disable-next-line no-empty-blocks
        try IERC20Permit(address(token)).permit(msg.sender, address(this), permitValue, deadline, v, r, s) {
            // allowance set
        } catch (bytes memory reason) {
            if (token.allowance(msg.sender, address(this)) < permitValue) {
                // The permit's own revert, bubbled up unchanged (its custom error and arguments).
                // solhint-disable-next-line no-inline-assembly
                assembly {
                    revert(add(reason, 32), mload(reason))
                }
            }
        }
        return _pay(recipients, amounts, paymentRef);
    }

    function _pay(
        address[] calldata recipients,
        uint256[] calldata amounts,
        bytes32 paymentRef
    ) private returns (uint256 total) {
        uint256 count = recipients.length;
        if (count == 0) revert BatchPaymentsEmpty();
        if (count != amounts.length) revert BatchPaymentsLengthMismatch(count, amounts.length);

        IERC20 token_ = token;
        for (uint256 i = 0; i < count; ++i) {
            address recipient = recipients[i];
            uint256 amount = amounts[i];
            if (recipient == address(0)) revert BatchPaymentsZeroAddress(i);
            if (amount == 0) revert BatchPaymentsZeroAmount(i);
            total += amount;
            // USDX reverts with its own error; the check guards tokens that return false instead.
            if (!token_.transferFrom(msg.sender, recipient, amount)) revert BatchPaymentsTransferFailed(i);
        }
        emit BatchPaid(paymentRef, msg.sender, count, total);
    }
}
