// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {GuarantorBackstopHandler} from "./handlers/GuarantorBackstopHandler.sol";

/// @notice Stateful tests of the guarantor backstops (issue 20): CLR-01 (a guarantor below its required insurance
///         stake admits no new risk) and CLR-02 (capital needed by current exposure cannot be withdrawn; withdrawals
///         wait for their notice), over any sequence of trades, stake changes, deposits, notices, withdrawals, price
///         moves and time.
contract GuarantorBackstopInvariantTest is ClearingUnitBase {
    GuarantorBackstopHandler internal handler;
    address[2] internal gs;
    address[2] internal ts = [address(0x7101), address(0x7102)];

    function setUp() public override {
        super.setUp();
        address g2 = makeAddr("second guarantor");
        _setupGuarantor(g2, false, 300e6);
        gs = [guarantor, g2];
        _setupTrader(ts[0], guarantor, 1_000e6);
        _setupTrader(ts[1], g2, 1_000e6);
        _fundMarket(100_000e6);
        pool.setCapitalNotice(1 days, 1 days);
        pool.setBackstopParams(IGuarantorPool.BackstopParams(address(insurance), 0.05e18, address(0), 1 days, 0, 0, 0));
        insurance.setGuarantorStake(guarantor, 20e6);
        handler = new GuarantorBackstopHandler(
            chouse,
            pool,
            market,
            insurance,
            oracle,
            usdc,
            gs,
            ts,
            0.05e18,
            MAX_LEVERAGE
        );
        targetContract(address(handler));
        bytes4[] memory selectors = new bytes4[](7);
        selectors[0] = GuarantorBackstopHandler.trade.selector;
        selectors[1] = GuarantorBackstopHandler.setStake.selector;
        selectors[2] = GuarantorBackstopHandler.deposit.selector;
        selectors[3] = GuarantorBackstopHandler.requestNotice.selector;
        selectors[4] = GuarantorBackstopHandler.withdraw.selector;
        selectors[5] = GuarantorBackstopHandler.movePrice.selector;
        selectors[6] = GuarantorBackstopHandler.warp.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_CLR01_noNewRiskBelowRequirement();
        check_CLR02_committedCapitalStays();
    }

    /// @notice CLR-01: no risk-increasing trade ever succeeded with the guarantor's insurance stake below
    ///         exposure × stress.
    function check_CLR01_noNewRiskBelowRequirement() public view {
        assertEq(handler.requirementViolations(), 0);
    }

    /// @notice CLR-02: no withdrawal ran outside its notice or left exposure above the capital's capacity, and the
    ///         capacity always covers the exposure (nothing else lowers capital in this run).
    function check_CLR02_committedCapitalStays() public view {
        assertEq(handler.capitalViolations(), 0);
        for (uint256 i; i < 2; ++i) {
            IGuarantorPool.Guarantor memory g = pool.guarantorInfo(gs[i]);
            assertLe(g.exposureUsdc, (g.capitalUsdc * MAX_LEVERAGE) / 1e18);
        }
    }
}
