// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

/// @notice Drives checkpoint-chain disputes of the TaskRegistry through random sequences (issue 21 items 2 and 7):
///         games open with a committed 16-checkpoint chain (honest or fabricated from a random step) against a
///         challenger — a council member's bisection, or the client's appeal of the accepted result — playing its
///         own chain (honest or lying); then moves, forged moves, lapses and timeouts, honest referee judging and
///         time jumps interleave across games. Ghosts record the slash each ending must have taken.
contract TaskDisputeHandler is CommonBase, StdUtils {
    uint256 internal constant N = 16;
    uint256 internal constant SALT = 7;
    address public constant KEEPER = address(0x4EE9);

    ITaskRegistry internal tasks;
    MockERC20 internal usdc;
    address internal client;
    address[] internal providers;

    /// @dev A game: the task, where each chain turns fabricated (N: honest), and its mode (0 a member's bisection,
    ///      1 the client's appeal, 2 accepted and never appealed).
    struct Game {
        uint256 id;
        uint8 execBad;
        uint8 chalBad;
        uint8 mode;
    }

    Game[] public games;
    /// @dev DPS each provider must have lost: the executor proven wrong at the step (severity), or lapsed (all).
    mapping(address => uint256) public ghostSlashedDps;
    /// @dev Forged moves (a leaf outside the mover's committed root) the registry accepted: must stay 0.
    uint256 public forgedAccepted;
    /// @dev Moves a party made from its own committed chain that the registry refused: must stay 0.
    uint256 public honestRefused;
    uint256 public actions;

    constructor(ITaskRegistry t, MockERC20 u, address c, address[] memory ps) {
        (tasks, usdc, client, providers) = (t, u, c, ps);
    }

    function gameCount() external view returns (uint256) {
        return games.length;
    }

    // ─── chains ─────────────────────────────────────────────────────────────────────────────────────────────

    function leaf(uint256 id, uint256 bad, bytes32 tag, uint256 i) public pure returns (bytes32) {
        return i < bad ? keccak256(abi.encode("good", id, i)) : keccak256(abi.encode(tag, id, i));
    }

    function _leaves(uint256 id, uint256 bad, bytes32 tag) internal pure returns (bytes32[] memory l) {
        l = new bytes32[](N);
        for (uint256 i; i < N; ++i) l[i] = leaf(id, bad, tag, i);
    }

    function _up(bytes32[] memory level) internal pure returns (bytes32[] memory up) {
        up = new bytes32[](level.length / 2);
        for (uint256 i; i < up.length; ++i) up[i] = keccak256(abi.encodePacked(level[2 * i], level[2 * i + 1]));
    }

    function _root(bytes32[] memory leaves) internal pure returns (bytes32) {
        bytes32[] memory level = leaves;
        while (level.length > 1) level = _up(level);
        return level[0];
    }

    function _proof(bytes32[] memory leaves, uint256 index) internal pure returns (bytes32[] memory p) {
        p = new bytes32[](4);
        bytes32[] memory level = leaves;
        for (uint256 d; d < 4; ++d) {
            p[d] = level[index ^ 1];
            level = _up(level);
            index >>= 1;
        }
    }

    // ─── opening ────────────────────────────────────────────────────────────────────────────────────────────

    /// @notice A new game: a USDC task (council 1, quorum 1) run by providers[e]; its executor commits a chain
    ///         fabricated from `execBad`; the challenger's chain is fabricated from `chalBad` (16: honest).
    function open(uint256 execBad, uint256 chalBad, uint256 mode, uint256 e) external {
        Game memory g;
        g.execBad = uint8(bound(execBad, 0, N));
        g.chalBad = uint8(bound(chalBad, 0, N));
        g.mode = uint8(bound(mode, 0, 2));
        // the final results must differ for a challenge (both fabricated ones differ by their tags)
        if (g.mode != 2 && g.execBad == N && g.chalBad == N) g.chalBad = uint8(N - 1);
        address exec = providers[bound(e, 0, providers.length - 1)];
        g.id = _runTask(exec);
        bytes32[] memory ex = _leaves(g.id, g.execBad, "cheat");
        vm.startPrank(exec);
        tasks.commit(g.id, 0, ex[N - 1]);
        tasks.commitChain(g.id, _root(ex), uint32(N), _proof(ex, N - 1));
        vm.stopPrank();
        address member = tasks.councilOf(g.id, 0)[0];
        bytes32[] memory ch = _leaves(g.id, g.chalBad, "liar");
        // a member's bisection: it reveals its own final result; otherwise it accepts the executor's
        _vote(g.id, member, g.mode == 0 ? ch[N - 1] : ex[N - 1]);
        if (g.mode == 0) {
            usdc.mint(member, tasks.bisectionBond(g.id));
            vm.prank(member);
            usdc.approve(address(tasks), type(uint256).max);
            _challenge(g.id, member, ch, false);
        } else {
            vm.prank(client);
            tasks.finalize(g.id);
            if (g.mode == 1) _challenge(g.id, client, ch, true);
        }
        games.push(g);
        ++actions;
    }

    function _runTask(address exec) internal returns (uint256 id) {
        ITaskRegistry.Terms memory t = ITaskRegistry.Terms({
            currency: ITaskRegistry.Currency.USDC,
            responseMode: 0,
            councilSize: 1,
            quorum: 1,
            checkpoints: 1,
            maxBids: 0,
            workloadClass: 1,
            region: 0,
            bidWindowSec: 1 hours,
            deadline: uint40(block.timestamp + 1 days),
            maxPayment: 1_000e6,
            capacityPflopsWad: 0.1e18,
            paymentParams: 0
        });
        ITaskRegistry.Prescription memory pr;
        vm.prank(client);
        id = tasks.submit(t, pr);
        vm.prank(exec);
        tasks.bid(id, 300e6);
        vm.warp(block.timestamp + 1 hours + 1);
        _keyed(id, true);
        _keyed(id, true);
        _keyed(id, false);
    }

    /// @dev closeBidding (`close`) or drawCouncil after mining the committed seed block, as the client (no bounty).
    function _keyed(uint256 id, bool close) internal {
        uint256 target = tasks.getTask(id).targetBlock;
        if (target != 0) {
            if (block.number <= target) vm.roll(target + 1);
            vm.setBlockhash(target, keccak256(abi.encode("block", target)));
        }
        vm.prank(client);
        if (close) tasks.closeBidding(id);
        else tasks.drawCouncil(id);
    }

    function _vote(uint256 id, address who, bytes32 result) internal {
        vm.prank(who);
        tasks.commitResult(id, keccak256(abi.encode(id, who, result, bytes32(SALT))));
        uint256 e = tasks.getTask(id).commitEnds;
        if (block.timestamp <= e) vm.warp(e + 1);
        vm.prank(who);
        tasks.revealResult(id, result, bytes32(SALT));
    }

    function _challenge(uint256 id, address who, bytes32[] memory ch, bool isAppeal) internal {
        uint256 mid = (N - 1) / 2;
        vm.prank(who);
        if (isAppeal) {
            tasks.appeal(id, _root(ch), ch[N - 1], _proof(ch, N - 1), ch[mid], _proof(ch, mid));
        } else {
            tasks.openBisection(id, _root(ch), ch[N - 1], _proof(ch, N - 1), ch[mid], _proof(ch, mid));
        }
    }

    // ─── moves ──────────────────────────────────────────────────────────────────────────────────────────────

    function _game(uint256 i) internal view returns (Game memory g, bool ok) {
        if (games.length == 0) return (g, false);
        return (games[i % games.length], true);
    }

    /// @notice The party to move plays its own committed chain (the only move its root allows).
    function move(uint256 i) external {
        (Game memory g, bool ok) = _game(i);
        if (!ok) return;
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(g.id);
        if ((d.phase != 1 && d.phase != 2) || block.timestamp > d.moveEnds) return;
        bool byExec = d.phase == 1;
        bytes32[] memory mine = byExec ? _leaves(g.id, g.execBad, "cheat") : _leaves(g.id, g.chalBad, "liar");
        uint32 mid = (d.lo + d.hi) / 2;
        (uint32 lo, uint32 hi) = mine[mid] == d.pending ? (mid + 1, d.hi) : (d.lo, mid);
        uint32 next = (lo + hi) / 2;
        bytes32[] memory np = lo == hi ? new bytes32[](0) : _proof(mine, next);
        vm.prank(byExec ? tasks.getTask(g.id).executor : d.challenger);
        try tasks.bisect(g.id, mine[mid], _proof(mine, mid), mine[next], np) {
            ++actions;
        } catch {
            ++honestRefused;
        }
    }

    /// @notice The party to move tries a leaf its root does not contain (a lie about its own chain).
    function forge(uint256 i, bytes32 fake) external {
        (Game memory g, bool ok) = _game(i);
        if (!ok) return;
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(g.id);
        if (d.phase != 1 && d.phase != 2) return;
        bool byExec = d.phase == 1;
        bytes32[] memory mine = byExec ? _leaves(g.id, g.execBad, "cheat") : _leaves(g.id, g.chalBad, "liar");
        uint32 mid = (d.lo + d.hi) / 2;
        if (fake == mine[mid]) return;
        vm.prank(byExec ? tasks.getTask(g.id).executor : d.challenger);
        try tasks.bisect(g.id, fake, _proof(mine, mid), mine[mid], _proof(mine, mid)) {
            ++forgedAccepted;
        } catch {}
    }

    /// @notice A keeper ends the pending move after its deadline (warping there first).
    function timeout(uint256 i) external {
        (Game memory g, bool ok) = _game(i);
        if (!ok) return;
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(g.id);
        if (d.phase != 1 && d.phase != 2) return;
        if (block.timestamp <= d.moveEnds) vm.warp(uint256(d.moveEnds) + 1);
        address exec = tasks.getTask(g.id).executor;
        vm.prank(KEEPER);
        tasks.timeoutDispute(g.id);
        // a lapsed executor is slashed all of the fault amount; a lapsed challenger only loses its bond
        if (d.phase == 1) ghostSlashedDps[exec] += tasks.getTask(g.id).faultDps;
        ++actions;
    }

    /// @notice The isolated step is judged by an honest referee council (the true output of the step is the honest
    ///         chain's leaf there) and finalised by a keeper.
    function judge(uint256 i) external {
        (Game memory g, bool ok) = _game(i);
        if (!ok) return;
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(g.id);
        if (d.phase != 3) return;
        if (tasks.councilOf(g.id, 1).length == 0) _keyed(g.id, false);
        address[] memory r = tasks.councilOf(g.id, 1);
        bytes32 truth = leaf(g.id, N, "", d.hi);
        for (uint256 k; k < r.length; ++k) {
            vm.prank(r[k]);
            tasks.commitResult(g.id, keccak256(abi.encode(g.id, r[k], truth, bytes32(SALT))));
        }
        uint256 e = tasks.getTask(g.id).commitEnds;
        if (block.timestamp <= e) vm.warp(e + 1);
        for (uint256 k; k < r.length; ++k) {
            vm.prank(r[k]);
            tasks.revealResult(g.id, truth, bytes32(SALT));
        }
        address exec = tasks.getTask(g.id).executor;
        ITaskRegistry.Task memory t = tasks.getTask(g.id);
        vm.prank(KEEPER);
        tasks.finalize(g.id);
        // TSK-06: only the executor wrong at the step loses stake, by severity: fault × (2n − step) / 2n, rounded up
        if (d.executorStep != truth) {
            ghostSlashedDps[exec] += (uint256(t.faultDps) * (2 * N - d.hi) + 2 * N - 1) / (2 * N);
        }
        ++actions;
    }

    /// @notice Anyone closes an unused appeal window once it has ended.
    function closeWindow(uint256 i) external {
        (Game memory g, bool ok) = _game(i);
        if (!ok || g.mode != 2) return;
        ITaskRegistry.Task memory t = tasks.getTask(g.id);
        if (t.status != ITaskRegistry.Status.Accepted || t.commitEnds == 0) return;
        uint256 ends = uint256(t.commitEnds) + tasks.params().disputeWindowSec;
        if (block.timestamp <= ends) vm.warp(ends + 1);
        tasks.closeAppeal(g.id);
        ++actions;
    }

    function warp(uint256 secs) external {
        vm.warp(block.timestamp + bound(secs, 1, 1 days));
    }
}
