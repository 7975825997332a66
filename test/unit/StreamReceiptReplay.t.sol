// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {IStreamTasks} from "../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksErrors} from "../../contracts/interfaces/tasks/IStreamTasksErrors.sol";

/// @notice SEC-03 for StreamTasks receipts (the client's EIP-712 signature authorises a payment): a receipt is
///         rejected when signed for another chain, for another StreamTasks deployment, or presented in its
///         malleable (high-s) form; replaying a settled receipt pays nothing (receipts carry cumulative counts).
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
}
