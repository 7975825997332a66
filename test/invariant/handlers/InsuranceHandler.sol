// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {InsuranceFund} from "../../../contracts/core/clearing/InsuranceFund.sol";
import {IInsuranceFund} from "../../../contracts/interfaces/clearing/IInsuranceFund.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

/// @notice Drives the insurance fund as stakers (one of them a guarantor with a requirement), the fee depositor,
///         the bad-debt coverer (clearing), a donor, and time. Ghosts record every flow in and out.
contract InsuranceHandler is Test {
    InsuranceFund internal fund;
    MockERC20 internal usdc;
    address internal clearing;
    address[3] internal actors = [address(0x5A1), address(0x5A2), address(0x5A3)];

    uint256 public currentTime;
    uint256 public ghostStaked;
    uint256 public ghostFees;
    uint256 public ghostCovered;
    uint256 public ghostWithdrawn;
    uint256 public ghostDonated;
    /// @dev Set when a withdrawal succeeded outside its cooled-down window (LIQ-06 violation).
    bool public uncooledWithdraw;
    /// @dev Set when the fund's assets fell during an action that is not cover or withdraw (LIQ-06 violation).
    bool public unexplainedDecrease;
    /// @dev Set when cover paid more than asked or more than the fund held (LIQ-03 "none goes negative").
    bool public overCovered;
    mapping(bytes32 => uint256) public calls;

    constructor(InsuranceFund fund_, MockERC20 usdc_, address clearing_) {
        fund = fund_;
        usdc = usdc_;
        clearing = clearing_;
        currentTime = block.timestamp;
    }

    modifier useTime() {
        vm.warp(currentTime);
        _;
    }

    /// @dev Any action other than cover/withdraw must not lower the fund.
    modifier nonDecreasing() {
        uint256 before = fund.totalAssets();
        _;
        if (fund.totalAssets() < before) unexplainedDecrease = true;
    }

    function actor(uint256 i) public view returns (address) {
        return actors[i % actors.length];
    }

    function stake(uint256 who, uint256 amount) external useTime nonDecreasing {
        calls["stake"]++;
        address a = actor(who);
        amount = bound(amount, 1, 1e13);
        if (fund.previewStake(amount) == 0) return;
        usdc.mint(a, amount);
        vm.startPrank(a);
        usdc.approve(address(fund), amount);
        fund.stake(amount);
        vm.stopPrank();
        ghostStaked += amount;
    }

    function requestWithdraw(uint256 who, uint256 sharesSeed) external useTime nonDecreasing {
        calls["request"]++;
        address a = actor(who);
        uint256 held = fund.sharesOf(a);
        if (held == 0) return;
        vm.prank(a);
        try fund.requestWithdraw(bound(sharesSeed, 1, held)) {} catch {}
    }

    function cancelWithdraw(uint256 who) external useTime nonDecreasing {
        calls["cancel"]++;
        vm.prank(actor(who));
        try fund.cancelWithdraw() {} catch {}
    }

    function withdraw(uint256 who, uint256 sharesSeed) external useTime {
        calls["withdraw"]++;
        address a = actor(who);
        IInsuranceFund.WithdrawRequest memory req = fund.withdrawRequest(a);
        uint256 shares = bound(sharesSeed, 1, req.shares == 0 ? 1 : req.shares);
        uint256 before = fund.totalAssets();
        vm.prank(a);
        try fund.withdraw(shares, a) returns (uint256 out) {
            if (req.shares == 0 || currentTime < req.readyAt || currentTime > req.expiresAt) uncooledWithdraw = true;
            if (before - fund.totalAssets() != out) unexplainedDecrease = true;
            ghostWithdrawn += out;
        } catch {}
    }

    function depositFees(uint256 amount) external useTime nonDecreasing {
        calls["fees"]++;
        amount = bound(amount, 1, 1e12);
        usdc.mint(clearing, amount);
        vm.startPrank(clearing);
        usdc.approve(address(fund), amount);
        fund.depositFees(amount);
        vm.stopPrank();
        ghostFees += amount;
    }

    function coverBadDebt(uint256 amount) external useTime {
        calls["cover"]++;
        amount = bound(amount, 0, 2e13);
        uint256 before = fund.totalAssets();
        vm.prank(clearing);
        uint256 covered = fund.coverBadDebt(amount, clearing);
        if (covered > amount || covered > before || covered != (amount < before ? amount : before)) {
            overCovered = true;
        }
        if (before - fund.totalAssets() != covered) unexplainedDecrease = true;
        ghostCovered += covered;
    }

    function setRequirement(uint256 who, uint256 amount) external useTime nonDecreasing {
        calls["requirement"]++;
        vm.prank(clearing);
        fund.setGuarantorRequirement(actor(who), bound(amount, 0, 1e13));
    }

    function donate(uint256 amount) external useTime nonDecreasing {
        calls["donate"]++;
        amount = bound(amount, 1, 1e12);
        usdc.mint(address(fund), amount);
        ghostDonated += amount;
    }

    function warp(uint256 dt) external nonDecreasing {
        calls["warp"]++;
        currentTime += bound(dt, 0, 5 days);
        vm.warp(currentTime);
    }

    function sumShares() external view returns (uint256 s) {
        for (uint256 i = 0; i < actors.length; ++i) s += fund.sharesOf(actors[i]);
    }

    function sumClaims() external view returns (uint256 s) {
        for (uint256 i = 0; i < actors.length; ++i) s += fund.previewWithdraw(fund.sharesOf(actors[i]));
    }
}
