// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {InsuranceShares} from "../../contracts/libraries/insurance/InsuranceShares.sol";
import {InsuranceFundStore} from "../../contracts/libraries/insurance/InsuranceStorage.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IInsuranceFundErrors} from "../../contracts/interfaces/clearing/IInsuranceFundErrors.sol";

/// @dev Answers only `requiredInsuranceUsdc` (the one pool read InsuranceShares makes).
contract RequirementPoolStub {
    mapping(address => uint256) public requiredInsuranceUsdc;

    function set(address g, uint256 v) external {
        requiredInsuranceUsdc[g] = v;
    }
}

/// @notice InsuranceShares against a reference: the conversions equal floor(x · (S + 1e6) / (A + 1)) and its inverse
///         in plain integer arithmetic (ACC-05: both round down), a stake-then-redeem round trip never returns more
///         than was paid (ACC-03), the donation attack neither pays the attacker nor costs the victim more than the
///         ACC-04 bound, `held` reads shares of the current epoch only, and the requirement in force is the larger of
///         the governance floor and the pool's figure (CLR-01). The test contract is the harness: it holds the fund's
///         storage struct and calls the internal library on it.
contract InsuranceSharesTest is Test {
    InsuranceFundStore.InsuranceFundStorage internal s;

    uint256 internal constant OFFSET = 1e6;

    function _state(uint256 assets, uint256 shares) internal {
        s.totalAssets = uint128(assets);
        s.totalShares = uint128(shares);
    }

    // ───────────────────────────── conversions (ACC-05) ─────────────────────────────

    /// @dev ACC-05: both conversions equal the floored reference for any state within realistic ranges.
    function testFuzz_conversions_matchFlooredReference(uint256 assets, uint256 shares, uint256 x) public {
        assets = bound(assets, 0, 1e30);
        shares = bound(shares, 0, 1e36);
        x = bound(x, 0, 1e30);
        _state(assets, shares);
        assertEq(InsuranceShares.toSharesDown(s, x), (x * (shares + OFFSET)) / (assets + 1), "toShares");
        assertEq(InsuranceShares.toAssetsDown(s, x), (x * (assets + 1)) / (shares + OFFSET), "toAssets");
    }

    /// @dev ACC-05 worked number: an empty fund credits 1e6 shares per USDC unit (the 6-decimal offset).
    function test_emptyFund_offsetWorked() public {
        assertEq(InsuranceShares.toSharesDown(s, 1), 1e6);
        assertEq(InsuranceShares.toSharesDown(s, 123e6), 123e12);
        _state(3, 2e6); // 3 units for 2e6 shares: 1 share is worth (3 + 1) / (2e6 + 1e6) units
        assertEq(InsuranceShares.toAssetsDown(s, 1e6), 1); // 4/3 → 1 (down)
        assertEq(InsuranceShares.toSharesDown(s, 1), 750_000); // 3e6/4 = 750,000 exactly
    }

    /// @dev ACC-03: staking `a` then redeeming the shares credited returns ≤ a, whatever the fund's state.
    function testFuzz_roundTrip_neverReturnsMore(uint256 assets, uint256 shares, uint256 a) public {
        assets = bound(assets, 0, 1e24);
        // share price down to 1e-8 of the initial one: the state after the stake still fits the uint128 fields
        shares = bound(shares, 0, (assets + 1) * 1e14);
        a = bound(a, 0, 1e24);
        _state(assets, shares);
        uint256 minted = InsuranceShares.toSharesDown(s, a);
        _state(assets + a, shares + minted);
        uint256 back = InsuranceShares.toAssetsDown(s, minted);
        assertLe(back, a);
    }

    /// @dev ACC-03: a thousand 1-unit round trips from an arbitrary state never gain a unit.
    function testFuzz_dustRoundTrips_neverGain(uint256 assets, uint256 shares) public {
        assets = bound(assets, 0, 1e15);
        shares = bound(shares, 0, 1e21);
        uint256 gained;
        for (uint256 i; i < 1000; ++i) {
            _state(assets, shares);
            uint256 minted = InsuranceShares.toSharesDown(s, 1);
            _state(assets + 1, shares + minted);
            uint256 back = InsuranceShares.toAssetsDown(s, minted);
            assertLe(back, 1);
            // the shares are burnt and the fund keeps 1 - back: the next trip starts from the richer state
            assets = assets + 1 - back;
            gained += back;
        }
        assertLe(gained, 1000);
    }

    /// @dev ACC-04: attacker stakes 1 unit into an empty fund, donates `d` ≤ 1e24, the victim stakes V ≥ d. The
    ///      attacker's shares are worth ≤ what it put in, and the victim's ≥ V·(1 − 1e-6) less 2 units of rounding
    ///      (one share and the final floor). Reference bound: the share price only rises with the victim's stake, so
    ///      the victim loses less than one share's worth, (2 + d) / 2e6 ≤ V / 1e6.
    function testFuzz_inflationAttack_bounded(uint256 d, uint256 v) public {
        d = bound(d, 0, 1e24);
        v = bound(v, d > 2 ? d : 2, 1e27);
        uint256 attackerShares = InsuranceShares.toSharesDown(s, 1);
        _state(1 + d, attackerShares); // the donation raises assets, not shares
        uint256 victimShares = InsuranceShares.toSharesDown(s, v);
        _state(1 + d + v, attackerShares + victimShares);
        uint256 attackerValue = InsuranceShares.toAssetsDown(s, attackerShares);
        uint256 victimValue = InsuranceShares.toAssetsDown(s, victimShares);
        assertLe(attackerValue, 1 + d, "attacker profits");
        assertGe(victimValue + 2, v - v / 1e6, "victim loss beyond ACC-04");
        assertLe(attackerValue + victimValue, 1 + d + v, "ACC-01: more paid out than held");
    }

    // ───────────────────────────── held (epochs) ─────────────────────────────

    /// @dev A position counts only in the fund's current share epoch (a near-total loss wipes older epochs).
    function testFuzz_held_currentEpochOnly(uint192 shares, uint64 posEpoch, uint64 fundEpoch) public {
        address staker = makeAddr("staker");
        s.stakers[staker] = InsuranceFundStore.StakerShares(shares, posEpoch);
        s.shareEpoch = fundEpoch;
        assertEq(InsuranceShares.held(s, staker), posEpoch == fundEpoch ? shares : 0);
    }

    // ───────────────────────────── requirement and floor (CLR-01) ─────────────────────────────

    function checkFloorExt(address staker, uint256 remaining) external view {
        InsuranceShares.checkFloor(s, staker, remaining);
    }

    /// @dev CLR-01: the requirement is max(governance floor, pool requirement) (the floor alone without a pool), and
    ///      checkFloor reverts exactly when what remains is below it.
    function testFuzz_requirement_isMaxAndFloorReverts(
        uint256 floor,
        uint256 fromPool,
        bool withPool,
        uint256 remaining
    ) public {
        floor = bound(floor, 0, 1e30);
        fromPool = bound(fromPool, 0, 1e30);
        remaining = bound(remaining, 0, 1e30);
        address g = makeAddr("guarantor");
        s.requirement[g] = floor;
        if (withPool) {
            RequirementPoolStub pool = new RequirementPoolStub();
            pool.set(g, fromPool);
            s.guarantorPool = IGuarantorPool(address(pool));
        }
        uint256 expected = withPool && fromPool > floor ? fromPool : floor;
        assertEq(InsuranceShares.requirement(s, g), expected);
        if (remaining < expected) {
            vm.expectRevert(
                abi.encodeWithSelector(IInsuranceFundErrors.InsuranceGuarantorFloor.selector, g, expected, remaining)
            );
        }
        this.checkFloorExt(g, remaining);
    }
}
