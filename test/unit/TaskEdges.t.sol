// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../contracts/interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";
import {IStreamTasks} from "../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksStreamEvents} from "../../contracts/interfaces/tasks/IStreamTasksStreamEvents.sol";
import {IStreamTasksErrors} from "../../contracts/interfaces/tasks/IStreamTasksErrors.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @notice Edge paths of StreamTasks and TaskRegistry: term validation, subscription guards, every action on a
///         closed stream, late receipts, the zero-address guards, a stale council seed block, a dispute council
///         too large for the provider set, and the keeper's bid-count trigger.
contract TaskEdgesTest is TaskSolBase {
    bytes4 internal constant ZERO = bytes4(keccak256("ChxZeroAddress()"));
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    uint256 internal constant CLIENT_PK = 0xC11E57;
    IStreamTasks internal streams;
    address internal streamClient;

    function setUp() public {
        _deployTasks();
        streams = _deployStreams([address(ch), address(usdc), address(dps)]);
        streamClient = vm.addr(CLIENT_PK);
        usdc.mint(streamClient, 10_000e6);
        vm.prank(streamClient);
        usdc.approve(address(streams), type(uint256).max);
    }

    // ─── StreamTasks ────────────────────────────────────────────────────────────────────────────────────

    function _t() internal pure returns (IStreamTasks.StreamTerms memory) {
        return
            IStreamTasks.StreamTerms({
                currency: 1,
                mode: IStreamTasks.Mode.Optimistic,
                executors: 2,
                weightWad: 0,
                maxPrice: 2e6,
                maxFailures: 3,
                deposit: 1_000e6,
                inputHash: keccak256("I"),
                fnHash: keccak256("f")
            });
    }

    function _open() internal returns (uint256 id) {
        vm.prank(streamClient);
        id = streams.open(_t());
    }

    function _invalid(bytes32 reason) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(IStreamTasksErrors.StreamInvalidTerms.selector, reason);
    }

    function test_stream_termsValidated() public {
        IStreamTasks.StreamTerms memory t = _t();
        t.currency = 3;
        vm.prank(streamClient);
        vm.expectRevert(_invalid("currency"));
        streams.open(t);
        t = _t();
        t.maxPrice = 0;
        vm.prank(streamClient);
        vm.expectRevert(_invalid("amount"));
        streams.open(t);
        t = _t();
        t.deposit = 0;
        vm.prank(streamClient);
        vm.expectRevert(_invalid("amount"));
        streams.open(t);
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](1);
        vm.expectRevert(_invalid("length"));
        streams.settle(rs, new bytes[](0));
    }

    function test_stream_subscriptionGuards() public {
        uint256 id = _open();
        vm.prank(streamClient);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamIneligible.selector, streamClient));
        streams.subscribe(id, 1e6);
        vm.startPrank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamPriceTooHigh.selector, 0, 2e6));
        streams.subscribe(id, 0);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamPriceTooHigh.selector, 2e6 + 1, 2e6));
        streams.subscribe(id, 2e6 + 1);
        streams.subscribe(id, 1.5e6);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamSubscription.selector, providers[0]));
        streams.subscribe(id, 1e6);
        vm.stopPrank();
        // Not an onboarded provider: the matcher rejects it.
        address stranger = makeAddr("stranger");
        vm.prank(stranger);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamIneligible.selector, stranger));
        streams.subscribe(id, 1e6);
        (uint128 price, uint64 paid, , ) = streams.subscription(id, providers[0]);
        assertEq(price, 1.5e6);
        assertEq(paid, 0);
        // Only a live stream can report a failed consensus (one subscriber of two: still open).
        vm.prank(streamClient);
        vm.expectRevert(
            abi.encodeWithSelector(IStreamTasksErrors.StreamWrongStatus.selector, id, IStreamTasks.Status.Open)
        );
        streams.reportFailedConsensus(id);
    }

    function test_stream_fundThenClosedStreamRejectsEverything() public {
        uint256 id = _open();
        vm.prank(streamClient);
        vm.expectRevert(
            abi.encodeWithSelector(IStreamTasksErrors.StreamWrongStatus.selector, id, IStreamTasks.Status.Open)
        );
        streams.withdraw(id);
        vm.prank(streamClient);
        vm.expectEmit(address(streams));
        emit IStreamTasksStreamEvents.StreamFunded(id, 500e6, 1_500e6);
        streams.fund(id, 500e6);
        assertEq(streams.getStream(id).deposit, 1_500e6);
        assertEq(usdc.balanceOf(address(streams)), 1_500e6);

        vm.startPrank(streamClient);
        streams.retract(id);
        bytes memory closed = abi.encodeWithSelector(
            IStreamTasksErrors.StreamWrongStatus.selector,
            id,
            IStreamTasks.Status.Closed
        );
        vm.expectRevert(closed);
        streams.retract(id);
        vm.expectRevert(closed);
        streams.fund(id, 1e6);
        vm.expectRevert(closed);
        streams.updateSpec(id, keccak256("I2"), keccak256("f2"));
        vm.stopPrank();

        // After the settle grace, receipts are refused.
        vm.warp(block.timestamp + 1 days + 1);
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](1);
        rs[0] = IStreamTasks.Receipt({streamId: id, provider: providers[0], answered: 1, amount: 1e6});
        bytes[] memory sigs = new bytes[](1);
        sigs[0] = signDigest(CLIENT_PK, streams.receiptDigest(rs[0]));
        vm.expectRevert(closed);
        streams.settle(rs, sigs);
        vm.prank(streamClient);
        streams.withdraw(id);
        assertEq(usdc.balanceOf(streamClient), 10_000e6);
    }

    function test_stream_initRejectsZeroAddresses() public {
        address impl = deployCode("StreamTasks.sol:StreamTasks");
        address[3] memory toks = [address(ch), address(usdc), address(dps)];
        vm.expectRevert(ZERO);
        new ERC1967Proxy(
            impl,
            abi.encodeWithSignature("initialize(address,address,address[3],uint32)", manager, address(0), toks, 1)
        );
        toks[2] = address(0);
        vm.expectRevert(ZERO);
        new ERC1967Proxy(
            impl,
            abi.encodeWithSignature("initialize(address,address,address[3],uint32)", manager, matcher, toks, 1)
        );
    }

    // ─── TaskRegistry ───────────────────────────────────────────────────────────────────────────────────

    function test_task_termsValidated() public {
        ITaskRegistry.Terms memory t = _terms(USDC, 1_000e6, 3, 2);
        t.checkpoints = 0;
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidTerms.selector, bytes32("checkpoints")));
        tasks.submit(t, _prescription());
        t = _terms(USDC, 1_000e6, 3, 2);
        t.checkpoints = 33;
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidTerms.selector, bytes32("checkpoints")));
        tasks.submit(t, _prescription());
        t = _terms(USDC, 1_000e6, 3, 2);
        t.maxBids = 33;
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidTerms.selector, bytes32("maxBids")));
        tasks.submit(t, _prescription());
        t = _terms(USDC, 0, 3, 2);
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskInvalidTerms.selector, bytes32("maxPayment")));
        tasks.submit(t, _prescription());
    }

    function test_task_initRejectsZeroAddresses() public {
        address[3] memory toks = [address(ch), address(usdc), address(dps)];
        bytes memory init = abi.encodeWithSignature(
            "initialize(address,address,address,address[3],address,(uint16,uint16,uint16,uint8,uint8,uint32,uint32,uint32,uint128))",
            manager,
            address(0),
            matcher,
            toks,
            pool,
            _params()
        );
        address impl = deployCode("TaskRegistry.sol:TaskRegistry");
        vm.expectRevert(ZERO);
        new ERC1967Proxy(impl, init);
        toks[1] = address(0);
        init = abi.encodeWithSignature(
            "initialize(address,address,address,address[3],address,(uint16,uint16,uint16,uint8,uint8,uint32,uint32,uint32,uint128))",
            manager,
            registry,
            matcher,
            toks,
            pool,
            _params()
        );
        vm.expectRevert(ZERO);
        new ERC1967Proxy(impl, init);
    }

    /// A seed block older than 256 blocks has no hash any more: drawing re-commits to the next block instead of
    /// using a value someone could have chosen; the council is drawn from that one.
    function test_task_staleSeedBlockRecommits() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        tasks.closeBidding(id); // seal
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 257);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.BiddingSealed(id, target + 258, registry.drawCount());
        tasks.closeBidding(id); // the seal's seed aged out: re-seal
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Bidding));
        target = tasks.getTask(id).targetBlock;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode("block", target)));
        tasks.closeBidding(id); // select
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Running));
        vm.roll(target + 257);
        tasks.drawCouncil(id);
        assertEq(tasks.getTask(id).targetBlock, target + 258);
        assertEq(tasks.councilOf(id, 0).length, 0);
        _draw(id);
        assertEq(tasks.councilOf(id, 0).length, 3);
    }

    /// The second closeBidding call waits for the seed block; bids are refused once sealed.
    function test_task_selectionWaitsForTheSeedBlock() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        tasks.closeBidding(id);
        uint256 target = tasks.getTask(id).targetBlock;
        assertEq(target, block.number + 1);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskSeedPending.selector, id, target));
        tasks.closeBidding(id);
        vm.prank(providers[2]);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistryErrors.TaskBiddingClosed.selector, id, tasks.getTask(id).biddingEnds)
        );
        tasks.bid(id, 1e6);
    }

    /// A dispute council (2n + 1, excluding the executor and the first council) the provider set cannot staff.
    function test_task_disputeCouncilUnavailable() public {
        uint256 id = _submit(USDC, 1_000e6, 4, 3);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        vm.startPrank(providers[1]);
        tasks.commit(id, 0, keccak256("checkpoint-0"));
        tasks.commit(id, 1, keccak256("result"));
        vm.stopPrank();
        _voteMask(id, 0, 4, 3);
        tasks.openDispute(id);
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode("block", target)));
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskCouncilUnavailable.selector, 9, 3));
        tasks.drawCouncil(id);
    }

    /// Agreement already at quorum: nothing to dispute.
    function test_task_noDisputeOnceAgreed() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        vm.startPrank(providers[1]);
        tasks.commit(id, 0, keccak256("checkpoint-0"));
        tasks.commit(id, 1, keccak256("result"));
        vm.stopPrank();
        _voteAll(id, 0, true, 2);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoDisagreement.selector, id));
        tasks.openDispute(id);
    }

    /// best-of-first-N: the keeper closes bidding as soon as the bid count reaches maxBids, then draws the council
    /// once the seed block is mined.
    function test_task_checkerClosesFullBiddingThenDraws() public {
        ITaskRegistry.Terms memory t = _terms(USDC, 1_000e6, 3, 2);
        t.maxBids = 2;
        vm.prank(client);
        uint256 id = tasks.submit(t, _prescription());
        _bid(id, providers[0], 500e6);
        (bool canExec, ) = _keeper().checker();
        assertFalse(canExec);
        _bid(id, providers[1], 400e6);
        bytes memory payload;
        (canExec, payload) = _keeper().checker();
        assertTrue(canExec);
        assertEq(payload, abi.encodeCall(ITaskRegistry.closeBidding, (id)));
        tasks.closeBidding(id); // seal
        (canExec, ) = _keeper().checker();
        assertFalse(canExec, "nothing due until the seed block is mined");
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode("block", target)));
        (canExec, payload) = _keeper().checker();
        assertTrue(canExec);
        assertEq(payload, abi.encodeCall(ITaskRegistry.closeBidding, (id)));
        tasks.closeBidding(id); // select
        (canExec, payload) = _keeper().checker();
        assertTrue(canExec);
        assertEq(payload, abi.encodeCall(ITaskRegistry.drawCouncil, (id)));
    }

    /// With slashing switched off (slashDps = 0) a rejected executor keeps its stake; the keeper finalises the
    /// rejection once the appeal window is over.
    function test_task_rejectionWithoutSlashing() public {
        ITaskRegistry.Params memory p = _params();
        p.slashDps = 0;
        tasks.setParams(p);
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        uint256 stakeBefore = registry.providerInfo(providers[1]).stakedDps;
        _commitAll(id, providers[1], keccak256("fabricated"));
        _voteAll(id, 0, false, 3);
        (bool canExec, ) = _keeper().checker();
        assertFalse(canExec, "appeal window still open");
        vm.warp(tasks.getTask(id).votingEnds + 1);
        bytes memory payload;
        (canExec, payload) = _keeper().checker();
        assertTrue(canExec);
        assertEq(payload, abi.encodeCall(ITaskRegistry.finalize, (id)));
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(registry.providerInfo(providers[1]).stakedDps, stakeBefore);
    }
}
