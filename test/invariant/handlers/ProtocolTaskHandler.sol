// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";

/// @notice The client / council side of the protocol: a client submits USDC or DPS tasks (DPS tasks replenish
///         Emission), providers bid, keepers close bidding and draw councils, the executor commits, the council
///         votes, and anyone finalises, expires or claims council fees. Counts TSK-01 violations.
contract ProtocolTaskHandler is CommonBase, StdCheats, StdUtils {
    ITaskRegistry internal tasks;
    IERC20 internal usdc;
    IERC20 internal dps;
    address[3] public providers;
    address public client = address(0xC11E);
    uint256 public violationsTSK01;
    uint256 public finalized;
    /// @dev What each member committed (revealed with salt zero).
    mapping(uint256 id => mapping(address member => bytes32 result)) internal committed;
    bytes32 internal constant RESULT = keccak256("result");

    constructor(ITaskRegistry tasks_, IERC20 usdc_, IERC20 dps_, address[3] memory providers_) {
        tasks = tasks_;
        usdc = usdc_;
        dps = dps_;
        providers = providers_;
    }

    function _task(uint256 seed) internal view returns (uint256 id, ITaskRegistry.Task memory t) {
        uint256 n = tasks.taskCount();
        if (n == 0) return (0, t);
        id = 1 + (seed % n);
        t = tasks.getTask(id);
    }

    function clientSubmit(bool inDps, uint256 maxPayment) external {
        ITaskRegistry.Terms memory t = ITaskRegistry.Terms({
            currency: inDps ? ITaskRegistry.Currency.DPS : ITaskRegistry.Currency.USDC,
            responseMode: 1,
            councilSize: 1,
            quorum: 1,
            checkpoints: 2,
            maxBids: 0,
            workloadClass: 1,
            region: 0,
            bidWindowSec: 1 hours,
            deadline: uint40(block.timestamp + 2 days),
            maxPayment: uint128(bound(maxPayment, 10e6, 1_000e6) * (inDps ? 1e12 : 1)),
            capacityPflopsWad: 0.1e18,
            paymentParams: 0
        });
        ITaskRegistry.Prescription memory p = ITaskRegistry.Prescription({
            dataHash: keccak256("D"),
            modelHash: keccak256("M"),
            inputHash: keccak256("I"),
            outputFnHash: keccak256("f"),
            evalHash: keccak256("e"),
            uri: "ipfs://task"
        });
        vm.prank(client);
        try tasks.submit(t, p) {} catch {}
    }

    function providerBid(uint256 seed, uint256 providerSeed, uint256 priceBps) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0 || t.status != ITaskRegistry.Status.Bidding) return;
        uint256 price = (uint256(t.maxPayment) * bound(priceBps, 1_000, 9_000)) / 10_000;
        vm.prank(providers[providerSeed % 3]);
        try tasks.bid(id, uint128(price)) {} catch {}
    }

    function keeperCloseAndDraw(uint256 seed) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0) return;
        if (t.status == ITaskRegistry.Status.Bidding) {
            vm.warp(block.timestamp + 1 hours + 1);
            try tasks.closeBidding(id) {} catch {} // seals; the next call (seed block mined) selects
            t = tasks.getTask(id);
            if (t.status == ITaskRegistry.Status.Bidding && t.targetBlock != 0) {
                vm.roll(uint256(t.targetBlock) + 1);
                vm.setBlockhash(t.targetBlock, keccak256(abi.encode("block", t.targetBlock)));
                try tasks.closeBidding(id) {} catch {}
                t = tasks.getTask(id);
            }
        }
        if (t.targetBlock != 0 && block.number <= t.targetBlock) {
            vm.roll(uint256(t.targetBlock) + 1);
            vm.setBlockhash(t.targetBlock, keccak256(abi.encode("block", t.targetBlock)));
        }
        try tasks.drawCouncil(id) {} catch {}
    }

    function executorCommit(uint256 seed) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0 || t.status != ITaskRegistry.Status.Running) return;
        vm.startPrank(t.executor);
        try tasks.commit(id, 0, keccak256("checkpoint-0")) {} catch {}
        try tasks.commit(id, 1, RESULT) {} catch {}
        vm.stopPrank();
    }

    /// @dev Commit–reveal in one action: inside the commit window every member commits (the executor's result when
    ///      `agree`) and time moves just past the window; then every member reveals what it committed.
    function councilVote(uint256 seed, bool agree) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0 || t.status != ITaskRegistry.Status.Verifying) return;
        address[] memory c = tasks.councilOf(id, t.round);
        if (block.timestamp <= t.commitEnds) {
            for (uint256 i; i < c.length; ++i) {
                bytes32 r = agree ? t.resultHash : bytes32("other");
                committed[id][c[i]] = r;
                vm.prank(c[i]);
                try tasks.commitResult(id, keccak256(abi.encode(id, c[i], r, bytes32(0)))) {} catch {}
            }
            vm.warp(uint256(t.commitEnds) + 1);
        }
        for (uint256 i; i < c.length; ++i) {
            vm.prank(c[i]);
            try tasks.revealResult(id, committed[id][c[i]], bytes32(0)) {} catch {}
        }
    }

    /// TSK-01: finalising twice reverts.
    function anyoneFinalize(uint256 seed) external {
        (uint256 id, ) = _task(seed);
        if (id == 0) return;
        try tasks.finalize(id) {
            ++finalized;
            try tasks.finalize(id) {
                ++violationsTSK01;
            } catch {}
        } catch {}
    }

    function anyoneExpire(uint256 seed) external {
        (uint256 id, ) = _task(seed);
        if (id == 0) return;
        try tasks.expire(id) {} catch {}
    }

    function councilClaim(uint256 seed) external {
        (uint256 id, ITaskRegistry.Task memory t) = _task(seed);
        if (id == 0) return;
        address[] memory c = tasks.councilOf(id, t.round);
        for (uint256 i; i < c.length; ++i) {
            vm.prank(c[i]);
            try tasks.claimCouncilFee(id) {} catch {}
        }
    }
}
