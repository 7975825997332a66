// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Deployers} from "../utils/Deployers.sol";
import {DeployDefaults} from "../utils/DeployDefaults.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IInsuranceFund} from "../../contracts/interfaces/clearing/IInsuranceFund.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IComputeStandard} from "../../contracts/interfaces/compute/IComputeStandard.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IEmission} from "../../contracts/interfaces/emission/IEmission.sol";
import {IProviderMatcher} from "../../contracts/interfaces/compute/IProviderMatcher.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @dev The subset of MockERC20 / MockAggregatorV3 / MockClearingMarket the suite drives (their artifacts are
///      deployed with deployCode, so this file never compiles them together with forge-std).
interface IMintable is IERC20 {
    function mint(address to, uint256 amount) external;
}

interface IFeed {
    function setAnswer(int256 answer) external;
    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80);
}

interface IMarket {
    function setFeeBps(uint256 feeBps) external;
    function trade(int256 sizeDeltaCh) external returns (int256);
    function settleFunding(address account, int256 amountUsdc) external;
    function fund(uint256 amountUsdc) external;
}

interface IDps is IERC20 {
    function totalEmitted() external view returns (uint256);
    function totalBurned() external view returns (uint256);
}

/// @notice The whole deployed core protocol — governance, tokens, compute (standard, registry), emission, oracle
///         (over a Chainlink-style mock feed), insurance fund and the clearing layer (house, risk, guarantors,
///         liquidation) with a test market — every contract behind a real ERC1967 proxy from its artifact, wired
///         with the roles the deploy modules set. This contract is the bootstrap admin (it plays the timelock).
/// @dev Everything is created with deployCode and driven through interfaces: solc-js (wasm) runs out of memory
///      compiling the core contracts together with forge-std in one job (HHE908, see docs/clearing.md).
abstract contract ProtocolSolBase is Deployers {
    IDps internal dps;
    IERC20 internal ch;
    IERC20 internal gfl;
    IMintable internal usdc;
    IComputeStandard internal standard;
    IProviderRegistry internal registry;
    IEmission internal emission;
    IFeed internal feed;
    IComputePriceOracle internal oracle;
    IInsuranceFund internal fund;
    IClearingHouse internal house;
    IRiskEngine internal risk;
    IGuarantorPool internal pool;
    ILiquidationEngine internal liq;
    IMarket internal market;
    IProviderMatcher internal matcher;
    ITaskRegistry internal tasks;
    IPerpMarket internal perp;
    ILiquidityVault internal vault;

    uint256 internal constant T0 = 1_700_000_000;
    /// Halving span small enough that threshold halvings happen within a run (three providers × ≤ 0.5 GFL per epoch).
    uint256 internal constant HALVING_SPAN = 1e18;
    uint256 internal constant MIN_GUARANTOR_DPS = MIN_DPS;
    /// Receives the perp market's DPS burn reserve (the treasury in production).
    address internal constant BURN_SINK = address(0xB0B5);

    /// @dev The clearing stack as Deployers returns it.
    ClearingStack internal stack;

    /// @dev The deploy modules in order: governance + tokens, oracle (10 USDC/CH, 8 decimals, 1-day heartbeat),
    ///      insurance (7-day cooldown, 2-day window), compute (30-day attestations), emission, clearing with a mock
    ///      market, tasks; then the cross-module wiring (fee source, capacity recorder, reward source, price oracle).
    function _deployProtocol() internal {
        vm.warp(T0);
        _deployAccessManager();
        dps = IDps(_deployDps(GENESIS_DPS, true));
        ch = IERC20(_deployCh());
        gfl = IERC20(_deployGfl());
        usdc = IMintable(_deployUsdc());
        feed = IFeed(_deployFeed(int256(10e8)));
        oracle = IComputePriceOracle(_deployComputeOracle(address(feed), uint32(1 days), 0.01e18, 1_000e18));
        fund = IInsuranceFund(_deployInsuranceFund(address(usdc), uint64(7 days), uint64(2 days)));

        standard = IComputeStandard(_deployComputeStandard());
        registry = IProviderRegistry(
            _deployProviderRegistry(address(dps), address(ch), address(standard), DeployDefaults.registry(30 days))
        );
        emission = IEmission(_deployEmission(DeployDefaults.emission(address(gfl), address(dps), HALVING_SPAN, 1)));
        stack = _deployClearingStack(address(usdc), address(dps), address(oracle), address(fund));
        house = IClearingHouse(stack.house);
        risk = IRiskEngine(stack.risk);
        pool = IGuarantorPool(stack.pool);
        liq = ILiquidationEngine(stack.liq);
        market = IMarket(_deployMockMarket(stack, address(oracle), address(usdc)));
        matcher = IProviderMatcher(_deployProviderMatcher(address(registry)));
        address[3] memory toks = [address(ch), address(usdc), address(dps)];
        tasks = ITaskRegistry(
            _deployTaskRegistry(
                address(registry),
                address(matcher),
                toks,
                address(emission),
                DeployDefaults.tasks(100, 100e18)
            )
        );

        _grant(Roles.CAPACITY_RECORDER, address(registry));
        _grant(Roles.REWARD_SOURCE, address(tasks));
        _grant(Roles.FEE_SOURCE, address(house));
        registry.setCapacityRecorder(address(emission));
        registry.setPriceOracle(address(oracle));
    }

    /// @dev The perps module as scripts/deploy/modules/perps.ts wires it: a LiquidityVault (production limits: 10M
    ///      USDC cap, 1-day lock) and a PerpMarket (production parameters) reading the ClearingHouse's oracle — the
    ///      same ComputePriceOracle and feed the mock market and the RiskEngine read — registered in the
    ///      ClearingHouse with the production margin multiples, Roles.MARKET, added to the vault, allocate /
    ///      deallocate behind Roles.KEEPER.
    function _deployPerpMarket() internal {
        vault = ILiquidityVault(_deployLiquidityVault(address(usdc), 10_000_000e6, uint32(1 days)));
        perp = IPerpMarket(_deployPerpMarket(stack, address(oracle), address(vault), BURN_SINK));
        _keeperGateVault(address(vault));
    }

    // ───────────── onboarding helpers ─────────────

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

    function _attest(address provider) internal {
        IProviderRegistry.Attestation memory a = _attestation(provider);
        registry.attest(a, signDigest(ATTESTER_PK, registry.attestationDigest(a)));
    }

    function _onboardProvider(address provider, uint256 stakeDps) internal {
        vm.prank(provider);
        registry.register(1, 0x2, bytes32(0), "");
        dps.transfer(provider, stakeDps);
        vm.startPrank(provider);
        dps.approve(address(registry), stakeDps);
        registry.stake(stakeDps);
        vm.stopPrank();
        _attest(provider);
    }

    function _setupGuarantor(address g, bool open, uint256 capitalUsdc) internal {
        dps.transfer(g, MIN_GUARANTOR_DPS);
        vm.startPrank(g);
        pool.registerGuarantor(open, 1_000_000e6);
        dps.approve(address(pool), MIN_GUARANTOR_DPS);
        pool.stakeDps(MIN_GUARANTOR_DPS);
        usdc.mint(g, capitalUsdc);
        usdc.approve(address(pool), capitalUsdc);
        pool.depositCapital(g, capitalUsdc);
        vm.stopPrank();
    }

    function _depositFor(address trader, uint256 amountUsdc) internal {
        usdc.mint(trader, amountUsdc);
        vm.startPrank(trader);
        usdc.approve(address(house), amountUsdc);
        house.deposit(amountUsdc);
        vm.stopPrank();
    }
}
