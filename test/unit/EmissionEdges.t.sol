// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {EmissionSolBase} from "../helpers/EmissionSolBase.sol";
import {Emission} from "../../contracts/core/emission/Emission.sol";
import {IEmission} from "../../contracts/interfaces/emission/IEmission.sol";
import {IEmissionErrors} from "../../contracts/interfaces/emission/IEmissionErrors.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";

/// @notice Edge paths of Emission: initial-parameter validation, claims to the zero address, the rebalance and
///         unknown upkeep actions, the unbounded emission bound of time-only halvings, closeEpochs(0) and the
///         bounty cap.
contract EmissionEdgesTest is EmissionSolBase {
    address internal p1 = address(0xA1);
    address internal p2 = address(0xA2);

    function setUp() public {
        _deployEmission(0, 1);
    }

    function _initReverts(IEmission.InitParams memory p, bytes memory err) internal {
        address impl = address(new Emission());
        vm.expectRevert(err);
        _proxy(impl, abi.encodeCall(Emission.initialize, (address(manager), p)));
    }

    function _bad(bytes32 name, uint256 value) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(IEmissionErrors.EmissionInvalidParameter.selector, name, value);
    }

    function test_init_validatesParameters() public {
        IEmission.InitParams memory p = _params(0, 1);
        p.gfl = address(0);
        _initReverts(p, abi.encodeWithSelector(IChxModule.ChxZeroAddress.selector));
        p = _params(0, 1);
        p.rewardShareBps = 0;
        _initReverts(p, _bad("rewardShareBps", 0));
        p = _params(0, 1);
        p.rewardShareBps = 10_001;
        _initReverts(p, _bad("rewardShareBps", 10_001));
        p = _params(0, 1);
        p.initialRatioWad = 4; // 20 % × 4 rounds to a zero base rate
        _initReverts(p, _bad("initialRatioWad", 4));
        p = _params(0, 1);
        p.genesisTime = uint64(block.timestamp + 1);
        _initReverts(p, _bad("genesisTime", block.timestamp + 1));
    }

    function test_claim_toZeroAddressRejected() public {
        vm.prank(p1);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxZeroAddress.selector));
        emission.claim(address(0));
    }

    function test_emissionBound_unboundedWithoutGflHalvings() public view {
        assertEq(emission.emissionBound(), type(uint256).max);
    }

    /// After a close the keeper is told to rebalance; performUpkeep runs it; an unknown action is refused.
    function test_upkeep_rebalanceAndUnknownAction() public {
        _warpTo(0, 1);
        _record(p1, 100e18);
        _record(p2, 50e18);
        vm.warp(emission.epochStart(1));
        vm.expectRevert(_bad("maxEpochs", 0));
        emission.closeEpochs(0);
        emission.closeEpoch();
        (bool needed, bytes memory data) = emission.checkUpkeep("");
        assertTrue(needed);
        (uint8 action, ) = abi.decode(data, (uint8, uint256));
        assertEq(action, 2);
        emission.performUpkeep(data);
        (uint256 cursor, uint256 total) = emission.rebalanceProgress();
        assertEq(cursor, total);
        assertEq(total, 2);
        assertEq(gfl.balanceOf(p1), 100e18);
        assertEq(gfl.balanceOf(p2), 50e18);
        // action 3 is the collection (issue 18 item 4): without a sample source there is nothing to collect
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionCollectionComplete.selector, 1));
        emission.performUpkeep(abi.encode(uint8(3), uint256(1)));
        vm.expectRevert(abi.encodeWithSelector(IEmissionErrors.EmissionUnknownUpkeep.selector, 4));
        emission.performUpkeep(abi.encode(uint8(4), uint256(1)));
    }

    /// A close bounty above maxBountyDps is cut to the cap, even when the keeper budget could pay more.
    function test_bounty_cappedByMaxBounty() public {
        emission.setKeeperConfig(
            IEmission.BountyConfig({closeBountyDps: 1e18, perProviderBountyDps: 5e16, maxBountyDps: 0.5e18}),
            500,
            100
        );
        dps.approve(address(emission), 10e18);
        emission.fundKeeperBudget(10e18);
        _warpTo(0, 1);
        _record(p1, 100e18);
        vm.warp(emission.epochStart(1));
        address keeper = makeAddr("keeper");
        vm.prank(keeper);
        assertEq(emission.closeEpoch(), 0.5e18);
        assertEq(dps.balanceOf(keeper), 0.5e18);
    }

    /// A rebalance bounty (per provider × providers rebalanced) above maxBountyDps is cut to the cap.
    function test_bounty_rebalanceCappedByMaxBounty() public {
        emission.setKeeperConfig(
            IEmission.BountyConfig({closeBountyDps: 0, perProviderBountyDps: 5e16, maxBountyDps: 0.06e18}),
            500,
            100
        );
        dps.approve(address(emission), 10e18);
        emission.fundKeeperBudget(10e18);
        _warpTo(0, 1);
        _record(p1, 100e18);
        _record(p2, 50e18);
        vm.warp(emission.epochStart(1));
        emission.closeEpoch();
        address keeper = makeAddr("keeper");
        vm.prank(keeper);
        assertEq(emission.rebalance(2), 2);
        assertEq(dps.balanceOf(keeper), 0.06e18); // 2 × 0.05 capped at 0.06
    }
}
