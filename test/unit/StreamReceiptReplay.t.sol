// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {IStreamTasks} from "../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksErrors} from "../../contracts/interfaces/tasks/IStreamTasksErrors.sol";

/// @notice SEC-03 for StreamTasks receipts (the client's EIP-712 signature authorises a payment): a receipt is
///         rejected when signed for another chain, for another StreamTasks deployment, or presented in its
///         malleable (high-s) form, or relabelled for another stream of the same deployment (same client, same
///         provider); replaying a settled receipt pays nothing (receipts carry cumulative counts), also after the
///         provider left the stream and subscribed again.
contract StreamReceiptReplayTest is TaskSolBase {
    IStreamTasks internal streams;
    IStreamTasks internal other;
    uint256 internal constant CLIENT_PK = 0xC11E57;
    address internal streamClient;
    uint256 internal constant SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141;

    function _streams() internal returns (IStreamTasks s) {
        address[3] memory toks = [address(ch), address(usdc), address(dps)];
        s = _deployStreams(toks);
        vm.prank(streamClient);
        usdc.approve(address(s), type(uint256).max);
    }

    function _open(IStreamTasks s) internal returns (uint256 id) {
        IStreamTasks.StreamTerms memory t = IStreamTasks.StreamTerms({
            currency: 1,
            mode: IStreamTasks.Mode.Optimistic,
            executors: 1,
            weightWad: 0,
            maxPrice: 2e6,
            maxFailures: 3,
            deposit: 1_000e6,
            inputHash: keccak256("I"),
            fnHash: keccak256("f")
        });
        vm.prank(streamClient);
        id = s.open(t);
        vm.prank(providers[0]);
        s.subscribe(id, 1e6);
    }

    function setUp() public {
        _deployTasks();
        streamClient = vm.addr(CLIENT_PK);
        usdc.mint(streamClient, 10_000e6);
        streams = _streams();
        other = _streams();
        assertEq(_open(streams), _open(other), "same stream id on both deployments");
    }

    function _one(
        IStreamTasks.Receipt memory r,
        bytes memory sig
    ) internal pure returns (IStreamTasks.Receipt[] memory rs, bytes[] memory sigs) {
        rs = new IStreamTasks.Receipt[](1);
        sigs = new bytes[](1);
        rs[0] = r;
        sigs[0] = sig;
    }

    function _receipt(uint256 answered) internal view returns (IStreamTasks.Receipt memory) {
        return
            IStreamTasks.Receipt({
                streamId: 1,
                provider: providers[0],
                answered: uint64(answered),
                amount: uint128(answered * 1e6) // the subscription's price, 1 USDC per answered request
            });
    }

    function test_receipt_otherChain_rejected_SEC03() public {
        IStreamTasks.Receipt memory r = _receipt(10);
        uint256 home = block.chainid;
        vm.chainId(home + 1);
        (uint8 v, bytes32 rr, bytes32 s) = vm.sign(CLIENT_PK, streams.receiptDigest(r));
        vm.chainId(home);
        (IStreamTasks.Receipt[] memory rs, bytes[] memory sigs) = _one(r, abi.encodePacked(rr, s, v));
        vm.expectPartialRevert(IStreamTasksErrors.StreamBadSignature.selector);
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 0);
    }

    function test_receipt_otherContract_rejected_SEC03() public {
        IStreamTasks.Receipt memory r = _receipt(10);
        (uint8 v, bytes32 rr, bytes32 s) = vm.sign(CLIENT_PK, other.receiptDigest(r));
        (IStreamTasks.Receipt[] memory rs, bytes[] memory sigs) = _one(r, abi.encodePacked(rr, s, v));
        other.settle(rs, sigs); // valid where it was signed
        assertEq(usdc.balanceOf(providers[0]), 10e6);
        vm.expectPartialRevert(IStreamTasksErrors.StreamBadSignature.selector);
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 10e6);
    }

    function test_receipt_malleableForm_rejected_SEC03() public {
        IStreamTasks.Receipt memory r = _receipt(10);
        (uint8 v, bytes32 rr, bytes32 s) = vm.sign(CLIENT_PK, streams.receiptDigest(r));
        bytes32 highS = bytes32(SECP256K1_N - uint256(s));
        uint8 flippedV = v == 27 ? 28 : 27;
        (IStreamTasks.Receipt[] memory rs, bytes[] memory sigs) = _one(r, abi.encodePacked(rr, highS, flippedV));
        vm.expectPartialRevert(IStreamTasksErrors.StreamBadSignature.selector);
        streams.settle(rs, sigs);
        sigs[0] = abi.encodePacked(rr, s, v);
        streams.settle(rs, sigs); // the canonical form settles
        assertEq(usdc.balanceOf(providers[0]), 10e6);
    }

    function test_receipt_replay_paysNothing_SEC03() public {
        IStreamTasks.Receipt memory r = _receipt(10);
        (uint8 v, bytes32 rr, bytes32 s) = vm.sign(CLIENT_PK, streams.receiptDigest(r));
        (IStreamTasks.Receipt[] memory rs, bytes[] memory sigs) = _one(r, abi.encodePacked(rr, s, v));
        streams.settle(rs, sigs);
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 10e6);
        assertEq(streams.getStream(1).deposit, 990e6);
    }

    function _signed(
        IStreamTasks s,
        IStreamTasks.Receipt memory r
    ) internal view returns (IStreamTasks.Receipt[] memory rs, bytes[] memory sigs) {
        (uint8 v, bytes32 rr, bytes32 ss) = vm.sign(CLIENT_PK, s.receiptDigest(r));
        return _one(r, abi.encodePacked(rr, ss, v));
    }

    /// Sequence attack: the client runs two streams on one deployment and the provider serves both. The provider
    /// takes a receipt signed for stream 1 and presents it for stream 2 (the richer deposit), alone and in a batch
    /// after the genuine one. The stream id is in the signed struct, so the relabelled receipt is rejected, the batch
    /// is all-or-nothing, and stream 2's deposit is untouched; stream 1 still settles its own receipt once.
    function test_receipt_otherStreamSameContract_rejected_SEC03() public {
        uint256 second = _open(streams); // same client, same provider, same terms
        assertEq(second, 2);
        IStreamTasks.Receipt memory r = _receipt(10);
        (IStreamTasks.Receipt[] memory rs, bytes[] memory sigs) = _signed(streams, r);
        IStreamTasks.Receipt memory moved = _receipt(10);
        moved.streamId = second;
        (IStreamTasks.Receipt[] memory ms, ) = _one(moved, sigs[0]);
        vm.expectPartialRevert(IStreamTasksErrors.StreamBadSignature.selector);
        streams.settle(ms, sigs);
        // the genuine receipt followed by the relabelled copy in one batch: nothing settles
        IStreamTasks.Receipt[] memory both = new IStreamTasks.Receipt[](2);
        bytes[] memory bothSigs = new bytes[](2);
        (both[0], both[1], bothSigs[0], bothSigs[1]) = (r, moved, sigs[0], sigs[0]);
        vm.expectPartialRevert(IStreamTasksErrors.StreamBadSignature.selector);
        streams.settle(both, bothSigs);
        assertEq(usdc.balanceOf(providers[0]), 0);
        assertEq(streams.getStream(second).deposit, 1_000e6, "stream 2 untouched");
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 10e6);
        assertEq(streams.getStream(1).deposit, 990e6);
        assertEq(streams.getStream(second).deposit, 1_000e6);
    }

    /// Sequence attack: the provider is paid by a receipt, unsubscribes, subscribes again (a fresh subscription at
    /// the same or a higher price) and replays the old cumulative receipt, hoping its paid count was reset. The paid
    /// amount outlives the subscription, so the replay pays nothing; only the increase of a newer receipt is paid.
    function test_receipt_replayedAfterLeaveAndRejoin_paysNothing_SEC03() public {
        (IStreamTasks.Receipt[] memory rs, bytes[] memory sigs) = _signed(streams, _receipt(10));
        streams.settle(rs, sigs);
        vm.startPrank(providers[0]);
        streams.unsubscribe(1);
        streams.subscribe(1, 2e6);
        vm.stopPrank();
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 10e6, "the replay paid nothing");
        // a newer cumulative receipt pays only its increase (15 answered, 5 more at the new price of 2)
        IStreamTasks.Receipt memory next = _receipt(15);
        next.amount = 10e6 + 5 * 2e6;
        (rs, sigs) = _signed(streams, next);
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 20e6);
        assertEq(streams.getStream(1).deposit, 980e6);
    }
}
