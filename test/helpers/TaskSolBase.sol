// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Deployers} from "../utils/Deployers.sol";
import {DeployDefaults} from "../utils/DeployDefaults.sol";
import {IDPSToken} from "../../contracts/interfaces/tokens/IDPSToken.sol";
import {ICHToken} from "../../contracts/interfaces/tokens/ICHToken.sol";
import {IComputeStandard} from "../../contracts/interfaces/compute/IComputeStandard.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderMatcher} from "../../contracts/interfaces/compute/IProviderMatcher.sol";
import {IDeliveryOrders} from "../../contracts/interfaces/compute/IDeliveryOrders.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IStreamTasks} from "../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IKeeperCompatible} from "../../contracts/interfaces/keepers/IKeeperCompatible.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";
import {MockPriceIndex} from "../../contracts/mocks/MockPriceIndex.sol";
import {MockRewardPool} from "../../contracts/mocks/MockRewardPool.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @dev A task's payment word (`Terms.paymentParams`, docs/tasks.md "Payment functions and response modes") from its
///      fields: the kind (0 FLAT, 1 METERED, 2 PROPORTIONAL) in bits 0..7, the declared units D in bits 8..71 and the
///      PROPORTIONAL threshold in bps in bits 72..87. The one place the task tests build it.
function taskPaymentWord(uint256 kind, uint256 declared, uint256 thrBps) pure returns (uint256) {
    return kind | (declared << 8) | (thrBps << 72);
}

/// @notice The TaskRegistry test world: governance, DPS, CH, ComputeStandard, ProviderRegistry, ProviderMatcher and
///         TaskRegistry behind real ERC1967 proxies (COMPUTE and SLASHER granted as the deploy module does), mock
///         USDC, a mock reward pool and price index, eight onboarded providers and a funded client.
/// @dev Implementations come from their compiled artifacts (`deployCode`) and are driven through interfaces only:
///      compiling them into this job with forge-std exhausts solc-js's wasm memory (HHE908).
abstract contract TaskSolBase is Deployers {
    IDPSToken internal dps;
    ICHToken internal ch;
    IComputeStandard internal standard;
    IProviderRegistry internal registry;
    IProviderMatcher internal matcher;
    ITaskRegistry internal tasks;
    MockERC20 internal usdc;
    MockRewardPool internal pool;
    MockPriceIndex internal oracle;

    address internal client = address(0xC11E);
    address[] internal providers;

    uint128 internal constant SLASH = 100e18;
    /// @dev What a dissenting member reveals in tests.
    bytes32 internal constant OTHER_RESULT = keccak256("other result");
    uint16 internal constant FEE_BPS = 100; // 1 % of the price per council member

    /// @dev AccessManager, DPS (genesis to this contract), CH, the ComputeStandard, the ProviderRegistry (10-year
    ///      attestations) with a MockPriceIndex at 2.5 USDC/CH as its price oracle.
    function _deployCompute() internal {
        _deployAccessManager();
        dps = IDPSToken(_deployDps(GENESIS_DPS, false));
        ch = ICHToken(_deployCh());
        standard = IComputeStandard(_deployComputeStandard());
        registry = IProviderRegistry(
            _deployProviderRegistry(address(dps), address(ch), address(standard), DeployDefaults.registry(3650 days))
        );
        oracle = new MockPriceIndex(2.5e18);
        registry.setPriceOracle(address(oracle));
    }

    function _attestation(address provider) internal view returns (IProviderRegistry.Attestation memory a) {
        uint256[] memory f = new uint256[](3);
        (f[0], f[1], f[2]) = (1.2e18, 0.9e18, 1e18);
        a = IProviderRegistry.Attestation({
            provider: provider,
            workloadClass: 1,
            standardVersion: standard.latestVersion(1),
            avgPflopsWad: 0.5e18,
            factorsWad: f,
            capacityPflopsWad: 0.5e18,
            powerWattsWad: 700e18,
            nonce: registry.attestationNonce(provider),
            deadline: block.timestamp + 1 hours
        });
    }

    /// @dev Registers, stakes `stakeDps` and attests `provider`.
    function _onboard(address provider, uint256 stakeDps) internal {
        vm.prank(provider);
        registry.register(1, 0x2, bytes32(0), "");
        dps.transfer(provider, stakeDps);
        vm.startPrank(provider);
        dps.approve(address(registry), stakeDps);
        registry.stake(stakeDps);
        vm.stopPrank();
        IProviderRegistry.Attestation memory a = _attestation(provider);
        registry.attest(a, signDigest(ATTESTER_PK, registry.attestationDigest(a)));
    }

    function _params() internal pure returns (ITaskRegistry.Params memory) {
        return DeployDefaults.tasks(FEE_BPS, SLASH);
    }

    /// @dev A StreamTasks proxy on this deployment's manager and matcher, paying in `toks` (CH, USDC, DPS order),
    ///      with a one-day window; it may lock subscribers' stake (STAKE_LOCKER; the lock itself starts at 0).
    function _deployStreams(address[3] memory toks) internal returns (IStreamTasks s) {
        s = IStreamTasks(_deployStreamTasks(address(matcher), toks));
    }

    function _deployTasks() internal {
        _deployCompute();
        matcher = IProviderMatcher(_deployProviderMatcher(address(registry)));
        usdc = MockERC20(_deployUsdc());
        pool = new MockRewardPool(dps);
        address[3] memory toks = [address(ch), address(usdc), address(dps)];
        tasks = ITaskRegistry(_deployTaskRegistry(address(registry), address(matcher), toks, address(pool), _params()));
        for (uint256 i; i < 8; ++i) {
            address p = address(uint160(0xB000 + i));
            providers.push(p);
            _onboard(p, 5_000e18);
        }
        usdc.mint(client, 1_000_000e6);
        dps.transfer(client, 100_000e18);
        vm.startPrank(client);
        usdc.approve(address(tasks), type(uint256).max);
        dps.approve(address(tasks), type(uint256).max);
        ch.approve(address(tasks), type(uint256).max);
        vm.stopPrank();
    }

    function _terms(
        ITaskRegistry.Currency cur,
        uint128 maxPayment,
        uint8 n,
        uint8 q
    ) internal view returns (ITaskRegistry.Terms memory) {
        return
            ITaskRegistry.Terms({
                currency: cur,
                responseMode: 1,
                councilSize: n,
                quorum: q,
                checkpoints: 2,
                maxBids: 0,
                workloadClass: 1,
                region: 0,
                bidWindowSec: 1 hours,
                deadline: uint40(block.timestamp + 1 days),
                maxPayment: maxPayment,
                capacityPflopsWad: 0.1e18,
                paymentParams: 0
            });
    }

    function _prescription() internal pure returns (ITaskRegistry.Prescription memory) {
        return
            ITaskRegistry.Prescription({
                dataHash: keccak256("D"),
                modelHash: keccak256("M"),
                inputHash: keccak256("I"),
                outputFnHash: keccak256("f"),
                evalHash: keccak256("e"),
                uri: "ipfs://task"
            });
    }

    function _submit(ITaskRegistry.Currency cur, uint128 maxPayment, uint8 n, uint8 q) internal returns (uint256 id) {
        ITaskRegistry.Terms memory t = _terms(cur, maxPayment, n, q);
        vm.prank(client);
        id = tasks.submit(t, _prescription());
    }

    function _bid(uint256 id, address p, uint128 price) internal {
        vm.prank(p);
        tasks.bid(id, price);
    }

    /// @dev Closes bidding after the window and draws the council from a mined seed block.
    function _closeAndDraw(uint256 id) internal {
        vm.warp(block.timestamp + 1 hours + 1);
        _close(id);
        _draw(id);
    }

    /// @dev Closes bidding: the first call seals the bids and commits the seed block; once that block is mined
    ///      (its hash set here) the second selects the executor.
    ///      Called as the client, which earns no keeper bounty (issue 21 item 6), so balances stay round.
    function _close(uint256 id) internal {
        vm.prank(client);
        tasks.closeBidding(id);
        if (tasks.getTask(id).status != ITaskRegistry.Status.Bidding) return;
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode("block", target)));
        vm.prank(client);
        tasks.closeBidding(id);
    }

    /// @dev Draws the current round's council (as the client: no keeper bounty).
    function _draw(uint256 id) internal {
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode("block", target)));
        vm.prank(client);
        tasks.drawCouncil(id);
    }

    /// @dev Finalises as the client (no keeper bounty).
    function _finalize(uint256 id) internal {
        vm.prank(client);
        tasks.finalize(id);
    }

    /// @dev A USDC task (deposit 1,000, council `n`, quorum 2) that providers[1] won at 400 and executed, its final
    ///      checkpoint `result`: Verifying, with its round-0 council.
    function _verifyingN(bytes32 result, uint8 n) internal returns (uint256 id, address[] memory c) {
        id = _submit(ITaskRegistry.Currency.USDC, 1_000e6, n, 2);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        _commitAll(id, providers[1], result);
        c = tasks.councilOf(id, 0);
    }

    /// @dev DPS slashed from provider `p` so far.
    function _slashedDps(address p) internal view returns (uint256) {
        return registry.providerInfo(p).slashedDps;
    }

    function _commitAll(uint256 id, address executor, bytes32 result) internal {
        vm.startPrank(executor);
        tasks.commit(id, 0, keccak256("checkpoint-0"));
        tasks.commit(id, 1, result);
        vm.stopPrank();
    }

    /// @dev The first `howMany` members of round `round` all commit, then (past the commit window) reveal: the
    ///      executor's result when `agree`, OTHER_RESULT otherwise.
    function _voteAll(uint256 id, uint8 round, bool agree, uint256 howMany) internal {
        _voteMask(id, round, howMany, agree ? type(uint256).max : 0);
    }

    /// @dev Like `_voteAll`, member i revealing the executor's result when bit i of `agreeMask` is set.
    function _voteMask(uint256 id, uint8 round, uint256 howMany, uint256 agreeMask) internal {
        address[] memory c = tasks.councilOf(id, round);
        bytes32 exec = tasks.getTask(id).resultHash;
        for (uint256 i; i < howMany; ++i) _commitAs(id, c[i], (agreeMask >> i) & 1 == 1 ? exec : OTHER_RESULT);
        _toReveal(id);
        for (uint256 i; i < howMany; ++i) _revealAs(id, c[i], (agreeMask >> i) & 1 == 1 ? exec : OTHER_RESULT);
    }

    /// @dev A member's salt in tests (a different one per member and task).
    function _salt(uint256 id, address member) internal pure returns (bytes32) {
        return keccak256(abi.encode("salt", id, member));
    }

    function _commitment(uint256 id, address member, bytes32 result) internal pure returns (bytes32) {
        return keccak256(abi.encode(id, member, result, _salt(id, member)));
    }

    function _commitAs(uint256 id, address member, bytes32 result) internal {
        vm.prank(member);
        tasks.commitResult(id, _commitment(id, member, result));
    }

    function _revealAs(uint256 id, address member, bytes32 result) internal {
        vm.prank(member);
        tasks.revealResult(id, result, _salt(id, member));
    }

    /// @dev Warps just past the commit window (no-op when already past).
    function _toReveal(uint256 id) internal {
        uint256 e = tasks.getTask(id).commitEnds;
        if (block.timestamp <= e) vm.warp(e + 1);
    }

    /// @dev Largest valid bid: price × (1 + (3n + 1) × fee) ≤ maxPayment − 5 keeper bounties of 0.1 % of it,
    ///      rounded down (independent reference).
    function _maxBid(uint256 maxPayment, uint256 n) internal pure returns (uint256) {
        return ((maxPayment - 5 * ((maxPayment * 10) / 10_000)) * 10_000) / (10_000 + (3 * n + 1) * FEE_BPS);
    }

    /// @dev Every council member of both rounds claims its fee where it has one.
    function _claimAll(uint256 id) internal {
        for (uint8 r; r < 2; ++r) {
            address[] memory c = tasks.councilOf(id, r);
            for (uint256 i; i < c.length; ++i) {
                vm.prank(c[i]);
                try tasks.claimCouncilFee(id) {} catch {}
            }
        }
    }

    /// @dev Releases every seat of both rounds still holding its lock after a verdict (TSK-08, lazy seat release).
    function _releaseSeats(uint256 id) internal {
        for (uint8 r; r < 2; ++r) {
            address[] memory c = tasks.councilOf(id, r);
            for (uint256 i; i < c.length; ++i) if (!tasks.seatReleased(id, c[i])) tasks.releaseSeat(id, c[i]);
        }
    }

    function _token(ITaskRegistry.Currency cur) internal view returns (address) {
        return
            cur == ITaskRegistry.Currency.CH
                ? address(ch)
                : cur == ITaskRegistry.Currency.USDC
                    ? address(usdc)
                    : address(dps);
    }

    function _keeper() internal view returns (IKeeperCompatible) {
        return IKeeperCompatible(address(tasks));
    }

    function _isIn(address a, address[] memory list) internal pure returns (bool) {
        for (uint256 i; i < list.length; ++i) if (list[i] == a) return true;
        return false;
    }

    /// @dev A DeliveryOrders proxy on this task world with `market` as its futures market (workload class 1, grade 3,
    ///      30-day window), holding COMPUTE and PROVIDER_SLASHER (the delivery-order suites and the MKT-08 invariant).
    function _deployDeliveryOrders(address market) internal returns (IDeliveryOrders d) {
        address[6] memory deps = [
            address(registry),
            address(matcher),
            address(tasks),
            address(standard),
            address(ch),
            address(dps)
        ];
        d = IDeliveryOrders(
            _deployDeliveryOrders(
                market,
                deps,
                IDeliveryOrders.Spec({workloadClass: 1, minGrade: 3, windowSec: 30 days})
            )
        );
    }

    /// @dev A USDC task (1,000 USDC, council n, quorum q, a 10-day deadline) won by providers[1] at 400 USDC, closed
    ///      and its council drawn: the start of the duty-lock and seat-release tests.
    function _drawnUsdcTask(uint8 n, uint8 q) internal returns (uint256 id) {
        ITaskRegistry.Terms memory t = _terms(ITaskRegistry.Currency.USDC, 1_000e6, n, q);
        t.deadline = uint40(block.timestamp + 10 days);
        vm.prank(client);
        id = tasks.submit(t, _prescription());
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
    }
}
