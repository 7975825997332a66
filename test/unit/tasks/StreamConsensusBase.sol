// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {IStreamTasks} from "../../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksTypes} from "../../../contracts/interfaces/tasks/IStreamTasksTypes.sol";

/// @notice Shared setup of the stream consensus tests: StreamTasks with the slasher role, a 100 DPS subscription lock
///         and consensus windows of one hour (answer, reveal, challenge), a day to slash and a day for the client to pay.
abstract contract StreamConsensusBase is TaskSolBase {
    IStreamTasks internal streams;
    uint256 internal constant CLIENT_PK = 0xC11E57;
    address internal streamClient;
    address internal keeper = address(0xF1D);
    uint96 internal constant STREAM_SLASH = 100e18;
    uint128 internal constant MAX_PRICE = 2e6;

    function setUp() public virtual {
        _deployTasks();
        streams = _deployStreams([address(ch), address(usdc), address(dps)]);
        _grant(Roles.PROVIDER_SLASHER, address(streams));
        streams.setSubscriptionLock(STREAM_SLASH);
        streams.setConsensusParams(_cp());
        streamClient = vm.addr(CLIENT_PK);
        usdc.mint(streamClient, 10_000e6);
        vm.prank(streamClient);
        usdc.approve(address(streams), type(uint256).max);
    }

    function _cp() internal pure returns (IStreamTasksTypes.ConsensusParams memory) {
        return
            IStreamTasksTypes.ConsensusParams({
                answerWindowSec: 1 hours,
                revealWindowSec: 1 hours,
                challengeWindowSec: 1 hours,
                slashWindowSec: 1 days,
                payGraceSec: 1 days,
                clientPenaltyBps: 5_000,
                challengeBondRequests: 10,
                slashDps: STREAM_SLASH
            });
    }

    /// @dev Opens a stream of `c` members (providers 0..c-1 subscribe at 1 USDC) and puts one request to it.
    function _live(IStreamTasks.Mode mode, uint8 c, uint64 w) internal returns (uint256 id, uint32 r) {
        vm.prank(streamClient);
        id = streams.open(
            IStreamTasks.StreamTerms({
                currency: 1,
                mode: mode,
                executors: c,
                weightWad: w,
                maxPrice: MAX_PRICE,
                maxFailures: 3,
                deposit: 1_000e6,
                inputHash: keccak256("I"),
                fnHash: keccak256("f")
            })
        );
        for (uint256 i; i < c; ++i) {
            vm.prank(providers[i]);
            streams.subscribe(id, 1e6);
        }
        r = _ask(id);
    }

    function _ask(uint256 id) internal returns (uint32 r) {
        vm.prank(streamClient);
        r = streams.request(id, keccak256("prompt"));
    }

    function _commit(uint256 id, uint32 r, uint256 i, bytes32 answer) internal {
        address p = providers[i];
        bytes32 c = streams.answerCommitment(id, r, p, answer, bytes32(i + 1));
        vm.prank(p);
        streams.commitAnswer(id, r, c);
    }

    function _reveal(uint256 id, uint32 r, uint256 i, bytes32 answer) internal {
        vm.prank(providers[i]);
        streams.revealAnswer(id, r, answer, bytes32(i + 1));
    }

    function _stake(address p) internal view returns (uint256) {
        return registry.providerInfo(p).stakedDps;
    }

    function _slash(uint256 id, uint32 r, address p) internal {
        vm.prank(keeper);
        streams.slashFaulty(id, r, p);
    }
}
