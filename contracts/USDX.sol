// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IERC1967} from "@openzeppelin/contracts/interfaces/IERC1967.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {PausableUpgradeable} from "@openzeppelin/contracts-upgradeable/utils/PausableUpgradeable.sol";
import {NoncesUpgradeable} from "@openzeppelin/contracts-upgradeable/utils/NoncesUpgradeable.sol";
import {EIP712Upgradeable} from "@openzeppelin/contracts-upgradeable/utils/cryptography/EIP712Upgradeable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";

/**
 * @title USDX, the XFT Digital Dollar
 * @notice A dollar-pegged, rebasing, upgradeable ERC-20. Holders own shares; a balance is
 * `shares * rewardMultiplier / 1e18`, so raising the multiplier pays a reward to every holder
 * at once. Amounts in every external function, event and error are token amounts, never shares.
 * @dev Modelled on Mountain Protocol's USDM. Every movement of tokens (transfer, transferFrom,
 * mint, burn) goes through `_update`, so the blocklist and pause checks exist once. Conversions
 * round down both ways, in favour of the protocol. State lives in ERC-7201 namespaced storage.
 * No call can leave `totalSupply` or a `balanceOf` unreadable: a mint or a multiplier change that
 * would make `convertToTokens(totalShares)` exceed type(uint256).max reverts USDXSupplyOverflow
 * (every account holds at most totalShares, so that one bound covers every balance). A transfer
 * of an amount worth less than one share moves no share and still succeeds, emitting the amount
 * asked for, as USDM does.
 */
contract USDX is
    IERC20Metadata,
    IERC20Permit,
    IERC20Errors,
    IERC1967,
    AccessControlUpgradeable,
    PausableUpgradeable,
    NoncesUpgradeable,
    EIP712Upgradeable,
    UUPSUpgradeable
{
    /// @notice May mint tokens to any account.
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");
    /// @notice May burn tokens from any account that is not blocked.
    bytes32 public constant BURNER_ROLE = keccak256("BURNER_ROLE");
    /// @notice May block and unblock accounts.
    bytes32 public constant BLOCKLIST_ROLE = keccak256("BLOCKLIST_ROLE");
    /// @notice May set the reward multiplier or add to it.
    bytes32 public constant ORACLE_ROLE = keccak256("ORACLE_ROLE");
    /// @notice May upgrade the implementation behind the proxy.
    bytes32 public constant UPGRADE_ROLE = keccak256("UPGRADE_ROLE");
    /// @notice May pause and unpause every movement of tokens.
    bytes32 public constant PAUSE_ROLE = keccak256("PAUSE_ROLE");

    /// @dev The multiplier's fixed-point base: 1e18 is a multiplier of 1.0.
    uint256 private constant BASE = 1e18;

    // A compile-time constant: the string is hashed by the compiler and never stored.
    // solhint-disable gas-small-strings
    bytes32 private constant PERMIT_TYPEHASH = keccak256(
        "Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"
    );
    // solhint-enable gas-small-strings

    /// @custom:storage-location erc7201:usdx.storage.USDX
    struct USDXStorage {
        string name;
        string symbol;
        uint256 totalShares;
        uint256 rewardMultiplier;
        mapping(address account => uint256) shares;
        mapping(address account => bool) blocked;
        mapping(address owner => mapping(address spender => uint256)) allowances;
    }

    // keccak256(abi.encode(uint256(keccak256("usdx.storage.USDX")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant USDX_STORAGE_LOCATION = 0x2bda4f5999dc3bd4e7b7f2ae20c087e091e889b7fa2af55bdcf96437fa22b400;

    /// @notice The reward multiplier changed to `value` (1e18 = 1.0).
    /// @param value The new multiplier.
    event RewardMultiplier(uint256 indexed value);
    /// @notice `account` can no longer send tokens, nor be burned from.
    /// @param account The blocked account.
    event AccountBlocked(address indexed account);
    /// @notice `account` may send tokens again.
    /// @param account The unblocked account.
    event AccountUnblocked(address indexed account);

    /// @notice Tokens cannot move while the contract is paused.
    error USDXPausedTransfers();
    /// @notice `sender` is blocked: it cannot send tokens nor be burned from.
    error USDXBlockedSender(address sender);
    /// @notice Tokens cannot be minted to `receiver` (the zero address).
    error USDXInvalidMintReceiver(address receiver);
    /// @notice Tokens cannot be burned from `sender` (the zero address).
    error USDXInvalidBurnSender(address sender);
    /// @notice `sender` holds `balance` tokens, fewer than the `needed` to burn.
    error USDXInsufficientBurnBalance(address sender, uint256 balance, uint256 needed);
    /// @notice `rewardMultiplier` is not allowed: below 1.0 (1e18), or an increment of 0.
    error USDXInvalidRewardMultiplier(uint256 rewardMultiplier);
    /**
     * @notice The call would leave `totalShares + mintedShares` shares at a multiplier of
     * `rewardMultiplier`, worth more than type(uint256).max tokens: totalSupply and balanceOf
     * could no longer be read. From a mint: the shares before it, the shares it would add (their
     * sum may itself pass type(uint256).max) and the current multiplier. From setRewardMultiplier
     * or addRewardMultiplier: the shares in existence, 0, and the multiplier asked for.
     */
    error USDXSupplyOverflow(uint256 totalShares, uint256 mintedShares, uint256 rewardMultiplier);
    /// @notice Adding `increment` to the multiplier `rewardMultiplier` would pass type(uint256).max.
    error USDXRewardMultiplierOverflow(uint256 rewardMultiplier, uint256 increment);
    /// @notice `account` is already blocked (when blocking) or not blocked (when unblocking).
    error USDXInvalidBlockedAccount(address account);
    /// @notice The initial owner may not be the zero address.
    error USDXInvalidOwner(address owner);
    /// @notice The permit's `deadline` has passed (block time `blockTimestamp`).
    error ERC2612ExpiredDeadline(uint256 deadline, uint256 blockTimestamp);
    /// @notice The permit was not signed by `owner` for `spender` with the current nonce.
    error ERC2612InvalidSignature(address owner, address spender);

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    /**
     * @notice Sets up the token behind its proxy: name, symbol, a multiplier of 1.0, and
     * `owner` as the holder of DEFAULT_ADMIN_ROLE, who grants every other role.
     * @dev Public, not external, so that an upgraded implementation can inherit it.
     * @param name_ The token's name ('XFT Digital Dollar').
     * @param symbol_ The token's symbol ('USDX').
     * @param owner The first admin.
     */
    function initialize(string memory name_, string memory symbol_, address owner) public initializer {
        if (owner == address(0)) revert USDXInvalidOwner(owner);
        __AccessControl_init();
        __Pausable_init();
        __Nonces_init();
        __EIP712_init(name_, "1");

        USDXStorage storage $ = _getUSDXStorage();
        $.name = name_;
        $.symbol = symbol_;
        _setRewardMultiplier(BASE);
        _grantRole(DEFAULT_ADMIN_ROLE, owner);
    }

    // ---------------------------------------------------------------- ERC-20 metadata and reads

    /// @notice The token's name.
    /// @return The name set at initialisation.
    function name() external view returns (string memory) {
        return _getUSDXStorage().name;
    }

    /// @notice The token's symbol.
    /// @return The symbol set at initialisation.
    function symbol() external view returns (string memory) {
        return _getUSDXStorage().symbol;
    }

    /// @notice The number of decimals of a token amount.
    /// @return Always 18.
    function decimals() external pure returns (uint8) {
        return 18;
    }

    /// @notice Tokens in existence: all shares valued at the current multiplier.
    /// @return `convertToTokens(totalShares())`.
    function totalSupply() external view returns (uint256) {
        return convertToTokens(_getUSDXStorage().totalShares);
    }

    /// @notice Shares in existence.
    /// @return The sum of every account's shares.
    function totalShares() external view returns (uint256) {
        return _getUSDXStorage().totalShares;
    }

    /// @notice The tokens `account` holds: its shares valued at the current multiplier.
    /// @param account The holder.
    /// @return `convertToTokens(sharesOf(account))`.
    function balanceOf(address account) external view returns (uint256) {
        return convertToTokens(_getUSDXStorage().shares[account]);
    }

    /// @notice The shares `account` holds.
    /// @param account The holder.
    /// @return The holder's shares.
    function sharesOf(address account) external view returns (uint256) {
        return _getUSDXStorage().shares[account];
    }

    /// @notice The shares worth `amount` tokens at the current multiplier, rounded down.
    /// @param amount A token amount.
    /// @return `amount * 1e18 / rewardMultiplier`.
    function convertToShares(uint256 amount) public view returns (uint256) {
        return Math.mulDiv(amount, BASE, _getUSDXStorage().rewardMultiplier);
    }

    /// @notice The tokens that `shares` are worth at the current multiplier, rounded down.
    /// @dev Reverts (Math.mulDiv's Panic) only when the result passes type(uint256).max, which
    /// mint and the multiplier setters keep from happening for totalShares and every balance.
    /// @param shares A number of shares.
    /// @return `shares * rewardMultiplier / 1e18`.
    function convertToTokens(uint256 shares) public view returns (uint256) {
        return Math.mulDiv(shares, _getUSDXStorage().rewardMultiplier, BASE);
    }

    /// @notice The value of one share in tokens, scaled by 1e18 (1e18 = 1.0).
    /// @return The current reward multiplier.
    function rewardMultiplier() external view returns (uint256) {
        return _getUSDXStorage().rewardMultiplier;
    }

    /// @notice Whether `account` is blocked from sending tokens.
    /// @param account The account to check.
    /// @return True when blocked.
    function isBlocked(address account) external view returns (bool) {
        return _getUSDXStorage().blocked[account];
    }

    /// @notice The tokens `spender` may still move from `owner`'s balance.
    /// @param owner The holder.
    /// @param spender The account allowed to spend.
    /// @return The allowance, in tokens.
    function allowance(address owner, address spender) public view returns (uint256) {
        return _getUSDXStorage().allowances[owner][spender];
    }

    // ---------------------------------------------------------------- ERC-20 writes

    /**
     * @notice Sends `amount` tokens from the caller to `to`.
     * @dev Reverts USDXBlockedSender, USDXPausedTransfers, ERC20InvalidReceiver or ERC20InsufficientBalance.
     * @param to The receiver (any account but the zero address; receivers are not checked against the blocklist).
     * @param amount The token amount.
     * @return True.
     */
    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(_msgSender(), to, amount);
        return true;
    }

    /**
     * @notice Sends `amount` tokens from `from` to `to`, spending the caller's allowance.
     * @dev An allowance of type(uint256).max is never spent. Spending emits no Approval event
     * (as in OpenZeppelin 5), which keeps batch payments cheap.
     * @param from The holder whose tokens move.
     * @param to The receiver.
     * @param amount The token amount.
     * @return True.
     */
    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        // Tokens first, allowance second: the zero-address, blocklist, pause and balance checks
        // all live in _transfer, and a revert of either undoes both.
        _transfer(from, to, amount);
        _spendAllowance(from, _msgSender(), amount);
        return true;
    }

    /**
     * @notice Lets `spender` move up to `amount` of the caller's tokens, replacing any earlier allowance.
     * @dev Allowed while paused and for blocked accounts: an approval moves no tokens.
     * @param spender The account allowed to spend.
     * @param amount The allowance, in tokens.
     * @return True.
     */
    function approve(address spender, uint256 amount) external returns (bool) {
        _approve(_msgSender(), spender, amount, true);
        return true;
    }

    /**
     * @notice Raises the allowance the caller gives `spender` by `addedValue`.
     * @param spender The account allowed to spend.
     * @param addedValue Tokens to add to the allowance.
     * @return True.
     */
    function increaseAllowance(address spender, uint256 addedValue) external returns (bool) {
        address owner = _msgSender();
        _approve(owner, spender, allowance(owner, spender) + addedValue, true);
        return true;
    }

    /**
     * @notice Lowers the allowance the caller gives `spender` by `subtractedValue`.
     * @dev Reverts ERC20InsufficientAllowance when the allowance is smaller than `subtractedValue`.
     * @param spender The account allowed to spend.
     * @param subtractedValue Tokens to take off the allowance.
     * @return True.
     */
    function decreaseAllowance(address spender, uint256 subtractedValue) external returns (bool) {
        address owner = _msgSender();
        uint256 current = allowance(owner, spender);
        if (current < subtractedValue) revert ERC20InsufficientAllowance(spender, current, subtractedValue);
        unchecked {
            _approve(owner, spender, current - subtractedValue, true);
        }
        return true;
    }

    // ---------------------------------------------------------------- EIP-2612 permit

    /**
     * @notice Sets `spender`'s allowance over `owner`'s tokens to `value` with `owner`'s EIP-712
     * signature, so the owner need not send a transaction.
     * @dev Reverts ERC2612ExpiredDeadline after `deadline`, ERC2612InvalidSignature when the
     * signature is not `owner`'s for these values and the current nonce (so a permit works once).
     * @param owner The holder granting the allowance.
     * @param spender The account allowed to spend.
     * @param value The allowance, in tokens.
     * @param deadline The last block timestamp at which the permit is valid.
     * @param v Signature recovery byte.
     * @param r Signature r.
     * @param s Signature s.
     */
    function permit(
        address owner,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        if (block.timestamp > deadline) revert ERC2612ExpiredDeadline(deadline, block.timestamp);

        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, _useNonce(owner), deadline));
        // tryRecover yields the zero address for any malformed signature; it then matches no owner
        // but the zero address, which _approve refuses (ERC20InvalidApprover).
        (address signer, , ) = ECDSA.tryRecover(_hashTypedDataV4(structHash), v, r, s);
        if (signer != owner) revert ERC2612InvalidSignature(owner, spender);

        _approve(owner, spender, value, true);
    }

    /// @notice The next permit nonce of `owner`.
    /// @param owner The holder.
    /// @return The nonce a new permit must sign.
    function nonces(address owner) public view override(IERC20Permit, NoncesUpgradeable) returns (uint256) {
        return super.nonces(owner);
    }

    // solhint-disable func-name-mixedcase
    /// @notice The EIP-712 domain separator permits are signed under.
    /// @return The domain separator for this chain and proxy.
    /// @dev Named by EIP-2612, not by our naming rule.
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }
    // solhint-enable func-name-mixedcase

    // ---------------------------------------------------------------- Role-gated operations

    /**
     * @notice Creates `amount` tokens for `to`. Requires MINTER_ROLE.
     * @dev Reverts USDXInvalidMintReceiver for the zero address, USDXPausedTransfers while paused,
     * USDXSupplyOverflow when the total supply would pass type(uint256).max tokens.
     * @param to The receiver.
     * @param amount The token amount.
     */
    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        if (to == address(0)) revert USDXInvalidMintReceiver(to);
        _update(address(0), to, amount);
    }

    /**
     * @notice Destroys `amount` tokens held by `from`. Requires BURNER_ROLE.
     * @dev Reverts USDXInvalidBurnSender for the zero address, USDXBlockedSender for a blocked
     * account, USDXPausedTransfers while paused, USDXInsufficientBurnBalance above the balance.
     * @param from The holder.
     * @param amount The token amount.
     */
    function burn(address from, uint256 amount) external onlyRole(BURNER_ROLE) {
        if (from == address(0)) revert USDXInvalidBurnSender(from);
        _update(from, address(0), amount);
    }

    /**
     * @notice Blocks `account`: it can no longer send tokens, nor be burned from. Requires BLOCKLIST_ROLE.
     * @param account The account to block (reverts USDXInvalidBlockedAccount if already blocked).
     */
    function blockAccount(address account) external onlyRole(BLOCKLIST_ROLE) {
        _setBlocked(account, true);
    }

    /**
     * @notice Unblocks `account`. Requires BLOCKLIST_ROLE.
     * @param account The account to unblock (reverts USDXInvalidBlockedAccount if not blocked).
     */
    function unblockAccount(address account) external onlyRole(BLOCKLIST_ROLE) {
        _setBlocked(account, false);
    }

    /**
     * @notice Blocks every account in `accounts`, all or none. Requires BLOCKLIST_ROLE.
     * @param accounts The accounts to block (a repeated or already blocked one reverts the call).
     */
    function blockAccounts(address[] calldata accounts) external onlyRole(BLOCKLIST_ROLE) {
        for (uint256 i = 0; i < accounts.length; ++i) {
            _setBlocked(accounts[i], true);
        }
    }

    /**
     * @notice Unblocks every account in `accounts`, all or none. Requires BLOCKLIST_ROLE.
     * @param accounts The accounts to unblock (a repeated or unblocked one reverts the call).
     */
    function unblockAccounts(address[] calldata accounts) external onlyRole(BLOCKLIST_ROLE) {
        for (uint256 i = 0; i < accounts.length; ++i) {
            _setBlocked(accounts[i], false);
        }
    }

    /// @notice Stops every transfer, mint and burn until unpaused. Requires PAUSE_ROLE.
    /// @dev Reverts EnforcedPause when already paused.
    function pause() external onlyRole(PAUSE_ROLE) {
        _pause();
    }

    /// @notice Lets tokens move again. Requires PAUSE_ROLE.
    /// @dev Reverts ExpectedPause when not paused.
    function unpause() external onlyRole(PAUSE_ROLE) {
        _unpause();
    }

    /**
     * @notice Sets the reward multiplier to `value` (1e18 = 1.0). Requires ORACLE_ROLE.
     * @dev Reverts USDXSupplyOverflow when the shares in existence would be worth more than
     * type(uint256).max tokens at `value`. With no shares, any value from 1.0 up is accepted.
     * @param value The new multiplier; below 1e18 reverts USDXInvalidRewardMultiplier.
     */
    function setRewardMultiplier(uint256 value) external onlyRole(ORACLE_ROLE) {
        _setRewardMultiplier(value);
    }

    /**
     * @notice Adds `increment` to the reward multiplier. Requires ORACLE_ROLE.
     * @dev Reverts USDXRewardMultiplierOverflow when the sum passes type(uint256).max, and
     * USDXSupplyOverflow as setRewardMultiplier does.
     * @param increment The amount to add (1e16 = 0.01); 0 reverts USDXInvalidRewardMultiplier.
     */
    function addRewardMultiplier(uint256 increment) external onlyRole(ORACLE_ROLE) {
        if (increment == 0) revert USDXInvalidRewardMultiplier(increment);
        uint256 current = _getUSDXStorage().rewardMultiplier;
        (bool fits, uint256 value) = Math.tryAdd(current, increment);
        if (!fits) revert USDXRewardMultiplierOverflow(current, increment);
        _setRewardMultiplier(value);
    }

    /**
     * @notice Points the proxy at `newImplementation`. Requires UPGRADE_ROLE.
     * @dev Kept beside OpenZeppelin 5's upgradeToAndCall for tools and scripts that call upgradeTo.
     * @param newImplementation A UUPS implementation.
     */
    function upgradeTo(address newImplementation) external {
        upgradeToAndCall(newImplementation, "");
    }

    // ---------------------------------------------------------------- Internals

    function _getUSDXStorage() private pure returns (USDXStorage storage $) {
        // ERC-7201: the namespaced storage's slot can only be set in assembly.
        // solhint-disable-next-line no-inline-assembly
        assembly {
            $.slot := USDX_STORAGE_LOCATION
        }
    }

    // The role check is the whole authorisation: an empty body once the modifier has passed.
    // solhint-disable-next-line no-empty-blocks
    function _authorizeUpgrade(address) internal override onlyRole(UPGRADE_ROLE) {}

    function _transfer(address from, address to, uint256 amount) private {
        if (from == address(0)) revert ERC20InvalidSender(from);
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        _update(from, to, amount);
    }

    /**
     * @dev The one path for every movement of tokens: `from` zero mints, `to` zero burns.
     * Order of checks: the sender's blocklist entry, the pause, then the balance (or, for a mint,
     * the supply bound). Reported balances are in tokens, like every amount the contract shows.
     * An amount worth less than one share moves 0 shares and still emits Transfer with `amount`.
     */
    function _update(address from, address to, uint256 amount) private {
        USDXStorage storage $ = _getUSDXStorage();
        if (from != address(0) && $.blocked[from]) revert USDXBlockedSender(from);
        if (paused()) revert USDXPausedTransfers();

        uint256 shares = convertToShares(amount);
        if (from == address(0)) {
            uint256 totalBefore = $.totalShares;
            (bool fits, uint256 totalAfter) = Math.tryAdd(totalBefore, shares);
            if (!fits || !_isReadable(totalAfter, $.rewardMultiplier)) {
                revert USDXSupplyOverflow(totalBefore, shares, $.rewardMultiplier);
            }
            $.totalShares = totalAfter;
        } else {
            uint256 fromShares = $.shares[from];
            if (fromShares < shares) {
                uint256 balance = convertToTokens(fromShares);
                if (to == address(0)) revert USDXInsufficientBurnBalance(from, balance, amount);
                revert ERC20InsufficientBalance(from, balance, amount);
            }
            unchecked {
                $.shares[from] = fromShares - shares;
            }
        }

        // Cannot overflow: every account's shares are at most totalShares, checked on mint.
        unchecked {
            if (to == address(0)) {
                $.totalShares -= shares;
            } else {
                $.shares[to] += shares;
            }
        }
        emit Transfer(from, to, amount);
    }

    function _approve(address owner, address spender, uint256 amount, bool emitEvent) private {
        if (owner == address(0)) revert ERC20InvalidApprover(owner);
        if (spender == address(0)) revert ERC20InvalidSpender(spender);
        _getUSDXStorage().allowances[owner][spender] = amount;
        if (emitEvent) emit Approval(owner, spender, amount);
    }

    function _spendAllowance(address owner, address spender, uint256 amount) private {
        uint256 current = allowance(owner, spender);
        if (current != type(uint256).max) {
            if (current < amount) revert ERC20InsufficientAllowance(spender, current, amount);
            unchecked {
                _approve(owner, spender, current - amount, false);
            }
        }
    }

    function _setBlocked(address account, bool blocked) private {
        USDXStorage storage $ = _getUSDXStorage();
        if ($.blocked[account] == blocked) revert USDXInvalidBlockedAccount(account);
        $.blocked[account] = blocked;
        if (blocked) emit AccountBlocked(account);
        else emit AccountUnblocked(account);
    }

    function _setRewardMultiplier(uint256 value) private {
        if (value < BASE) revert USDXInvalidRewardMultiplier(value);
        USDXStorage storage $ = _getUSDXStorage();
        uint256 shares = $.totalShares;
        if (!_isReadable(shares, value)) revert USDXSupplyOverflow(shares, 0, value);
        $.rewardMultiplier = value;
        emit RewardMultiplier(value);
    }

    /**
     * @dev Whether `shares` at `multiplier` are worth at most type(uint256).max tokens, that is,
     * whether `convertToTokens(shares)` at that multiplier returns. The bound is exact, not
     * conservative: Math.mulDiv(shares, multiplier, BASE) reverts exactly when the 512-bit product
     * `shares * multiplier` is at least BASE * 2^256, which is when the product's high word is at
     * least BASE. So a holding of `shares` is readable iff `shares * multiplier < 2^256 * 1e18`.
     */
    function _isReadable(uint256 shares, uint256 multiplier) private pure returns (bool) {
        (uint256 high, ) = Math.mul512(shares, multiplier);
        return high < BASE;
    }
}
