// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OracleInsuranceBase} from "../helpers/OracleInsuranceBase.sol";
import {InsuranceHandler} from "./handlers/InsuranceHandler.sol";

/// @notice Handler-based invariants of the insurance fund: LIQ-06 (monotone except cover / cooled-down
///         withdrawals), ACC-01 (balance ≥ ledger, ledger sums exactly), ACC-02 (Σ shares = total shares), and
///         LIQ-03's "the fund never goes negative".
contract InsuranceFundInvariantTest is OracleInsuranceBase {
    InsuranceHandler internal handler;

    function setUp() public {
        _deployOracleAndFund();
        handler = new InsuranceHandler(fund, usdc, clearing);
        targetContract(address(handler));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_LIQ06_fundDecreasesOnlyByCoverOrCooledWithdrawal();
        check_ACC01_balanceCoversLedger();
        check_ACC02_sharesSum();
        check_LIQ03_coverNeverOverdraws();
    }

    /// @notice LIQ-06: totalAssets = staked + fees − covered − withdrawn, exactly; no withdrawal outside its
    ///         cooled-down window; no other action ever lowered the fund.
    function check_LIQ06_fundDecreasesOnlyByCoverOrCooledWithdrawal() public view {
        assertEq(
            fund.totalAssets(),
            handler.ghostStaked() + handler.ghostFees() - handler.ghostCovered() - handler.ghostWithdrawn()
        );
        assertFalse(handler.uncooledWithdraw(), "withdrawal outside the cooled-down window");
        assertFalse(handler.unexplainedDecrease(), "fund fell outside cover / withdraw");
    }

    /// @notice ACC-01: the USDC held covers the ledger; the difference is exactly what was donated.
    function check_ACC01_balanceCoversLedger() public view {
        assertEq(usdc.balanceOf(address(fund)), fund.totalAssets() + handler.ghostDonated());
        assertLe(handler.sumClaims(), fund.totalAssets());
    }

    /// @notice ACC-02: Σ stakers' shares = total shares.
    function check_ACC02_sharesSum() public view {
        assertEq(handler.sumShares(), fund.totalShares());
    }

    /// @notice LIQ-03: cover never pays more than asked or than the fund holds.
    function check_LIQ03_coverNeverOverdraws() public view {
        assertFalse(handler.overCovered());
    }
}
