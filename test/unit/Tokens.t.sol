// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ChxSolBase} from "../helpers/ChxSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IGFLToken} from "../../contracts/interfaces/tokens/IGFLToken.sol";

/// @notice Fuzzed token properties: GFL never moves (EMI-03); DPS/CH/GFL Σ balances = total supply (ACC-02).
contract TokensFuzzTest is ChxSolBase {
    address internal emission = address(0xE1);
    address internal registry = address(0xC4);

    function setUp() public {
        _deployBase();
        _grant(Roles.EMISSION, emission);
        _grant(Roles.CH_MINTER, registry);
    }

    function testFuzz_gflNeverTransfers(address from, address to, uint96 amount) public {
        vm.assume(from != address(0) && to != address(0));
        vm.prank(emission);
        gfl.mint(from, amount);
        vm.prank(from);
        vm.expectRevert(IGFLToken.GFLNonTransferable.selector);
        gfl.transfer(to, amount);
        vm.prank(to);
        vm.expectRevert(IGFLToken.GFLNonTransferable.selector);
        gfl.transferFrom(from, to, amount);
        assertEq(gfl.balanceOf(from), amount);
    }

    function testFuzz_gflSetBalanceKeepsSupplyEqualToSum(uint96 a, uint96 b, uint96 a2) public {
        address p1 = address(0x1001);
        address p2 = address(0x1002);
        vm.startPrank(emission);
        gfl.setBalance(p1, a);
        gfl.setBalance(p2, b);
        gfl.setBalance(p1, a2);
        vm.stopPrank();
        assertEq(gfl.totalSupply(), uint256(a2) + uint256(b));
        assertEq(gfl.balanceOf(p1), a2);
    }

    function testFuzz_chMintBurnSupply(uint96 minted, uint96 burned) public {
        vm.assume(burned <= minted);
        address holder = address(0xBEEF);
        vm.startPrank(registry);
        ch.mint(holder, minted);
        ch.burn(holder, burned);
        vm.stopPrank();
        assertEq(ch.totalSupply(), uint256(minted) - burned);
        assertEq(ch.balanceOf(holder), ch.totalSupply());
    }

    function testFuzz_dpsMintOnlyByEmission(address caller, uint96 amount) public {
        vm.assume(caller != emission && caller != address(this) && caller != address(0));
        vm.prank(caller);
        vm.expectRevert();
        dps.mint(caller, amount);
        vm.prank(emission);
        dps.mint(caller, amount);
        assertEq(dps.totalEmitted(), amount);
        assertEq(dps.totalSupply(), GENESIS_DPS + amount);
    }
}
