// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PerpSolBase} from "../helpers/PerpSolBase.sol";
import {DeployDefaults} from "../utils/DeployDefaults.sol";
import {IPerpMarket, IPerpMarketErrors} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {MockRiskPriceIndex} from "../../contracts/mocks/MockRiskPriceIndex.sol";

/// @notice PerpMarket's ClearingHouse and index oracle are implementation immutables (issue 18 item 4: no storage
///         read of them on the execution path). Attacks: a proxy initialised against another ClearingHouse or oracle
///         than the implementation is bound to (it would be checked by one and settle on the other), a zero module
///         in the constructor, the liquidation hook called by the ClearingHouse the proxy was *initialised* with but
///         not bound to, and a second proxy re-using an implementation (SEC-02: the binding survives, the
///         implementation itself cannot be initialised).
contract PerpImmutablesTest is PerpSolBase {
    address internal burnSink = makeAddr("burnSink2");

    function setUp() public {
        _deployPerps();
    }

    /// @dev External so a constructor revert surfaces as a failed call the test can catch.
    function deployImpl(address ch, address oracle) external returns (address) {
        return deployCode("PerpMarket.sol:PerpMarket", abi.encode(ch, oracle));
    }

    function _init(address ch, address oracle) internal view returns (bytes memory) {
        return
            abi.encodeWithSignature(
                DeployDefaults.PERP_INITIALIZE_SIG,
                address(manager),
                ch,
                oracle,
                address(vault),
                burnSink,
                DeployDefaults.perp()
            );
    }

    /// The market answers with the modules its implementation is bound to.
    function test_modules_areTheImplementationBinding() public {
        (address ch, address oracle, address v, , address sink) = perp.modules();
        assertEq(ch, address(chouse));
        assertEq(oracle, address(index));
        assertEq(v, address(vault));
        assertEq(sink, makeAddr("burnSink"));
    }

    /// A zero ClearingHouse or oracle cannot be baked into an implementation.
    function test_constructor_zeroModuleRejected() public {
        try this.deployImpl(address(0), address(index)) returns (address) {
            fail();
        } catch {}
        try this.deployImpl(address(chouse), address(0)) returns (address) {
            fail();
        } catch {}
    }

    /// Attack: a proxy initialised with an oracle other than the implementation's (a second index the attacker
    /// controls) would pass the deploy record's check while pricing from the bound one. The initializer refuses.
    function test_initialize_otherOracle_reverts() public {
        address impl = this.deployImpl(address(chouse), address(index));
        MockRiskPriceIndex other = MockRiskPriceIndex(
            deployCode("MockRiskPriceIndex.sol:MockRiskPriceIndex", abi.encode(PRICE0 * 2))
        );
        vm.expectRevert(
            abi.encodeWithSelector(IPerpMarketErrors.PerpModuleMismatch.selector, address(other), address(index))
        );
        _proxy(impl, _init(address(chouse), address(other)));
    }

    /// Attack: a proxy initialised with another ClearingHouse than the implementation's. The initializer refuses.
    function test_initialize_otherClearingHouse_reverts() public {
        address impl = this.deployImpl(address(chouse), address(index));
        address fake = makeAddr("fakeClearingHouse");
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpModuleMismatch.selector, fake, address(chouse)));
        _proxy(impl, _init(fake, address(index)));
    }

    /// Attack: the liquidation hook called by an address that is not the bound ClearingHouse (here the one a
    /// misconfigured proxy would have been initialised with) reverts; only the bound one gets through.
    function test_liquidationHook_onlyBoundClearingHouse() public {
        address fake = makeAddr("fakeClearingHouse");
        vm.prank(fake);
        vm.expectRevert(abi.encodeWithSelector(IPerpMarketErrors.PerpOnlyClearingHouse.selector, fake));
        perp.onPositionLiquidated(makeAddr("victim"), 1e18, PRICE0, 0);
        vm.prank(address(chouse));
        perp.onPositionLiquidated(makeAddr("victim"), 0, PRICE0, 0);
    }

    /// SEC-02: one implementation serves a second proxy with the same binding; the implementation itself cannot be
    /// initialised (its constructor disabled the initializers).
    function test_sharedImplementation_secondProxy_andImplementationLocked() public {
        address impl = this.deployImpl(address(chouse), address(index));
        IPerpMarket second = IPerpMarket(_proxy(impl, _init(address(chouse), address(index))));
        (address ch, address oracle, , , ) = second.modules();
        assertEq(ch, address(chouse));
        assertEq(oracle, address(index));
        (bool ok, ) = impl.call(_init(address(chouse), address(index)));
        assertFalse(ok);
    }
}
