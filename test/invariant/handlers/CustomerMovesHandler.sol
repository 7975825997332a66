// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IClearingHouse} from "../../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {ILiquidationEngine} from "../../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {MockPriceIndex} from "../../../contracts/mocks/MockPriceIndex.sol";
import {MockInsuranceFund} from "../../../contracts/mocks/MockInsuranceFund.sol";
import {MockClearingMarket} from "../../../contracts/mocks/MockClearingMarket.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

/// @notice Customers moving between guarantors while they trade, fall into deficit (self-closes at a loss, cash
///         flows on flat accounts), get liquidated, and receive payouts from a market that must never absorb a loss
///         (issue 17 items 4, 5, 12, 14). Counts the violations it can only see inside a call.
contract CustomerMovesHandler is CommonBase, StdCheats, StdUtils {
    IClearingHouse internal ch;
    IGuarantorPool internal pool;
    ILiquidationEngine internal liq;
    MockPriceIndex internal oracle;
    MockInsuranceFund internal insurance;
    MockClearingMarket internal market; // loss absorber (a perp market's LP pool)
    MockClearingMarket internal payouts; // no loss absorber (an options market's pool)
    MockERC20 internal usdc;

    address[4] public traders;
    address[2] public guarantors; // [0] closed (admits), [1] open (self-admission)
    address public liquidator = address(0x11C1D);

    int256 public ghostPayouts; // Σ cash paid out of the `payouts` pool
    uint256 public removals;
    uint256 public moves;
    uint256 public violationsLIQ03;
    uint256 public violationsSEC05;

    constructor(address[8] memory m, address[4] memory traders_, address[2] memory guarantors_) {
        ch = IClearingHouse(m[0]);
        pool = IGuarantorPool(m[1]);
        liq = ILiquidationEngine(m[2]);
        oracle = MockPriceIndex(m[3]);
        insurance = MockInsuranceFund(m[4]);
        market = MockClearingMarket(m[5]);
        payouts = MockClearingMarket(m[6]);
        usdc = MockERC20(m[7]);
        traders = traders_;
        guarantors = guarantors_;
    }

    function _t(uint256 seed) internal view returns (address) {
        return traders[seed % 4];
    }

    function deposit(uint256 seed, uint256 amount) external {
        address t = _t(seed);
        amount = bound(amount, 1, 1_000e6);
        usdc.mint(t, amount);
        vm.startPrank(t);
        usdc.approve(address(ch), amount);
        ch.deposit(amount);
        vm.stopPrank();
    }

    function open(uint256 seed, int256 size) external {
        size = bound(size, -200e18, 200e18);
        if (size == 0) return;
        vm.prank(_t(seed));
        try market.trade(size) {} catch {}
    }

    /// A full close at the index, whatever the loss (the account may go into deficit). SEC-05: never refused while
    /// the index is valid — the per-market pause included (item 12).
    function closeAll(uint256 seed) external {
        address t = _t(seed);
        int256 size = ch.positionOf(t, address(market)).sizeCh;
        if (size == 0) return;
        vm.prank(t);
        try market.trade(-size) {} catch {
            ++violationsSEC05;
        }
    }

    /// A funding-like cash flow of the absorbing market (may leave a flat account in deficit); never refused.
    function cashFlow(uint256 seed, int256 amount) external {
        amount = bound(amount, -300e6, 50e6);
        try market.settleFunding(_t(seed), amount) {} catch {
            ++violationsSEC05;
        }
    }

    /// An option-like payout from the non-absorbing market.
    function payout(uint256 seed, uint256 amount) external {
        amount = bound(amount, 1, 10e6);
        payouts.settleFunding(_t(seed), int256(amount));
        ghostPayouts += int256(amount);
    }

    function movePrice(uint256 moveBps) external {
        uint256 p = (oracle.priceWad() * bound(moveBps, 7_000, 13_000)) / 10_000;
        oracle.setPrice(p < 1e18 ? 1e18 : (p > 100e18 ? 100e18 : p));
    }

    function pauseMarket(bool paused) external {
        bytes32 f = keccak256(abi.encode(keccak256("clearing.market"), address(market)));
        if (paused) IChxModule(address(ch)).pauseFeature(f);
        else IChxModule(address(ch)).unpauseFeature(f);
    }

    /// LIQ-03: a liquidation charges the account's current guarantor before the insurance fund.
    function liquidate(uint256 seed) external {
        address t = _t(seed);
        address g = pool.guarantorOf(t);
        uint256 insBefore = insurance.totalAssets();
        vm.prank(liquidator);
        try liq.liquidate(t) {
            uint256 gAfter = g == address(0) ? 0 : pool.guarantorInfo(g).capitalUsdc;
            if (insurance.totalAssets() < insBefore && gAfter != 0) ++violationsLIQ03;
        } catch {}
    }

    /// Items 4/5: the customer or its guarantor ends the relationship. LIQ-03: never while the account is in deficit
    /// (its guarantor pays first), never while it has a market in its set.
    function remove(uint256 seed, bool byGuarantor) external {
        address t = _t(seed);
        address g = pool.guarantorOf(t);
        if (g == address(0)) return;
        vm.prank(byGuarantor ? g : t);
        try pool.removeCustomer(t) {
            ++removals;
            if (ch.collateralOf(t) < 0 || ch.marketsOf(t).length != 0) ++violationsLIQ03;
            (, uint256 exposure) = pool.customerInfo(t);
            if (exposure != 0) ++violationsLIQ03;
        } catch {}
    }

    /// A customer without a guarantor joins the open one or is admitted by the closed one (its exposure must follow).
    function join(uint256 seed, bool open_) external {
        address t = _t(seed);
        if (pool.guarantorOf(t) != address(0)) return;
        if (open_) {
            vm.prank(t);
            try pool.joinOpenGuarantor(guarantors[1]) {
                ++moves;
                if (ch.collateralOf(t) < 0) ++violationsLIQ03; // no deficit handed to an open guarantor
            } catch {}
        } else {
            vm.prank(guarantors[0]);
            pool.admitCustomer(t, 1_000_000e6);
            ++moves;
        }
    }

    function syncExposure(uint256 seed) external {
        ch.syncExposure(_t(seed));
    }
}
