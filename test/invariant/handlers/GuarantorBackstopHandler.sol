// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {MockClearingMarket} from "../../../contracts/mocks/MockClearingMarket.sol";
import {MockInsuranceFund} from "../../../contracts/mocks/MockInsuranceFund.sol";
import {MockPriceIndex} from "../../../contracts/mocks/MockPriceIndex.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

/// @notice Drives two guarantors (each its own capital provider) and one customer each through trades that add and
///         remove risk, insurance stake changes (top-ups and losses), capital deposits, notices, withdrawals, price
///         moves and time. Ghosts record every successful action that broke CLR-01 or CLR-02.
contract GuarantorBackstopHandler is CommonBase, StdCheats, StdUtils {
    IClearingHouse internal chouse;
    IGuarantorPool internal pool;
    MockClearingMarket internal market;
    MockInsuranceFund internal insurance;
    MockPriceIndex internal oracle;
    MockERC20 internal usdc;
    address[2] internal guarantors;
    address[2] internal traders;
    uint256 internal immutable stressWad;
    uint256 internal immutable maxLeverageWad;

    uint256 public currentTime;
    /// @dev CLR-01: risk-increasing trades that succeeded / that left the stake below the requirement.
    uint256 public increases;
    uint256 public requirementViolations;
    /// @dev CLR-02: withdrawals that succeeded / that left exposure above capacity or ran outside their notice.
    uint256 public withdrawals;
    uint256 public capitalViolations;

    constructor(
        IClearingHouse chouse_,
        IGuarantorPool pool_,
        MockClearingMarket market_,
        MockInsuranceFund insurance_,
        MockPriceIndex oracle_,
        MockERC20 usdc_,
        address[2] memory guarantors_,
        address[2] memory traders_,
        uint256 stressWad_,
        uint256 maxLeverageWad_
    ) {
        chouse = chouse_;
        pool = pool_;
        market = market_;
        insurance = insurance_;
        oracle = oracle_;
        usdc = usdc_;
        guarantors = guarantors_;
        traders = traders_;
        stressWad = stressWad_;
        maxLeverageWad = maxLeverageWad_;
        currentTime = block.timestamp;
    }

    modifier useTime() {
        vm.warp(currentTime);
        _;
    }

    function trade(uint256 who, int256 sizeCh) external useTime {
        uint256 i = who % 2;
        sizeCh = bound(sizeCh, -40e18, 40e18);
        if (sizeCh == 0) return;
        int256 before = chouse.positionOf(traders[i], address(market)).sizeCh;
        vm.prank(traders[i]);
        try market.trade(sizeCh) {
            int256 after_ = chouse.positionOf(traders[i], address(market)).sizeCh;
            if (_abs(after_) <= _abs(before) && (after_ == 0 || (after_ > 0) == (before > 0))) return;
            ++increases;
            address g = guarantors[i];
            uint256 required = _ceilWad(pool.guarantorInfo(g).exposureUsdc, stressWad);
            if (insurance.guarantorStake(g) < required) ++requirementViolations;
        } catch {}
    }

    function setStake(uint256 who, uint256 amountUsdc) external {
        insurance.setGuarantorStake(guarantors[who % 2], bound(amountUsdc, 0, 200e6));
    }

    function deposit(uint256 who, uint256 amountUsdc) external useTime {
        address g = guarantors[who % 2];
        amountUsdc = bound(amountUsdc, 1e6, 500e6);
        usdc.mint(g, amountUsdc);
        vm.startPrank(g);
        usdc.approve(address(pool), amountUsdc);
        pool.depositCapital(g, amountUsdc);
        vm.stopPrank();
    }

    function requestNotice(uint256 who, uint256 fractionBps) external useTime {
        address g = guarantors[who % 2];
        uint256 shares = (pool.sharesOf(g, g) * bound(fractionBps, 1, 10_000)) / 10_000;
        if (shares == 0) return;
        vm.prank(g);
        try pool.requestCapitalWithdrawal(g, shares) {} catch {}
    }

    function withdraw(uint256 who, uint256 fractionBps) external useTime {
        address g = guarantors[who % 2];
        IGuarantorPool.CapitalNotice memory n = pool.withdrawalNotice(g, g);
        uint256 shares = (n.shares * bound(fractionBps, 1, 10_000)) / 10_000;
        if (shares == 0) shares = 1;
        vm.prank(g);
        try pool.withdrawCapital(g, shares, g) {
            ++withdrawals;
            IGuarantorPool.Guarantor memory info = pool.guarantorInfo(g);
            bool inNotice = n.shares >= shares && block.timestamp >= n.readyAt && block.timestamp <= n.expiresAt;
            if (!inNotice || info.exposureUsdc > (info.capitalUsdc * maxLeverageWad) / 1e18) ++capitalViolations;
        } catch {}
    }

    function movePrice(uint256 priceWad) external {
        oracle.setPrice(bound(priceWad, 9e18, 11e18));
    }

    function warp(uint256 dt) external {
        currentTime += bound(dt, 1, 2 days);
    }

    function _abs(int256 x) private pure returns (uint256) {
        return uint256(x >= 0 ? x : -x);
    }

    function _ceilWad(uint256 a, uint256 b) private pure returns (uint256) {
        return (a * b + 1e18 - 1) / 1e18;
    }
}
