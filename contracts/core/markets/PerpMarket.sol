// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IPerpMarket} from "../../interfaces/IPerpMarket.sol";
import {ILiquidatableMarket} from "../../interfaces/ILiquidatableMarket.sol";
import {IVaultMarket} from "../../interfaces/IVaultMarket.sol";
import {IKeeperChecker, IKeeperUpkeep} from "../../interfaces/IKeeperCompatible.sol";
import {IMarketAccountRisk} from "../../interfaces/IMarketAccountRisk.sol";
import {IClearingHouse} from "../../interfaces/IClearingHouse.sol";
import {IComputePriceOracle} from "../../interfaces/IComputePriceOracle.sol";
import {ClearingMath} from "../../libraries/ClearingMath.sol";
import {PerpMath} from "../../libraries/PerpMath.sol";

/// @title PerpMarket
/// @notice The CH perpetual against the LiquidityVault. See IPerpMarket.
/// @dev Hot-path storage is four packed words (funding, open interest, aggregates, the account) plus three words
///      of parameters; no function loops over accounts (MKT-03).
contract PerpMarket is ChxUpgradeable, IPerpMarket {
    using SafeERC20 for IERC20;
    using SafeCast for int256;
    using SafeCast for uint256;

    /// @notice Pause flag of risk-increasing trades (reductions and closes are never paused here, SEC-05).
    bytes32 public constant FEATURE_TRADE = keccak256("perp.trade");
    /// @notice Upper bound on maker and taker fees (1 %).
    uint256 public constant MAX_FEE_BPS = 100;
    uint256 internal constant BPS = 10_000;
    /// @notice While positions are open, capital returning to the vault leaves this long a run of poke bounties in
    ///         the pool, so a keeper's credit stays payable between two allocations.
    uint256 public constant BOUNTY_RUNWAY_SEC = 7 days;

    /// @dev One word: everything funding accrual reads and writes, plus unclaimed keeper bounties.
    struct Funding {
        int112 indexWad;
        int64 rateWad;
        uint40 lastTime;
        uint40 keeperOwedUsdc;
    }

    /// @dev One word: open interest per side and the burn reserve.
    struct OpenInterest {
        uint96 longCh;
        uint96 shortCh;
        uint64 burnReserveUsdc;
    }

    /// @dev One word: Σ cost basis and the funding offset (see IPerpMarket.MarketState).
    struct Aggregates {
        int128 sumOpenNotionalUsdc;
        int128 fundingOffsetWad;
    }

    /// @dev One word per account.
    struct Account {
        int128 sizeCh;
        int112 snapshotWad;
        bool hasPending;
    }

    /// @custom:storage-location erc7201:chx.storage.PerpMarket
    struct PerpMarketStorage {
        IClearingHouse clearingHouse;
        IComputePriceOracle oracle;
        address vault;
        IERC20 usdc;
        address burnSink;
        PerpParams params;
        Funding funding;
        OpenInterest oi;
        Aggregates agg;
        mapping(address account => Account) accounts;
        mapping(address account => int256 usdc) pendingFunding;
        mapping(address keeper => uint256 usdc) keeperBounty;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.PerpMarket")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant PERP_MARKET_STORAGE_LOCATION =
        0x9f0afcf6a4720240dc640b33dcedffc4d84499982519bdfc22b501382cc08f00;

    function _getPerpMarketStorage() private pure returns (PerpMarketStorage storage $) {
        assembly {
            $.slot := PERP_MARKET_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param clearingHouse The ClearingHouse (this market must be registered there and hold Roles.MARKET).
    /// @param oracle The CH index oracle.
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
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        $.clearingHouse = IClearingHouse(clearingHouse);
        $.oracle = IComputePriceOracle(oracle);
        $.vault = vault;
        (address usdc, , , , , ) = IClearingHouse(clearingHouse).modules();
        $.usdc = IERC20(usdc);
        $.burnSink = burnSink;
        $.funding.lastTime = uint40(block.timestamp);
        _setParams($, params_);
        emit BurnSinkSet(burnSink);
    }

    // ───────────────────────────── traders ─────────────────────────────

    /// @inheritdoc IPerpMarket
    function trade(int256 sizeDeltaCh, uint256 acceptablePriceWad) external nonReentrant returns (uint256) {
        if (sizeDeltaCh == 0) revert PerpZeroSize();
        return _trade(msg.sender, sizeDeltaCh, acceptablePriceWad);
    }

    /// @inheritdoc IPerpMarket
    function closePosition(uint256 acceptablePriceWad) external nonReentrant returns (uint256) {
        int256 size = _getPerpMarketStorage().accounts[msg.sender].sizeCh;
        if (size == 0) revert PerpNoPosition(msg.sender);
        return _trade(msg.sender, -size, acceptablePriceWad);
    }

    /// @dev Everything one trade computes, kept in memory (stack depth).
    struct TradeVars {
        int256 delta;
        int256 oldSize;
        int256 newSize;
        int256 snapshot;
        bool hasPending;
        int256 skew;
        uint256 indexPrice;
        uint256 fillPrice;
        int256 fundingIndex;
        int256 fundingRate;
        int256 fundingUsdc;
        int256 offsetDelta;
        uint256 longOi;
        uint256 shortOi;
        uint256 burnReserve;
        uint256 keeperOwed;
        FeeSplit fee;
    }

    function _trade(address account, int256 delta, uint256 acceptablePriceWad) private returns (uint256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        PerpParams memory p = $.params;
        TradeVars memory v;
        v.delta = delta;
        _loadAccount($, account, p, v);
        _priceTrade($, p, v, acceptablePriceWad);
        _accountFunding($, account, v);

        // effects
        _storeFunding($, v.fundingIndex, v.fundingRate, v.keeperOwed);
        $.oi = OpenInterest(uint96(v.longOi), uint96(v.shortOi), uint64(v.burnReserve));
        // a closed account keeps no snapshot (size 0 owes nothing at any index): its word is cleared (gas refund)
        if (v.newSize == 0) delete $.accounts[account];
        else $.accounts[account] = Account(v.newSize.toInt128(), int112(v.fundingIndex), false);

        // interactions, one ClearingHouse call: funding and the LP + burn fee shares move between the account and
        // the pool first (settle), so its margin check sees them; the insurance share is its trade fee.
        (int256 pnl, IClearingHouse.Position memory pos) = $.clearingHouse.modifyPositionAndSettle(
            account,
            delta,
            v.fillPrice,
            v.fee.insuranceUsdc,
            v.fundingUsdc - int256(v.fee.lpUsdc + v.fee.burnUsdc)
        );

        Aggregates memory g = $.agg;
        $.agg = Aggregates(
            (g.sumOpenNotionalUsdc + _openNotionalDelta(v.oldSize, delta, v.fillPrice, pnl)).toInt128(),
            (g.fundingOffsetWad + v.offsetDelta).toInt128()
        );
        _emitTraded(account, v, pos.openNotionalUsdc);
        return v.fillPrice;
    }

    /// @dev Reads the account, checks the size rules and reads the index once (riskPrice for new risk, ORC-01).
    function _loadAccount(
        PerpMarketStorage storage $,
        address account,
        PerpParams memory p,
        TradeVars memory v
    ) private view {
        Account memory a = $.accounts[account];
        v.oldSize = a.sizeCh;
        v.snapshot = a.snapshotWad;
        v.hasPending = a.hasPending;
        v.newSize = v.oldSize + v.delta;
        uint256 absNew = PerpMath.abs(v.newSize);
        uint256 absDelta = PerpMath.abs(v.delta);
        // a full close of a position below the minimum stays possible
        if (absDelta < p.minTradeCh && v.newSize != 0) revert PerpTradeTooSmall(absDelta, p.minTradeCh);
        bool increasing =
            absNew > PerpMath.abs(v.oldSize) ||
                (v.oldSize != 0 && v.newSize != 0 && (v.oldSize > 0) != (v.newSize > 0));
        if (increasing) {
            _requireActive(FEATURE_TRADE);
            if (absNew > p.maxPositionCh) revert PerpPositionTooLarge(absNew, p.maxPositionCh);
            v.indexPrice = $.oracle.riskPrice();
        } else {
            v.indexPrice = $.oracle.indexPrice();
        }
    }

    /// @dev Funding to now at the skew before the trade, the fill price and its limit, the fee split and the open
    ///      interest after (caps bind only on a side that grows).
    function _priceTrade(
        PerpMarketStorage storage $,
        PerpParams memory p,
        TradeVars memory v,
        uint256 limit
    ) private view {
        OpenInterest memory oi = $.oi;
        v.skew = int256(uint256(oi.longCh)) - int256(uint256(oi.shortCh));
        Funding memory f = $.funding;
        v.keeperOwed = f.keeperOwedUsdc;
        (v.fundingIndex, v.fundingRate) = PerpMath.accrue(
            f.indexWad,
            f.rateWad,
            block.timestamp - f.lastTime,
            v.skew,
            p.skewScaleCh,
            p.maxFundingVelocityWad,
            p.maxFundingRateWad,
            v.indexPrice
        );
        int256 delta = v.delta;
        int256 premium;
        (v.fillPrice, premium) = PerpMath.fillPrice(v.indexPrice, v.skew, delta, p.skewScaleCh);
        if (v.fillPrice == 0) revert PerpInvalidFillPrice(premium);
        if (limit != 0 && (delta > 0 ? v.fillPrice > limit : v.fillPrice < limit)) {
            revert PerpPriceLimitExceeded(v.fillPrice, limit);
        }
        v.fee = _split(PerpMath.feeUsdc(v.skew, delta, v.fillPrice, p.makerFeeBps, p.takerFeeBps), p);
        v.burnReserve = uint256(oi.burnReserveUsdc) + v.fee.burnUsdc;
        if (v.burnReserve > type(uint64).max) {
            // @dev never block a trade on the packed reserve's range: an unflushed overflow goes to LPs instead
            v.fee.lpUsdc += v.fee.burnUsdc;
            v.fee.burnUsdc = 0;
            v.burnReserve = oi.burnReserveUsdc;
        }
        v.longOi = oi.longCh;
        v.shortOi = oi.shortCh;
        if (v.oldSize > 0) v.longOi -= uint256(v.oldSize);
        else v.shortOi -= uint256(-v.oldSize);
        if (v.newSize > 0) {
            v.longOi += uint256(v.newSize);
            if (v.longOi > oi.longCh && v.longOi > p.maxOpenInterestCh) {
                revert PerpOpenInterestCapExceeded(true, v.longOi, p.maxOpenInterestCh);
            }
        } else {
            v.shortOi += uint256(-v.newSize);
            if (v.shortOi > oi.shortCh && v.shortOi > p.maxOpenInterestCh) {
                revert PerpOpenInterestCapExceeded(false, v.shortOi, p.maxOpenInterestCh);
            }
        }
    }

    /// @dev The account's funding since its snapshot plus any carried over a liquidation, and the change of the
    ///      funding offset when its snapshot moves to the new index.
    function _accountFunding(PerpMarketStorage storage $, address account, TradeVars memory v) private {
        int256 owed = PerpMath.fundingOwedUsdc(v.oldSize, v.snapshot, v.fundingIndex);
        v.offsetDelta = (v.newSize * v.fundingIndex) / PerpMath.WAD - (v.oldSize * v.snapshot) / PerpMath.WAD;
        if (v.hasPending) {
            int256 pending = $.pendingFunding[account];
            owed += pending;
            v.offsetDelta += pending * 1e12;
            delete $.pendingFunding[account];
        }
        v.fundingUsdc = -owed;
    }

    function _emitTraded(address account, TradeVars memory v, int256 openNotional) private {
        emit PerpTraded(
            account,
            v.delta,
            v.fillPrice,
            v.indexPrice,
            v.newSize,
            openNotional,
            v.fundingUsdc,
            v.fee.lpUsdc,
            v.fee.insuranceUsdc,
            v.fee.burnUsdc,
            v.fundingIndex,
            v.fundingRate,
            v.longOi,
            v.shortOi
        );
    }

    /// @dev The change of the ClearingHouse cost basis, rebuilt from the realised PnL it returned (ClearingMath
    ///      .applyTrade): an increase adds valueUp(delta); a reduction removes closedBasis = valueDown(closed) − pnl;
    ///      a flip then adds valueUp(newSize). Exact, so Σ cost basis mirrors the ClearingHouse without a read.
    function _openNotionalDelta(int256 oldSize, int256 delta, uint256 price, int256 pnl) private pure returns (int256) {
        if (oldSize == 0 || (oldSize > 0) == (delta > 0)) return ClearingMath.valueUsdcUp(delta, price);
        uint256 absOld = PerpMath.abs(oldSize);
        uint256 absDelta = PerpMath.abs(delta);
        uint256 closeAbs = absDelta < absOld ? absDelta : absOld;
        int256 closed = oldSize > 0 ? int256(closeAbs) : -int256(closeAbs);
        int256 change = pnl - ClearingMath.valueUsdcDown(closed, price);
        if (absDelta > absOld) change += ClearingMath.valueUsdcUp(oldSize + delta, price);
        return change;
    }

    function _split(uint256 total, PerpParams memory p) private pure returns (FeeSplit memory s) {
        s.totalUsdc = total;
        if (total == 0) return s;
        // @dev the two named shares round down, LPs take the remainder: the parts always sum to the total
        s.insuranceUsdc = (total * p.insuranceShareBps) / BPS;
        s.burnUsdc = (total * p.burnShareBps) / BPS;
        s.lpUsdc = total - s.insuranceUsdc - s.burnUsdc;
    }

    /// @inheritdoc IPerpMarket
    function settleFunding(address account) external nonReentrant returns (int256 fundingUsdc) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        uint256 price = $.oracle.indexPrice();
        (int256 index, ) = _accrueStored($, price);
        Account storage a = $.accounts[account];
        int256 size = a.sizeCh;
        int256 snap = a.snapshotWad;
        int256 owed = PerpMath.fundingOwedUsdc(size, snap, index);
        int256 offsetDelta = (size * index) / PerpMath.WAD - (size * snap) / PerpMath.WAD;
        if (a.hasPending) {
            int256 pending = $.pendingFunding[account];
            owed += pending;
            offsetDelta += pending * 1e12;
            delete $.pendingFunding[account];
            a.hasPending = false;
        }
        if (owed == 0 && offsetDelta == 0) revert PerpNothingToSettle(account);
        a.snapshotWad = int112(index);
        Aggregates storage g = $.agg;
        g.fundingOffsetWad = (g.fundingOffsetWad + offsetDelta).toInt128();
        fundingUsdc = -owed;
        emit FundingSettled(account, fundingUsdc, index);
        if (fundingUsdc != 0) $.clearingHouse.settle(account, fundingUsdc);
    }

    // ───────────────────────────── keepers ─────────────────────────────

    /// @inheritdoc IPerpMarket
    function pokeFunding() external nonReentrant returns (uint256) {
        return _poke();
    }

    function _poke() private returns (uint256 bounty) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        Funding memory f = $.funding;
        uint256 interval = $.params.pokeIntervalSec;
        if (block.timestamp < f.lastTime + interval) revert PerpAlreadyDone(f.lastTime, f.lastTime + interval);
        uint256 price = $.oracle.indexPrice();
        (int256 index, int256 rate) = _accrue($, f, price);
        // @dev no open interest, no funding to keep current: no bounty (an empty market must not owe keepers
        //      before LPs have funded it, which would leave the vault's equity negative and block deposits)
        OpenInterest memory oi = $.oi;
        bounty = oi.longCh == 0 && oi.shortCh == 0 ? 0 : $.params.pokeBountyUsdc;
        uint256 owedAfter = uint256(f.keeperOwedUsdc) + bounty;
        // @dev the bounty stops (never reverts) if unclaimed bounties ever reached the packed field's range
        if (owedAfter > type(uint40).max) {
            bounty = 0;
            owedAfter = f.keeperOwedUsdc;
        }
        _storeFunding($, index, rate, owedAfter);
        if (bounty > 0) $.keeperBounty[msg.sender] += bounty;
        emit FundingPoked(msg.sender, index, rate, price, bounty);
    }

    /// @inheritdoc IPerpMarket
    function claimKeeperBounty() external nonReentrant returns (uint256 amountUsdc) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        amountUsdc = $.keeperBounty[msg.sender];
        if (amountUsdc == 0) revert PerpNothingToSettle(msg.sender);
        $.keeperBounty[msg.sender] = 0;
        $.funding.keeperOwedUsdc -= uint40(amountUsdc);
        emit KeeperBountyClaimed(msg.sender, amountUsdc);
        $.clearingHouse.withdrawMarketPool(amountUsdc, msg.sender);
    }

    /// @inheritdoc IPerpMarket
    function flushBurnReserve() external nonReentrant returns (uint256 amountUsdc) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        amountUsdc = $.oi.burnReserveUsdc;
        if (amountUsdc == 0) revert PerpNothingToSettle(address(this));
        $.oi.burnReserveUsdc = 0;
        address sink = $.burnSink;
        emit BurnReserveFlushed(sink, amountUsdc);
        $.clearingHouse.withdrawMarketPool(amountUsdc, sink);
    }

    /// @inheritdoc IKeeperChecker
    function checker() external view returns (bool canExec, bytes memory execPayload) {
        if (_pokeDue()) return (true, abi.encodeCall(IPerpMarket.pokeFunding, ()));
        return (false, "");
    }

    /// @inheritdoc IKeeperUpkeep
    function checkUpkeep(bytes calldata) external view returns (bool upkeepNeeded, bytes memory performData) {
        return (_pokeDue(), "");
    }

    /// @inheritdoc IKeeperUpkeep
    function performUpkeep(bytes calldata) external nonReentrant {
        _poke();
    }

    function _pokeDue() private view returns (bool) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        OpenInterest memory oi = $.oi;
        if (oi.longCh == 0 && oi.shortCh == 0) return false; // nothing accrues to anyone: no keeper work
        return block.timestamp >= uint256($.funding.lastTime) + $.params.pokeIntervalSec;
    }

    // ───────────────────────────── clearing house ─────────────────────────────

    /// @inheritdoc ILiquidatableMarket
    /// @dev Never reverts for the ClearingHouse (no oracle read: the liquidation price is given; plain arithmetic on
    ///      bounded values) and never calls back into it: the account's unsettled funding is carried as pending
    ///      funding, settled by its next trade or `settleFunding`.
    function onPositionLiquidated(
        address account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc
    ) external {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        if (msg.sender != address($.clearingHouse)) revert PerpOnlyClearingHouse(msg.sender);
        (int256 index, int256 rate) = _accrueStored($, priceWad);
        (int256 oldSize, int256 pending) = _liquidateAccount($, account, sizeDeltaCh, index);
        OpenInterest memory oi = _reduceOpenInterest($, oldSize > 0, PerpMath.abs(sizeDeltaCh));
        Aggregates storage g = $.agg;
        g.sumOpenNotionalUsdc += int128(_openNotionalDelta(oldSize, sizeDeltaCh, priceWad, realisedPnlUsdc));
        emit PerpLiquidated(
            account,
            sizeDeltaCh,
            priceWad,
            oldSize + sizeDeltaCh,
            pending,
            index,
            rate,
            oi.longCh,
            oi.shortCh
        );
    }

    /// @dev Moves the account's unsettled funding into pending funding, re-snapshots it and keeps the funding offset
    ///      consistent (its contribution changes from size·snapshot to size′·index − owed).
    function _liquidateAccount(
        PerpMarketStorage storage $,
        address account,
        int256 sizeDeltaCh,
        int256 index
    ) private returns (int256 oldSize, int256 pending) {
        Account memory a = $.accounts[account];
        oldSize = a.sizeCh;
        int256 newSize = oldSize + sizeDeltaCh;
        int256 owed = PerpMath.fundingOwedUsdc(oldSize, a.snapshotWad, index);
        pending = $.pendingFunding[account] + owed;
        $.pendingFunding[account] = pending;
        $.accounts[account] = Account(int128(newSize), int112(index), pending != 0);
        Aggregates storage g = $.agg;
        g.fundingOffsetWad += int128(
            (newSize * index) / PerpMath.WAD - (oldSize * a.snapshotWad) / PerpMath.WAD - owed * 1e12
        );
    }

    /// @dev Saturating: the liquidation hook must not revert even if the size mirror were ever off.
    function _reduceOpenInterest(
        PerpMarketStorage storage $,
        bool isLong,
        uint256 closedCh
    ) private returns (OpenInterest memory oi) {
        oi = $.oi;
        if (isLong) oi.longCh = oi.longCh > closedCh ? uint96(oi.longCh - closedCh) : 0;
        else oi.shortCh = oi.shortCh > closedCh ? uint96(oi.shortCh - closedCh) : 0;
        $.oi = oi;
    }

    /// @inheritdoc IMarketAccountRisk
    /// @dev −(funding owed accrued to `priceWad` now + pending funding): what owing rounds up, what is owed to the
    ///      account rounds down (PerpMath.fundingOwedUsdc rounds toward +∞). No extra requirements.
    function accountRisk(address account, uint256 priceWad) external view returns (int256, uint256, uint256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        Account memory a = $.accounts[account];
        int256 pending = a.hasPending ? $.pendingFunding[account] : int256(0);
        if (a.sizeCh == 0) return (-pending, 0, 0);
        (int256 index, ) = _accrueView($, priceWad);
        return (-(PerpMath.fundingOwedUsdc(a.sizeCh, a.snapshotWad, index) + pending), 0, 0);
    }

    // ───────────────────────────── vault ─────────────────────────────

    /// @inheritdoc IVaultMarket
    function fundFromVault(uint256 amountUsdc) external nonReentrant {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        if (msg.sender != $.vault) revert VaultMarketOnlyVault(msg.sender);
        IClearingHouse ch = $.clearingHouse;
        $.usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
        $.usdc.forceApprove(address(ch), amountUsdc);
        ch.fundMarketPool(amountUsdc);
        (, int256 pool, , ) = ch.marketInfo(address(this));
        emit VaultCapitalMoved(int256(amountUsdc), pool, _vaultEquity($, $.oracle.indexPrice(), pool));
    }

    /// @inheritdoc IVaultMarket
    function returnToVault(uint256 amountUsdc) external nonReentrant {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        if (msg.sender != $.vault) revert VaultMarketOnlyVault(msg.sender);
        IClearingHouse ch = $.clearingHouse;
        uint256 price = $.oracle.indexPrice();
        (, int256 pool, , ) = ch.marketInfo(address(this));
        uint256 available = _withdrawable($, price, pool);
        if (amountUsdc > available) revert PerpWithdrawableTooLow(amountUsdc, available);
        pool -= int256(amountUsdc);
        emit VaultCapitalMoved(-int256(amountUsdc), pool, _vaultEquity($, price, pool));
        ch.withdrawMarketPool(amountUsdc, msg.sender);
    }

    /// @inheritdoc IVaultMarket
    function vaultEquityUsdc() external view returns (int256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        (, int256 pool, , ) = $.clearingHouse.marketInfo(address(this));
        return _vaultEquity($, $.oracle.indexPrice(), pool);
    }

    /// @inheritdoc IVaultMarket
    function withdrawableToVaultUsdc() external view returns (uint256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        (, int256 pool, , ) = $.clearingHouse.marketInfo(address(this));
        return _withdrawable($, $.oracle.indexPrice(), pool);
    }

    /// @dev Traders' net unrealised PnL (rounded up: against LPs) and their funding debt to the pool accrued to now
    ///      (rounded down), both O(1) from the aggregates. Positions are valued at what closing them all would pay:
    ///      the price impact is path-independent, so moving the skew from `net` to 0 pays
    ///      net · index + index · net² / (2 · skewScale) in any order of closes. Valuing at the bare index would
    ///      count the premium traders paid to open as LP equity until they close and take it back (issue 17 item 2:
    ///      an LP opening skew, redeeming at the inflated price, then closing).
    function _traderClaims(
        PerpMarketStorage storage $,
        uint256 price
    ) private view returns (int256 unrealisedUsdc, int256 fundingDebtUsdc, uint256 grossNotionalUsdc) {
        OpenInterest memory oi = $.oi;
        int256 net = int256(uint256(oi.longCh)) - int256(uint256(oi.shortCh));
        Aggregates memory g = $.agg;
        uint256 absNet = PerpMath.abs(net);
        // @dev the impact term is ≥ 0 whatever the side and rounds up (traders' claim, against LPs)
        uint256 impactUsdc = Math.mulDiv(price, absNet * absNet, 2e30 * uint256($.params.skewScaleCh), Math.Rounding.Ceil);
        unrealisedUsdc = ClearingMath.valueUsdcUp(net, price) + int256(impactUsdc) - g.sumOpenNotionalUsdc;
        (int256 index, ) = _accrueView($, price);
        fundingDebtUsdc = PerpMath.divDown((net * index) / PerpMath.WAD - g.fundingOffsetWad, 1e12);
        grossNotionalUsdc = ClearingMath.notionalUsdcUp(uint256(oi.longCh) + uint256(oi.shortCh), price);
    }

    function _reserved(PerpMarketStorage storage $) private view returns (int256) {
        return int256(uint256($.oi.burnReserveUsdc) + uint256($.funding.keeperOwedUsdc));
    }

    function _vaultEquity(PerpMarketStorage storage $, uint256 price, int256 pool) private view returns (int256) {
        (int256 unrealised, int256 fundingDebt, ) = _traderClaims($, price);
        return pool - _reserved($) - unrealised + fundingDebt;
    }

    function _withdrawable(PerpMarketStorage storage $, uint256 price, int256 pool) private view returns (uint256) {
        (int256 unrealised, int256 fundingDebt, uint256 gross) = _traderClaims($, price);
        int256 owedToTraders = unrealised - fundingDebt;
        if (owedToTraders < 0) owedToTraders = 0;
        PerpParams storage p = $.params;
        int256 buffer = int256((gross * p.lpReserveBps + BPS - 1) / BPS);
        // @dev pokes pay bounties only while positions are open (_poke): then keep a runway of them in the pool
        if (gross != 0) {
            uint256 interval = p.pokeIntervalSec;
            buffer += int256(uint256(p.pokeBountyUsdc) * ((BOUNTY_RUNWAY_SEC + interval - 1) / interval));
        }
        int256 free = pool - _reserved($) - owedToTraders - buffer;
        return free > 0 ? uint256(free) : 0;
    }

    // ───────────────────────────── configuration ─────────────────────────────

    /// @inheritdoc IPerpMarket
    /// @dev Funding is accrued to now with the old parameters first (reads the index).
    function setParams(PerpParams calldata params_) external restricted {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        _accrueStored($, $.oracle.indexPrice());
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
        PerpParams memory p = $.params;
        indexPriceWad = $.oracle.indexPrice();
        int256 skew = int256(uint256($.oi.longCh)) - int256(uint256($.oi.shortCh));
        (fillPriceWad, ) = PerpMath.fillPrice(indexPriceWad, skew, sizeDeltaCh, p.skewScaleCh);
        fee = _split(PerpMath.feeUsdc(skew, sizeDeltaCh, fillPriceWad, p.makerFeeBps, p.takerFeeBps), p);
    }

    /// @inheritdoc IPerpMarket
    function currentFunding() external view returns (int256 fundingIndexWad, int256 fundingRateWad) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        return _accrueView($, $.oracle.indexPrice());
    }

    /// @inheritdoc IPerpMarket
    function fundingOwedUsdc(address account) external view returns (int256) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        (int256 index, ) = _accrueView($, $.oracle.indexPrice());
        Account memory a = $.accounts[account];
        return PerpMath.fundingOwedUsdc(a.sizeCh, a.snapshotWad, index) + $.pendingFunding[account];
    }

    /// @inheritdoc IPerpMarket
    function marketState() external view returns (MarketState memory s) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        Funding memory f = $.funding;
        OpenInterest memory oi = $.oi;
        s.fundingIndexWad = f.indexWad;
        s.fundingRateWad = f.rateWad;
        s.lastFundingTime = f.lastTime;
        s.longOiCh = oi.longCh;
        s.shortOiCh = oi.shortCh;
        s.sumOpenNotionalUsdc = $.agg.sumOpenNotionalUsdc;
        s.fundingOffsetWad = $.agg.fundingOffsetWad;
        s.burnReserveUsdc = oi.burnReserveUsdc;
        s.keeperOwedUsdc = f.keeperOwedUsdc;
    }

    /// @inheritdoc IPerpMarket
    function accountState(address account) external view returns (AccountState memory) {
        PerpMarketStorage storage $ = _getPerpMarketStorage();
        Account memory a = $.accounts[account];
        return AccountState(a.sizeCh, a.snapshotWad, $.pendingFunding[account]);
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
        return (address($.clearingHouse), address($.oracle), $.vault, address($.usdc), $.burnSink);
    }

    // ───────────────────────────── internals ─────────────────────────────

    function _skew(PerpMarketStorage storage $) private view returns (int256) {
        OpenInterest memory oi = $.oi;
        return int256(uint256(oi.longCh)) - int256(uint256(oi.shortCh));
    }

    function _accrue(
        PerpMarketStorage storage $,
        Funding memory f,
        uint256 price
    ) private view returns (int256, int256) {
        PerpParams storage p = $.params;
        return
            PerpMath.accrue(
                f.indexWad,
                f.rateWad,
                block.timestamp - f.lastTime,
                _skew($),
                p.skewScaleCh,
                p.maxFundingVelocityWad,
                p.maxFundingRateWad,
                price
            );
    }

    /// @dev Accrues the stored funding to now and writes it (settleFunding).
    function _accrueStored(PerpMarketStorage storage $, uint256 price) private returns (int256 index, int256 rate) {
        Funding memory f = $.funding;
        (index, rate) = _accrue($, f, price);
        _storeFunding($, index, rate, f.keeperOwedUsdc);
    }

    /// @dev The index cannot leave int112 (5e15 USDC per CH) nor the rate int64 (maxFundingRateWad ≤ 1e18) in
    ///      practice; the checked casts keep a corrupted value from ever being stored.
    function _storeFunding(PerpMarketStorage storage $, int256 index, int256 rate, uint256 keeperOwed) private {
        $.funding = Funding(index.toInt112(), rate.toInt64(), uint40(block.timestamp), uint40(keeperOwed));
    }

    function _accrueView(PerpMarketStorage storage $, uint256 price) private view returns (int256, int256) {
        return _accrue($, $.funding, price);
    }
}
