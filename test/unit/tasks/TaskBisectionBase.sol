// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";

/// @notice Shared scenario of the bisection and appeal suites (issue 21 item 2): checkpoint chains, Merkle proofs,
///         a task whose executor and one council member play their own chains, and honest moves.
abstract contract TaskBisectionBase is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    address internal constant KEEPER = address(0x4EE9);
    uint256 internal constant BOND = 100e6; // 10 % of the 1,000 USDC deposit

    bytes32[] internal execLeaves;
    bytes32[] internal chalLeaves;

    function setUp() public {
        _deployTasks();
    }

    // ─── chains ─────────────────────────────────────────────────────────────────────────────────────────────

    /// @dev n leaves; from index `badFrom` on the chain is fabricated (badFrom ≥ n: honest).
    function _chain(uint256 n, uint256 badFrom, bytes32 tag) internal pure returns (bytes32[] memory l) {
        l = new bytes32[](n);
        for (uint256 i; i < n; ++i)
            l[i] = i < badFrom ? keccak256(abi.encode("good", i)) : keccak256(abi.encode(tag, i));
    }

    function _root(bytes32[] memory leaves) internal pure returns (bytes32) {
        bytes32[] memory level = leaves;
        while (level.length > 1) {
            bytes32[] memory up = new bytes32[](level.length / 2);
            for (uint256 i; i < up.length; ++i) up[i] = keccak256(abi.encodePacked(level[2 * i], level[2 * i + 1]));
            level = up;
        }
        return level[0];
    }

    function _proof(bytes32[] memory leaves, uint256 index) internal pure returns (bytes32[] memory p) {
        uint256 depth;
        while ((uint256(1) << depth) < leaves.length) ++depth;
        p = new bytes32[](depth);
        bytes32[] memory level = leaves;
        for (uint256 d; d < depth; ++d) {
            p[d] = level[index ^ 1];
            bytes32[] memory up = new bytes32[](level.length / 2);
            for (uint256 i; i < up.length; ++i) up[i] = keccak256(abi.encodePacked(level[2 * i], level[2 * i + 1]));
            level = up;
            index >>= 1;
        }
    }

    // ─── scenario ───────────────────────────────────────────────────────────────────────────────────────────

    /// @dev Council n = 2, q = 2: the executor (providers[1]) ran a chain of `n` leaves wrong from `badFrom`, committed
    ///      its last leaf as the result and (if `commitChain`) its chain; the challenger's chain is wrong from
    ///      `chalBadFrom`; the council is drawn and has voted nothing yet.
    function _executorRan(
        uint256 n,
        uint256 badFrom,
        uint256 chalBadFrom,
        bool commitChain
    ) internal returns (uint256 id, address[] memory c) {
        execLeaves = _chain(n, badFrom, "cheat");
        chalLeaves = _chain(n, chalBadFrom, "liar");
        id = _submit(USDC, 1_000e6, 2, 2);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        _commitAll(id, providers[1], execLeaves[n - 1]);
        if (commitChain) {
            vm.prank(providers[1]);
            tasks.commitChain(id, _root(execLeaves), uint32(n), _proof(execLeaves, n - 1));
        }
        c = tasks.councilOf(id, 0);
    }

    /// @dev Council n = 2, q = 2; the executor (providers[1]) runs `exec`, commits its last leaf as the result and its
    ///      chain; the challenger's chain is wrong from `chalBadFrom`; c[0] reveals the challenger's final result (so it may challenge), c[1] the executor's.
    function _setUp(
        uint256 n,
        uint256 badFrom,
        uint256 chalBadFrom,
        bool commitChain
    ) internal returns (uint256 id, address[] memory c) {
        (id, c) = _executorRan(n, badFrom, chalBadFrom, commitChain);
        _commitAs(id, c[0], chalLeaves[n - 1]);
        _commitAs(id, c[1], execLeaves[n - 1]);
        _toReveal(id);
        _revealAs(id, c[0], chalLeaves[n - 1]);
        _revealAs(id, c[1], execLeaves[n - 1]);
        usdc.mint(c[0], 1_000e6);
        vm.prank(c[0]);
        usdc.approve(address(tasks), type(uint256).max);
    }

    function _open(uint256 id, address challenger) internal {
        uint256 n = chalLeaves.length;
        uint256 mid = (n - 1) / 2;
        vm.prank(challenger);
        tasks.openBisection(
            id,
            _root(chalLeaves),
            chalLeaves[n - 1],
            _proof(chalLeaves, n - 1),
            chalLeaves[mid],
            n > 1 ? _proof(chalLeaves, mid) : new bytes32[](0)
        );
    }

    /// @dev The pending move by whoever's turn it is, with its honest leaves (each party plays its own chain).
    function _move(uint256 id) internal {
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(id);
        bool byExec = d.phase == 1;
        bytes32[] storage mine = byExec ? execLeaves : chalLeaves;
        uint32 mid = (d.lo + d.hi) / 2;
        (uint32 lo, uint32 hi) = mine[mid] == d.pending ? (mid + 1, d.hi) : (d.lo, mid);
        uint32 next = (lo + hi) / 2;
        bytes32[] memory np = lo == hi ? new bytes32[](0) : _proof(mine, next);
        vm.prank(byExec ? providers[1] : d.challenger);
        tasks.bisect(id, mine[mid], _proof(mine, mid), mine[next], np);
    }

    function _playOut(uint256 id) internal returns (uint256 txs) {
        while (tasks.bisectionOf(id).phase == 1 || tasks.bisectionOf(id).phase == 2) {
            _move(id);
            ++txs;
        }
    }

    /// @dev The referees (round 1, 5 members, quorum 3): the first `forExec` reveal the executor's step output, the
    ///      rest the challenger's.
    function _referees(uint256 id, uint256 forExec) internal returns (address[] memory r) {
        _draw(id);
        r = tasks.councilOf(id, 1);
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(id);
        for (uint256 i; i < r.length; ++i) _commitAs(id, r[i], i < forExec ? d.executorStep : d.challengerStep);
        _toReveal(id);
        for (uint256 i; i < r.length; ++i) _revealAs(id, r[i], i < forExec ? d.executorStep : d.challengerStep);
    }

    function _escrowBalanced() internal view {
        assertEq(tasks.totalEscrow(USDC), usdc.balanceOf(address(tasks)), "TSK-02: escrow + bonds = balance");
    }
}
