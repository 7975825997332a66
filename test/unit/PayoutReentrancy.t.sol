// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryActions} from "../../contracts/interfaces/tasks/ITaskRegistryActions.sol";
import {IStreamTasks} from "../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksLifecycle} from "../../contracts/interfaces/tasks/IStreamTasksLifecycle.sol";
import {IInsuranceFund} from "../../contracts/interfaces/clearing/IInsuranceFund.sol";
import {IInsuranceFundStaking} from "../../contracts/interfaces/clearing/IInsuranceFundStaking.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";
import {signDigest} from "../utils/Signatures.sol";

interface IReentrantToken {
    function mint(address to, uint256 amount) external;
    function approve(address spender, uint256 amount) external returns (bool);
    function balanceOf(address who) external view returns (uint256);
    function arm(address target, bytes calldata data) external;
}

/// @notice SEC-04 on the payout paths outside the clearing layer (ClearingReentrancy.t.sol covers the clearing
///         house, liquidation engine and guarantor pool): with a malicious USDC that re-enters the paying contract
///         during the transfer, the InsuranceFund, the TaskRegistry and StreamTasks revert the outer call
///         (ReentrancyGuardReentrantCall bubbles up through the token) and no state moves.
/// @dev DPS, CH and GFL are the protocol's own tokens (no transfer hooks), so only USDC payouts can be hijacked.
contract PayoutReentrancyTest is TaskSolBase {
    IReentrantToken internal rusd;
    IInsuranceFund internal fund;
    IStreamTasks internal streams;
    bytes4 internal constant REENTRANT = bytes4(keccak256("ReentrancyGuardReentrantCall()"));
    uint256 internal constant CLIENT_PK = 0xC11E57;
    address internal streamClient;
    address internal staker = address(0x57A4E);
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;

    function setUp() public {
        _deployTasks();
        rusd = IReentrantToken(deployCode("ReentrantERC20.sol:ReentrantERC20"));
        // the task registry again, over the malicious USDC (the base's helpers read `usdc` and `tasks`)
        usdc = MockERC20(address(rusd));
        address[3] memory toks = [address(ch), address(rusd), address(dps)];
        tasks = ITaskRegistry(
            _proxy(
                "TaskRegistry.sol:TaskRegistry",
                abi.encodeWithSignature(
                    "initialize(address,address,address,address[3],address,(uint16,uint16,uint16,uint8,uint8,uint32,uint32,uint32,uint128))",
                    manager,
                    registry,
                    matcher,
                    toks,
                    pool,
                    _params()
                )
            )
        );
        _grant(Roles.COMPUTE, address(tasks));
        _grant(Roles.PROVIDER_SLASHER, address(tasks));
        _grant(Roles.STAKE_LOCKER, address(tasks));
        rusd.mint(client, 1_000_000e6);
        vm.prank(client);
        rusd.approve(address(tasks), type(uint256).max);

        fund = IInsuranceFund(
            address(
                new ERC1967Proxy(
                    deployCode("InsuranceFund.sol:InsuranceFund"),
                    abi.encodeWithSignature(
                        "initialize(address,address,uint64,uint64)",
                        manager,
                        address(rusd),
                        uint64(7 days),
                        uint64(2 days)
                    )
                )
            )
        );
        _setRole(address(fund), IInsuranceFund.coverBadDebt.selector, Roles.CLEARING);
        _setRole(address(fund), IInsuranceFund.depositFees.selector, Roles.FEE_SOURCE);
        _grant(Roles.CLEARING, address(this));
        _grant(Roles.FEE_SOURCE, address(this));
        // worst case for the restricted paths: the re-entering token itself holds the role, so the
        // reentrancy guard (not the access check) is what stops it
        _grant(Roles.CLEARING, address(rusd));
        _grant(Roles.FEE_SOURCE, address(rusd));

        streams = _deployStreams(toks);
        streamClient = vm.addr(CLIENT_PK);
        rusd.mint(streamClient, 10_000e6);
        vm.prank(streamClient);
        rusd.approve(address(streams), type(uint256).max);
    }

    // ───────────── InsuranceFund ─────────────

    function _stake(uint256 amount) internal returns (uint256 shares) {
        rusd.mint(staker, amount);
        vm.startPrank(staker);
        rusd.approve(address(fund), amount);
        shares = fund.stake(amount);
        vm.stopPrank();
    }

    function test_insuranceStake_reenteringTokenReverts_SEC04() public {
        _stake(100e6);
        rusd.mint(staker, 10e6);
        vm.prank(staker);
        rusd.approve(address(fund), 10e6);
        rusd.arm(address(fund), abi.encodeCall(IInsuranceFundStaking.stake, (1)));
        vm.prank(staker);
        vm.expectRevert(REENTRANT);
        fund.stake(10e6);
        assertEq(fund.totalAssets(), 100e6);
    }

    function test_insuranceWithdraw_reenteringTokenReverts_SEC04() public {
        uint256 shares = _stake(100e6);
        vm.prank(staker);
        fund.requestWithdraw(shares);
        vm.warp(block.timestamp + 7 days);
        rusd.arm(address(fund), abi.encodeCall(IInsuranceFundStaking.withdraw, (1, staker)));
        vm.prank(staker);
        vm.expectRevert(REENTRANT);
        fund.withdraw(shares, staker);
        assertEq(fund.sharesOf(staker), shares);
        assertEq(fund.totalAssets(), 100e6);
    }

    function test_insuranceCoverBadDebt_reenteringTokenReverts_SEC04() public {
        _stake(100e6);
        rusd.arm(address(fund), abi.encodeCall(IInsuranceFund.coverBadDebt, (1, address(this))));
        vm.expectRevert(REENTRANT);
        fund.coverBadDebt(50e6, address(this));
        assertEq(fund.totalAssets(), 100e6);
    }

    function test_insuranceDepositFees_reenteringTokenReverts_SEC04() public {
        rusd.mint(address(this), 10e6);
        rusd.approve(address(fund), 10e6);
        rusd.arm(address(fund), abi.encodeCall(IInsuranceFund.depositFees, (1)));
        vm.expectRevert(REENTRANT);
        fund.depositFees(10e6);
        assertEq(fund.totalAssets(), 0);
    }

    // ───────────── TaskRegistry ─────────────

    bytes32 internal constant GOOD = keccak256("good result");

    function _verifying() internal returns (uint256 id) {
        id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[0], 500e6);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, true, 2);
    }

    function test_taskFinalize_reenteringTokenReverts_SEC04() public {
        uint256 id = _verifying();
        rusd.arm(address(tasks), abi.encodeCall(ITaskRegistry.finalize, (id)));
        vm.expectRevert(REENTRANT);
        tasks.finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Verifying));
        assertEq(rusd.balanceOf(address(tasks)), 1_000e6);
    }

    function test_taskClaimCouncilFee_reenteringTokenReverts_SEC04() public {
        uint256 id = _verifying();
        tasks.finalize(id);
        address member = tasks.councilOf(id, 0)[0];
        rusd.arm(address(tasks), abi.encodeCall(ITaskRegistryActions.claimCouncilFee, (id)));
        vm.prank(member);
        vm.expectRevert(REENTRANT);
        tasks.claimCouncilFee(id);
        assertEq(rusd.balanceOf(member), 0);
    }

    function test_taskSubmit_reenteringTokenReverts_SEC04() public {
        ITaskRegistry.Terms memory t = _terms(USDC, 1_000e6, 3, 2);
        rusd.arm(address(tasks), abi.encodeCall(ITaskRegistry.submit, (t, _prescription())));
        vm.prank(client);
        vm.expectRevert(REENTRANT);
        tasks.submit(t, _prescription());
    }

    // ───────────── StreamTasks ─────────────

    function _stream() internal returns (uint256 id) {
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
        id = streams.open(t);
        vm.prank(providers[0]);
        streams.subscribe(id, 1e6);
    }

    function test_streamSettle_reenteringTokenReverts_SEC04() public {
        uint256 id = _stream();
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](1);
        bytes[] memory sigs = new bytes[](1);
        rs[0] = IStreamTasks.Receipt({streamId: id, provider: providers[0], answered: 10, amount: 10e6});
        sigs[0] = signDigest(CLIENT_PK, streams.receiptDigest(rs[0]));
        rusd.arm(address(streams), abi.encodeCall(IStreamTasksLifecycle.settle, (rs, sigs)));
        vm.expectRevert(REENTRANT);
        streams.settle(rs, sigs);
        assertEq(rusd.balanceOf(providers[0]), 0);
        assertEq(streams.getStream(id).deposit, 1_000e6);
    }

    function test_streamWithdraw_reenteringTokenReverts_SEC04() public {
        uint256 id = _stream();
        vm.prank(streamClient);
        streams.retract(id);
        vm.warp(block.timestamp + 1 days + 1);
        rusd.arm(address(streams), abi.encodeCall(IStreamTasksLifecycle.withdraw, (id)));
        vm.prank(streamClient);
        vm.expectRevert(REENTRANT);
        streams.withdraw(id);
        assertEq(rusd.balanceOf(address(streams)), 1_000e6);
    }
}
