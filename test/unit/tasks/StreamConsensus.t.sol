// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {StreamConsensusBase} from "./StreamConsensusBase.sol";
import {IStreamTasks} from "../../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksTypes} from "../../../contracts/interfaces/tasks/IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "../../../contracts/interfaces/tasks/IStreamTasksErrors.sol";
import {IStreamTasksEvents} from "../../../contracts/interfaces/tasks/IStreamTasksEvents.sol";
import {IStreamTasksVerdictEvents} from "../../../contracts/interfaces/tasks/IStreamTasksVerdictEvents.sol";

/// @notice Issue 21 item 4: the modes on chain — optimistic (first answer, challenge with a bond, the others decide),
///         weighted and unanimous consensus, parameters, windows and the failure count.
contract StreamConsensusTest is StreamConsensusBase {
    bytes32 internal constant A = keccak256("answer A");
    bytes32 internal constant B = keccak256("answer B");
    address internal challenger = address(0xC4A1);

    function _challenge(uint256 id, uint32 r) internal {
        _fundChallenger();
        vm.prank(challenger);
        streams.challenge(id, r);
    }

    function _fundChallenger() internal {
        usdc.mint(challenger, 20e6);
        vm.prank(challenger);
        usdc.approve(address(streams), 20e6);
    }

    function test_optimistic_unchallenged_firstAnswerStands() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Optimistic, 3, 0);
        vm.expectEmit(address(streams));
        emit IStreamTasksEvents.AnswerDelivered(id, r, providers[1], A, uint40(block.timestamp + 1 hours));
        vm.prank(providers[1]);
        streams.answer(id, r, A);
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamAnswerRejected.selector, providers[0]));
        streams.answer(id, r, B);
        // optimistic requests take no blind commitment before a challenge
        vm.prank(providers[0]);
        vm.expectPartialRevert(IStreamTasksErrors.StreamRequestPhase.selector);
        streams.commitAnswer(id, r, bytes32("c"));
        vm.expectPartialRevert(IStreamTasksErrors.StreamNotResolvable.selector);
        streams.resolve(id, r);
        vm.warp(block.timestamp + 1 hours + 1);
        _fundChallenger();
        vm.prank(challenger);
        vm.expectPartialRevert(IStreamTasksErrors.StreamOutsideWindow.selector);
        streams.challenge(id, r);
        streams.resolve(id, r);
        IStreamTasksTypes.Request memory q = streams.getRequest(id, r);
        assertEq(q.answer, A);
        assertTrue(q.consensus);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotFaulty.selector, id, r, providers[0]));
        _slash(id, r, providers[0]);
        vm.expectPartialRevert(IStreamTasksErrors.StreamRequestPhase.selector);
        streams.resolve(id, r);
    }

    function test_optimistic_unanswered_everyMemberAtFault() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Optimistic, 2, 0);
        vm.warp(block.timestamp + 1 hours + 1);
        vm.prank(providers[0]);
        vm.expectPartialRevert(IStreamTasksErrors.StreamOutsideWindow.selector);
        streams.answer(id, r, A);
        _fundChallenger();
        vm.prank(challenger);
        vm.expectPartialRevert(IStreamTasksErrors.StreamRequestPhase.selector);
        streams.challenge(id, r);
        streams.resolve(id, r);
        assertFalse(streams.getRequest(id, r).consensus);
        assertEq(streams.getStream(id).failures, 1);
        _slash(id, r, providers[0]);
        _slash(id, r, providers[1]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotMember.selector, id, r, providers[2]));
        _slash(id, r, providers[2]);
        vm.warp(block.timestamp + 1 days + 1);
        vm.expectPartialRevert(IStreamTasksErrors.StreamSlashWindowOver.selector);
        _slash(id, r, providers[0]);
    }

    /// A wrong first answer is challenged; the other members' blind answers overturn it: the first answerer is
    /// slashed, the corrected answer delivered, the challenger's bond returned.
    function test_optimistic_challenge_overturnsWrongFirstAnswer() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Optimistic, 3, 0);
        vm.prank(providers[0]);
        streams.answer(id, r, B);
        _challenge(id, r);
        assertEq(usdc.balanceOf(address(streams)), 1_000e6 + 20e6, "bond = 10 x maxPrice");
        vm.prank(providers[0]);
        vm.expectPartialRevert(IStreamTasksErrors.StreamRequestPhase.selector);
        streams.commitAnswer(id, r, bytes32("c")); // the challenged answerer does not judge itself
        _commit(id, r, 1, A);
        _commit(id, r, 2, A);
        _reveal(id, r, 1, A);
        _reveal(id, r, 2, A);
        vm.expectEmit(address(streams));
        emit IStreamTasksVerdictEvents.ChallengeBondPaid(id, r, challenger, 20e6);
        streams.resolve(id, r);
        assertEq(streams.getRequest(id, r).answer, A);
        assertEq(usdc.balanceOf(challenger), 20e6);
        _slash(id, r, providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotFaulty.selector, id, r, providers[1]));
        _slash(id, r, providers[1]);
    }

    /// A false challenge: the others confirm the first answer; the bond goes to the first answerer. A member that
    /// did not reveal is at fault.
    function test_optimistic_falseChallenge_losesBond() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Optimistic, 3, 0);
        vm.prank(providers[0]);
        streams.answer(id, r, A);
        _challenge(id, r);
        _commit(id, r, 1, A);
        vm.warp(block.timestamp + 1 hours + 1);
        _reveal(id, r, 1, A);
        vm.expectPartialRevert(IStreamTasksErrors.StreamNotResolvable.selector);
        streams.resolve(id, r);
        vm.warp(block.timestamp + 1 hours);
        streams.resolve(id, r);
        assertEq(usdc.balanceOf(providers[0]), 20e6);
        assertTrue(streams.getRequest(id, r).consensus);
        _slash(id, r, providers[2]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotFaulty.selector, id, r, providers[0]));
        _slash(id, r, providers[0]);
    }

    /// Undecided challenge (nobody revealed): the bond returns, the first answer stands unproven, only the silent
    /// members are at fault.
    function test_optimistic_undecidedChallenge_refundsBond() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Optimistic, 2, 0);
        vm.prank(providers[0]);
        streams.answer(id, r, A);
        _challenge(id, r);
        vm.warp(block.timestamp + 2 hours + 1);
        streams.resolve(id, r);
        assertEq(usdc.balanceOf(challenger), 20e6);
        assertEq(streams.getRequest(id, r).answer, A);
        assertFalse(streams.getRequest(id, r).consensus);
        _slash(id, r, providers[1]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotFaulty.selector, id, r, providers[0]));
        _slash(id, r, providers[0]);
    }

    function test_weighted_belowQuorum_noConsensus() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Weighted, 3, 1e18);
        _commit(id, r, 0, A);
        _commit(id, r, 1, A);
        vm.expectPartialRevert(IStreamTasksErrors.StreamOutsideWindow.selector);
        _reveal(id, r, 0, A); // not everybody committed: reveals wait for the window
        vm.warp(block.timestamp + 1 hours + 1);
        _reveal(id, r, 0, A);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamAnswerRejected.selector, providers[0]));
        _reveal(id, r, 0, A);
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamAnswerRejected.selector, providers[1]));
        streams.revealAnswer(id, r, A, bytes32("wrong salt"));
        _reveal(id, r, 1, A);
        vm.warp(block.timestamp + 1 hours);
        streams.resolve(id, r);
        IStreamTasksTypes.Request memory q = streams.getRequest(id, r);
        assertFalse(q.consensus, "w = 1 needs all 3");
        assertTrue(q.decided);
        assertEq(q.answer, A, "the most weighted answer is still delivered");
    }

    function test_unanimous_allAgree_andFailuresInterrupt() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Unanimous, 2, 0);
        _commit(id, r, 0, A);
        _commit(id, r, 1, A);
        _reveal(id, r, 0, A);
        _reveal(id, r, 1, A);
        streams.resolve(id, r);
        assertTrue(streams.getRequest(id, r).consensus);
        // three silent requests: the third interrupts the stream (maxFailures 3)
        for (uint256 i; i < 3; ++i) {
            r = _ask(id);
            vm.warp(block.timestamp + 2 hours + 1);
            streams.resolve(id, r);
        }
        assertEq(uint8(streams.getStream(id).status), uint8(IStreamTasks.Status.Interrupted));
        vm.prank(streamClient);
        vm.expectRevert(
            abi.encodeWithSelector(IStreamTasksErrors.StreamWrongStatus.selector, id, IStreamTasks.Status.Interrupted)
        );
        streams.request(id, bytes32("p"));
        assertEq(streams.requestCount(id), 4);
    }

    function test_commit_guards() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Unanimous, 2, 0);
        vm.prank(providers[5]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotMember.selector, id, r, providers[5]));
        streams.commitAnswer(id, r, bytes32("c"));
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamAnswerRejected.selector, providers[0]));
        streams.commitAnswer(id, r, 0);
        _commit(id, r, 0, A);
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamAnswerRejected.selector, providers[0]));
        streams.commitAnswer(id, r, bytes32("again"));
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamAnswerRejected.selector, providers[0]));
        streams.answer(id, r, A); // no first answer outside optimistic
        assertEq(
            streams.answerOf(id, r, providers[0]).commitment,
            streams.answerCommitment(id, r, providers[0], A, bytes32(uint256(1)))
        );
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotClient.selector, providers[0]));
        streams.request(id, bytes32("p"));
        // a member joining later is not a member of the earlier request
        assertEq(streams.dutyOf(id, providers[0]).fromRequest, 1);
        vm.expectPartialRevert(IStreamTasksErrors.StreamRequestPhase.selector);
        _slash(id, r, providers[0]);
    }

    function test_params_validatedAndRequired() public {
        IStreamTasksTypes.ConsensusParams memory p = _cp();
        p.revealWindowSec = 0;
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamConsensusParams.selector, bytes32("window")));
        streams.setConsensusParams(p);
        p = _cp();
        p.clientPenaltyBps = 10_001;
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamConsensusParams.selector, bytes32("penalty")));
        streams.setConsensusParams(p);
        p = _cp();
        p.challengeBondRequests = 0;
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamConsensusParams.selector, bytes32("bond")));
        streams.setConsensusParams(p);
        p = _cp();
        p.slashDps = STREAM_SLASH + 1;
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamConsensusParams.selector, bytes32("slash")));
        streams.setConsensusParams(p);
        vm.prank(providers[0]);
        vm.expectRevert();
        streams.setConsensusParams(_cp());
        assertEq(streams.consensusParams().slashDps, STREAM_SLASH);
        // a fresh StreamTasks without parameters takes no request
        IStreamTasks fresh = _deployStreams([address(ch), address(usdc), address(dps)]);
        vm.prank(streamClient);
        usdc.approve(address(fresh), type(uint256).max);
        vm.prank(streamClient);
        uint256 id = fresh.open(
            IStreamTasks.StreamTerms({
                currency: 1,
                mode: IStreamTasks.Mode.Optimistic,
                executors: 1,
                weightWad: 0,
                maxPrice: MAX_PRICE,
                maxFailures: 0,
                deposit: 1e6,
                inputHash: 0,
                fnHash: 0
            })
        );
        vm.prank(providers[0]);
        fresh.subscribe(id, 1e6);
        vm.prank(streamClient);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamConsensusParams.selector, bytes32("unset")));
        fresh.request(id, bytes32("p"));
    }

    /// The deposit must cover a request for every member at maxPrice plus the client penalty.
    function test_request_needsDepositForEveryMember() public {
        vm.prank(streamClient);
        uint256 id = streams.open(
            IStreamTasks.StreamTerms({
                currency: 1,
                mode: IStreamTasks.Mode.Unanimous,
                executors: 2,
                weightWad: 0,
                maxPrice: MAX_PRICE,
                maxFailures: 0,
                deposit: 5e6,
                inputHash: 0,
                fnHash: 0
            })
        );
        vm.prank(providers[0]);
        streams.subscribe(id, 1e6);
        vm.prank(providers[1]);
        streams.subscribe(id, 1e6);
        vm.prank(streamClient);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamDepositTooLow.selector, 6e6, 5e6));
        streams.request(id, bytes32("p"));
        vm.prank(streamClient);
        streams.fund(id, 1e6);
        vm.prank(streamClient);
        assertEq(streams.request(id, bytes32("p")), 1);
    }

    /// A member that left after its duty ended re-joins: its old lock is released and a fresh one taken.
    function test_rejoinAfterDuty_relocks() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Unanimous, 2, 0);
        vm.prank(providers[1]);
        streams.unsubscribe(id);
        vm.warp(block.timestamp + 2 hours + 1);
        streams.resolve(id, r);
        vm.warp(streams.dutyOf(id, providers[1]).lockUntil + 1);
        vm.prank(providers[1]);
        streams.subscribe(id, 1e6);
        (, , , uint96 locked) = streams.subscription(id, providers[1]);
        assertEq(locked, STREAM_SLASH);
        assertEq(streams.dutyOf(id, providers[1]).fromRequest, 2);
    }

    /// TSK-03 fuzz: for any pattern of silent members and two answers among 4 equal-stake members, exactly the silent
    /// ones and (when a strict majority exists) those outside it can be slashed, each once; the rest lose nothing.
    function testFuzz_onlyFaultyMembersAreSlashable(uint8 pattern) public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Unanimous, 4, 0);
        uint256[4] memory choice; // 0 silent, 1 answers A, 2 answers B
        for (uint256 i; i < 4; ++i) {
            choice[i] = (uint256(pattern) >> (2 * i)) % 3;
            if (choice[i] != 0) _commit(id, r, i, choice[i] == 1 ? A : B);
        }
        vm.warp(block.timestamp + 1 hours + 1);
        uint256 votesA;
        uint256 votesB;
        for (uint256 i; i < 4; ++i) {
            if (choice[i] == 0) continue;
            _reveal(id, r, i, choice[i] == 1 ? A : B);
            if (choice[i] == 1) ++votesA;
            else ++votesB;
        }
        vm.warp(block.timestamp + 1 hours);
        streams.resolve(id, r);
        uint256 revealed = votesA + votesB;
        bool decided = votesA * 2 > revealed || votesB * 2 > revealed;
        uint256 majority = votesA > votesB ? 1 : 2;
        IStreamTasksTypes.Request memory q = streams.getRequest(id, r);
        assertEq(q.decided, decided);
        assertEq(q.consensus, votesA == 4 || votesB == 4);
        for (uint256 i; i < 4; ++i) {
            bool faulty = choice[i] == 0 || (decided && choice[i] != majority);
            uint256 before = _stake(providers[i]);
            if (!faulty)
                vm.expectRevert(
                    abi.encodeWithSelector(IStreamTasksErrors.StreamNotFaulty.selector, id, r, providers[i])
                );
            _slash(id, r, providers[i]);
            assertEq(before - _stake(providers[i]), faulty ? STREAM_SLASH : 0);
        }
    }
}
