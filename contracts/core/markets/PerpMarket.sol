// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IPerpMarket} from "../../interfaces/markets/IPerpMarket.sol";
import {ILiquidatableMarket} from "../../interfaces/callback/ILiquidatableMarket.sol";
import {IVaultMarket} from "../../interfaces/callback/IVaultMarket.sol";
import {IKeeperChecker, IKeeperUpkeep} from "../../interfaces/keepers/IKeeperCompatible.sol";
import {IMarketAccountRisk} from "../../interfaces/callback/IMarketAccountRisk.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {PerpMath} from "../../libraries/PerpMath.sol";
import {DelayedOrders} from "../../libraries/DelayedOrders.sol";
import {PerpOrders} from "../../libraries/PerpOrders.sol";
import {PerpTrading} from "../../libraries/PerpTrading.sol";
import {PerpFunding} from "../../libraries/perps/PerpFunding.sol";
import {PerpLpClaims} from "../../libraries/perps/PerpLpClaims.sol";

/// @title PerpMarket
/// @notice The CH perpetual against the LiquidityVault. See IPerpMarket.
/// @dev Storage, access and entry points; mechanisms in linked libraries on storage pointers: PerpTrading (execution,
///      fills), PerpFunding (poke, settlement, liquidation hook), PerpLpClaims (the LPs' claim), PerpOrders (order
///      intake, expiry, discovery on the DelayedOrders book). No function loops over accounts (MKT-03).
/// @custom:oz-upgrades-unsafe-allow external-library-linking constructor state-variable-immutable
contract PerpMarket is ChxUpgradeable, IPerpMarket {
    using SafeERC20 for IERC20;

    /// @notice Pause flag of risk-increasing orders (reductions and closes are never paused here, SEC-05).
    bytes32 public constant FEATURE_TRADE = keccak256("perp.trade");
    /// @notice Upper bound on maker and taker fees (1 %).
    uint256 public constant MAX_FEE_BPS = 100;
    uint256 internal constant BPS = 10_000;
    /// @notice Poke bounties' runway kept in the pool while positions are open (keeper credits stay payable).
    uint256 public constant BOUNTY_RUNWAY_SEC = PerpTrading.BOUNTY_RUNWAY_SEC;
    /// @notice Upper bound on the execution fee of an order (50 USDC).
    uint256 public constant MAX_EXECUTION_FEE_USDC = 50e6;
    /// @notice Gas left before a fill, so a fill starved of gas reverts whole instead of cancelling the order.
    uint256 public constant MIN_EXECUTION_GAS = PerpTrading.MIN_EXECUTION_GAS;
    /// @notice Pending orders `checker()` scans at most.
    uint256 public constant ORDER_SCAN = 32;

    /// @dev The ClearingHouse and the index oracle as implementation immutables (upgrades: `implementationArgs`).
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IClearingHouse private immutable CLEARING_HOUSE;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IComputePriceOracle private immutable ORACLE;

    /// @custom:storage-location erc7201:chx.storage.PerpMarket
    struct PerpMarketStorage {
        /// @dev unused since the implementation immutables (kept for the layout)
        IClearingHouse clearingHouse;
        /// @dev unused since the implementation immutables (kept for the layout)
        IComputePriceOracle oracle;
        address vault;
        IERC20 usdc;
        address burnSink;
        PerpParams params;
        PerpTrading.Market m;
        mapping(address keeper => uint256 usdc) keeperBounty;
        DelayedOrders.Book orders;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.PerpMarket")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant PERP_MARKET_STORAGE_LOCATION =
        0x9f0afcf6a4720240dc640b33dcedffc4d84499982519bdfc22b501382cc08f00;

    function _getPerpMarketStorage() private pure returns (PerpMarketStorage storage $) {
        assembly {
            $.slot := PERP_MARKET_STORAGE_LOCATION
        }
    }

    /// @notice The implementation, bound to its ClearingHouse and index oracle (immutables).
    /// @param clearingHouse_ The ClearingHouse.
    /// @param oracle_ The CH index oracle.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(address clearingHouse_, address oracle_) {
        if (clearingHouse_ == address(0) || oracle_ == address(0)) revert ChxZeroAddress();
        CLEARING_HOUSE = IClearingHouse(clearingHouse_);
        ORACLE = IComputePriceOracle(oracle_);
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param clearingHouse The ClearingHouse (this market must be registered there and hold Roles.MARKET); must be
    ///        the implementation's (else PerpModuleMismatch).
    /// @param oracle The CH index oracle; must be the implementation's (else PerpModuleMismatch).
    /// @param vault The LiquidityVault backing this market.
    /// @param burnSink Receives the USDC burn reserve.
    /// @param params_ Initial parameters.
    function initialize(
        address authority,
        address clearingHouse,
        address oracle,
        address vault,
        address burnSink,
        PerpParams calldata params_
    ) external initializer {
        __ChxUpgradeable_init(authority);
        if (clearingHouse == address(0) || oracle == address(0) || vault == address(0) || burnSink == address(0)) {
            revert ChxZeroAddress();
        }
        if (clearingHouse != address(CLEARING_HOUSE)) revert PerpModuleMismatch(clearingHouse, address(CLEARING_HOUSE));
        if (oracle != address(ORACLE)) revert PerpModuleMismatch(oracle, address(ORACLE));
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        $.vault = vault;
        (address usdc, , , , , ) = IClearingHouse(clearingHouse).modules();
        $.usdc = IERC20(usdc);
        $.burnSink = burnSink;
        $.m.funding.lastTime = uint40(block.timestamp);
        _setParams($, params_);
        emit BurnSinkSet(burnSink);
    }

    // ───────────────────────────── orders ─────────────────────────────

    /// @inheritdoc IPerpMarket
    function commitOrder(int256 sizeDeltaCh, uint256 acceptablePriceWad) external nonReentrant returns (uint256) {
        if (sizeDeltaCh == 0) revert PerpZeroSize();
        return _commit(msg.sender, sizeDeltaCh, acceptablePriceWad, false);
    }

    /// @inheritdoc IPerpMarket
    function closePosition(uint256 acceptablePriceWad) external nonReentrant returns (uint256) {
        int256 size = _getPerpMarketStorage().m.accounts[msg.sender].sizeCh;
        if (size == 0) revert PerpNoPosition(msg.sender);
        return _commit(msg.sender, -size, acceptablePriceWad, true);
    }

    /// @dev New risk is checked against the pause flag here, the rest in PerpOrders.commit.
    function _commit(address account, int256 delta, uint256 limit, bool closeAll) private returns (uint256 t) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        int256 oldSize = $.m.accounts[account].sizeCh;
        bool increasing = PerpTrading.increasing(oldSize, oldSize + delta);
        if (increasing) _requireActive(FEATURE_TRADE);
        (, t) = PerpOrders.commit(
            $.orders,
            $.params,
            PerpOrders.CommitArgs(CLEARING_HOUSE, ORACLE, account, oldSize, delta, limit, closeAll, increasing)
        );
    }

    /// @inheritdoc IPerpMarket
    function executeOrder(address account, uint80 roundId) external nonReentrant {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        _creditExecutor($, PerpTrading.execute($.orders, ORACLE, $.params, account, roundId));
    }

    /// @inheritdoc IPerpMarket
    function cancelOrder(address account) external nonReentrant {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        _creditExecutor($, PerpOrders.cancel($.orders, $.params.maxOrderDelaySec, account));
    }

    /// @dev The executor's (or canceller's) fee as a keeper credit, claimed with `claimKeeperBounty` like the poke
    ///      bounty (docs/perps.md "Execution fees"): the fee stays in the pool and moves from the book's Σ fees to
    ///      `keeperOwedUsdc` (both reserved, not LP capital), in the funding word the fill has just written (warm),
    ///      instead of a ClearingHouse.settle call per execution. Past the packed field's range it is paid into the
    ///      caller's collateral as before (never lost, never a revert).
    function _creditExecutor(PerpMarketStorage storage $, uint256 feeUsdc) private {
        if (feeUsdc == 0) return;
        uint256 owedAfter = uint256($.m.funding.keeperOwedUsdc) + feeUsdc;
        if (owedAfter > type(uint40).max) {
            CLEARING_HOUSE.settle(msg.sender, int256(feeUsdc));
            return;
        }
        $.m.funding.keeperOwedUsdc = uint40(owedAfter);
        $.keeperBounty[msg.sender] += feeUsdc;
    }

    /// @inheritdoc IPerpMarket
    /// @dev Runs inside `executeOrder`'s reentrancy lock, called by the market itself.
    function fillOrder(
        address account,
        int256 sizeDeltaCh,
        uint256 acceptablePriceWad,
        uint256 priceWad,
        uint256 priceTime
    ) external returns (uint256) {
        if (msg.sender != address(this)) revert PerpOnlySelf(msg.sender);
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        int256 size = $.m.accounts[account].sizeCh;
        if (sizeDeltaCh == 0) {
            if (size == 0) revert PerpNoPosition(account);
            sizeDeltaCh = -size;
        }
        if (PerpTrading.increasing(size, size + sizeDeltaCh)) _requireActive(FEATURE_TRADE);
        return
            PerpTrading.fill(
                $.m,
                $.params,
                PerpTrading.FillArgs(
                    CLEARING_HOUSE,
                    ORACLE,
                    account,
                    sizeDeltaCh,
                    acceptablePriceWad,
                    priceWad,
                    priceTime
                )
            );
    }

    // ───────────────────────────── funding ─────────────────────────────

    /// @inheritdoc IPerpMarket
    function settleFunding(address account) external nonReentrant returns (int256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        return PerpFunding.settleFunding($.m, $.params, CLEARING_HOUSE, account, _indexPrice());
    }

    // ───────────────────────────── keepers ─────────────────────────────

    /// @inheritdoc IPerpMarket
    function pokeFunding() external nonReentrant returns (uint256) {
        return _poke();
    }

    function _poke() private returns (uint256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        return PerpFunding.poke($.m, $.params, $.keeperBounty, ORACLE, msg.sender);
    }

    /// @inheritdoc IPerpMarket
    function claimKeeperBounty() external nonReentrant returns (uint256 amountUsdc) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        amountUsdc = $.keeperBounty[msg.sender];
        if (amountUsdc == 0) revert PerpNothingToSettle(msg.sender);
        $.keeperBounty[msg.sender] = 0;
        $.m.funding.keeperOwedUsdc -= uint40(amountUsdc);
        emit KeeperBountyClaimed(msg.sender, amountUsdc);
        CLEARING_HOUSE.withdrawMarketPool(amountUsdc, msg.sender);
    }

    /// @inheritdoc IPerpMarket
    function flushBurnReserve() external nonReentrant returns (uint256 amountUsdc) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        amountUsdc = $.m.oi.burnReserveUsdc;
        if (amountUsdc == 0) revert PerpNothingToSettle(address(this));
        $.m.oi.burnReserveUsdc = 0;
        address sink = $.burnSink;
        emit BurnReserveFlushed(sink, amountUsdc);
        CLEARING_HOUSE.withdrawMarketPool(amountUsdc, sink);
    }

    /// @inheritdoc IKeeperChecker
    /// @dev Orders first (the first due among the first ORDER_SCAN pending: an expired one is cancelled, a ready one
    ///      executed at the round the oracle finds for its price time), then the funding poke.
    function checker() public view returns (bool canExec, bytes memory execPayload) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        PerpParams storage p = $.params;
        execPayload = PerpOrders.dueWork($.orders, ORACLE, p.minOrderDelaySec, p.maxOrderDelaySec, ORDER_SCAN);
        if (execPayload.length != 0) return (true, execPayload);
        if (_pokeDue()) return (true, abi.encodeCall(IPerpMarket.pokeFunding, ()));
        return (false, "");
    }

    /// @inheritdoc IKeeperUpkeep
    /// @dev performData is `checker()`'s payload.
    function checkUpkeep(bytes calldata) external view returns (bool upkeepNeeded, bytes memory performData) {
        return checker();
    }

    /// @inheritdoc IKeeperUpkeep
    /// @dev Re-validated by the function it names (anyone may call it with anything): an order execution or
    ///      cancellation, else a funding poke.
    function performUpkeep(bytes calldata performData) external nonReentrant {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        bytes4 sel = performData.length >= 4 ? bytes4(performData[:4]) : bytes4(0);
        if (sel == IPerpMarket.executeOrder.selector) {
            (address account, uint80 roundId) = abi.decode(performData[4:], (address, uint80));
            _creditExecutor($, PerpTrading.execute($.orders, ORACLE, $.params, account, roundId));
        } else if (sel == IPerpMarket.cancelOrder.selector) {
            _creditExecutor(
                $,
                PerpOrders.cancel($.orders, $.params.maxOrderDelaySec, abi.decode(performData[4:], (address)))
            );
        } else {
            _poke();
        }
    }

    function _pokeDue() private view returns (bool) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        PerpTrading.OpenInterest memory oi = $.m.oi;
        if (oi.longCh == 0 && oi.shortCh == 0) return false; // nothing accrues to anyone: no keeper work
        return block.timestamp >= uint256($.m.funding.lastTime) + $.params.pokeIntervalSec;
    }

    // ───────────────────────────── clearing house ─────────────────────────────

    /// @inheritdoc ILiquidatableMarket
    /// @dev Never reverts for the ClearingHouse (no oracle read: the liquidation price is given; plain arithmetic on
    ///      bounded values) and never calls back into it: the account's unsettled funding is carried as pending
    ///      funding, settled by its next trade or `settleFunding`. Liquidations stay atomic (no delayed order).
    function onPositionLiquidated(
        address account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc
    ) external {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        if (msg.sender != address(CLEARING_HOUSE)) revert PerpOnlyClearingHouse(msg.sender);
        PerpFunding.onLiquidated($.m, $.params, account, sizeDeltaCh, priceWad, realisedPnlUsdc);
    }

    /// @inheritdoc IMarketAccountRisk
    /// @dev −(funding owed accrued to `priceWad` now + pending funding): what owing rounds up, what is owed to the
    ///      account rounds down (PerpMath.fundingOwedUsdc rounds toward +∞). A pending risk-increasing order adds
    ///      the initial margin it holds until it is executed or cancelled.
    function accountRisk(address account, uint256 priceWad) external view returns (int256, uint256, uint256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        return (
            PerpTrading.fundingAdjustment($.m, $.params, account, priceWad),
            $.orders.orders[DelayedOrders.key(account, 0)].marginUsdc,
            0
        );
    }

    // ───────────────────────────── vault ─────────────────────────────

    /// @inheritdoc IVaultMarket
    function fundFromVault(uint256 amountUsdc) external nonReentrant {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        if (msg.sender != $.vault) revert VaultMarketOnlyVault(msg.sender);
        IClearingHouse ch = CLEARING_HOUSE;
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
        $.usdc.forceApprove(address(ch), amountUsdc);
        ch.fundMarketPool(amountUsdc);
        int256 pool = _pool();
        emit VaultCapitalMoved(int256(amountUsdc), pool, _vaultEquity($, _indexPrice(), pool));
    }

    /// @inheritdoc IVaultMarket
    function returnToVault(uint256 amountUsdc) external nonReentrant {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        if (msg.sender != $.vault) revert VaultMarketOnlyVault(msg.sender);
        uint256 price = _indexPrice();
        int256 pool = _pool();
        uint256 available = PerpLpClaims.withdrawable($.m, $.params, price, _cash(pool), _reserved($));
        if (amountUsdc > available) revert PerpWithdrawableTooLow(amountUsdc, available);
        pool -= int256(amountUsdc);
        emit VaultCapitalMoved(-int256(amountUsdc), pool, _vaultEquity($, price, pool));
        CLEARING_HOUSE.withdrawMarketPool(amountUsdc, msg.sender);
    }

    /// @inheritdoc IVaultMarket
    function vaultEquityUsdc() external view returns (int256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        int256 pool = _pool();
        return _vaultEquity($, _indexPrice(), pool);
    }

    /// @inheritdoc IVaultMarket
    function withdrawableToVaultUsdc() external view returns (uint256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        return PerpLpClaims.withdrawable($.m, $.params, _indexPrice(), _cash(_pool()), _reserved($));
    }

    /// @dev The index price (one call site for the views and the vault paths: the runtime stays under its target).
    function _indexPrice() private view returns (uint256) {
        return ORACLE.indexPrice();
    }

    /// @dev The market's ClearingHouse PnL pool.
    function _pool() private view returns (int256 pool) {
        (, pool) = CLEARING_HOUSE.marketInfo(address(this));
    }

    /// @dev What of `pool` is cash: less every account's uncovered negative collateral (withdrawMarketPool's limit).
    function _cash(int256 pool) private view returns (int256) {
        return pool - int256(CLEARING_HOUSE.uncoveredCollateralUsdc());
    }

    /// @dev Pool money that is not LP capital: the burn reserve, unclaimed poke bounties, pending orders' fees.
    function _reserved(PerpMarketStorage storage $) private view returns (int256) {
        return int256(uint256($.m.oi.burnReserveUsdc) + uint256($.m.funding.keeperOwedUsdc) + $.orders.feesUsdc);
    }

    function _vaultEquity(PerpMarketStorage storage $, uint256 price, int256 pool) private view returns (int256) {
        return PerpLpClaims.vaultEquity($.m, $.params, price, pool, _reserved($));
    }

    // ───────────────────────────── configuration ─────────────────────────────

    /// @inheritdoc IPerpMarket
    /// @dev Funding is accrued to now with the old parameters first (reads the index).
    function setParams(PerpParams calldata params_) external restricted {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        PerpFunding.accrueStored($.m, $.params, _indexPrice());
        _setParams($, params_);
    }

    /// @inheritdoc IPerpMarket
    function setBurnSink(address burnSink) external restricted {
        if (burnSink == address(0)) revert ChxZeroAddress();
        _getPerpMarketStorage().burnSink = burnSink;
        emit BurnSinkSet(burnSink);
    }

    function _setParams(PerpMarketStorage storage $, PerpParams calldata p) private {
        uint256 bad;
        if (p.skewScaleCh == 0) bad = 1;
        else if (p.maxFundingRateWad > 1e18) bad = 2;
        else if (p.makerFeeBps > MAX_FEE_BPS || p.takerFeeBps > MAX_FEE_BPS) bad = 3;
        else if (uint256(p.insuranceShareBps) + p.burnShareBps > BPS) bad = 4;
        else if (p.lpReserveBps > BPS) bad = 5;
        else if (p.maxPositionCh == 0 || p.maxOpenInterestCh == 0) bad = 6;
        else if (p.pokeIntervalSec == 0) bad = 7;
        else if (p.minOrderDelaySec == 0 || p.maxOrderDelaySec <= p.minOrderDelaySec) bad = 8;
        else if (p.executionFeeUsdc > MAX_EXECUTION_FEE_USDC) bad = 9;
        if (bad != 0) revert PerpInvalidParams(bad);
        $.params = p;
        emit PerpParamsSet(p);
    }

    // ───────────────────────────── views ─────────────────────────────

    /// @inheritdoc IPerpMarket
    function quote(
        int256 sizeDeltaCh
    ) external view returns (uint256 fillPriceWad, FeeSplit memory fee, uint256 indexPriceWad) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        indexPriceWad = _indexPrice();
        (fillPriceWad, fee) = PerpTrading.quote($.m, $.params, sizeDeltaCh, indexPriceWad);
    }

    /// @inheritdoc IPerpMarket
    function currentFunding() external view returns (int256 fundingIndexWad, int256 fundingRateWad) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        return PerpFunding.accrued($.m, $.params, _indexPrice());
    }

    /// @inheritdoc IPerpMarket
    function fundingOwedUsdc(address account) external view returns (int256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        (int256 index, ) = PerpFunding.accrued($.m, $.params, _indexPrice());
        PerpTrading.Account memory a = $.m.accounts[account];
        return PerpMath.fundingOwedUsdc(a.sizeCh, a.snapshotWad, index) + $.m.pendingFunding[account];
    }

    /// @inheritdoc IPerpMarket
    function marketState() external view returns (MarketState memory s) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        PerpTrading.Funding memory f = $.m.funding;
        PerpTrading.OpenInterest memory oi = $.m.oi;
        s.fundingIndexWad = f.indexWad;
        s.fundingRateWad = f.rateWad;
        s.lastFundingTime = f.lastTime;
        s.longOiCh = oi.longCh;
        s.shortOiCh = oi.shortCh;
        s.sumOpenNotionalUsdc = $.m.agg.sumOpenNotionalUsdc;
        s.fundingOffsetWad = $.m.agg.fundingOffsetWad;
        s.burnReserveUsdc = oi.burnReserveUsdc;
        s.keeperOwedUsdc = f.keeperOwedUsdc;
        s.orderFeesUsdc = $.orders.feesUsdc;
        s.pendingOrders = $.orders.keys.length;
    }

    /// @inheritdoc IPerpMarket
    function pendingOrder(address account) external view returns (OrderView memory) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        return PerpOrders.orderOf($.orders, $.params, account);
    }

    /// @inheritdoc IPerpMarket
    function pendingOrderAt(uint256 i) external view returns (address) {
        return DelayedOrders.accountOf(_getPerpMarketStorage().orders.keys[i]);
    }

    /// @inheritdoc IPerpMarket
    function accountState(address account) external view returns (AccountState memory) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        PerpTrading.Account memory a = $.m.accounts[account];
        return AccountState(a.sizeCh, a.snapshotWad, $.m.pendingFunding[account]);
    }

    /// @inheritdoc IPerpMarket
    function keeperBountyOf(address keeper) external view returns (uint256) {
        return _getPerpMarketStorage().keeperBounty[keeper];
    }

    /// @inheritdoc IPerpMarket
    function params() external view returns (PerpParams memory) {
        return _getPerpMarketStorage().params;
    }

    /// @inheritdoc IPerpMarket
    function modules()
        external
        view
        returns (address clearingHouse, address oracle, address vault, address usdc, address burnSink)
    {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        return (address(CLEARING_HOUSE), address(ORACLE), $.vault, address($.usdc), $.burnSink);
    }
}
