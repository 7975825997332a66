// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ManagedSolBase} from "./ManagedSolBase.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IAccessManager} from "@openzeppelin/contracts/access/manager/IAccessManager.sol";
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
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {IProviderMatcher} from "../../contracts/interfaces/compute/IProviderMatcher.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {PerpDefaults} from "./PerpDefaults.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";

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
abstract contract ProtocolSolBase is ManagedSolBase {
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

    uint256 internal constant GENESIS_DPS = 10_000_000e18;
    uint256 internal constant ATTESTER_PK = 0xA77E57;
    uint256 internal constant T0 = 1_700_000_000;
    /// Halving span small enough that threshold halvings happen within a run (three providers × ≤ 0.5 GFL per epoch).
    uint256 internal constant HALVING_SPAN = 1e18;
    uint256 internal constant MAX_BOUNTY = 50e6;
    uint256 internal constant MIN_GUARANTOR_DPS = 1_000e18;
    /// Receives the perp market's DPS burn reserve (the treasury in production).
    address internal constant BURN_SINK = address(0xB0B5);

    function _deployProtocol() internal {
        vm.warp(T0);
        // governance + tokens (governance module, tokens module)
        manager = IAccessManager(
            _proxy(
                "ChxAccessManager.sol:ChxAccessManager",
                abi.encodeWithSignature("initialize(address)", address(this))
            )
        );
        dps = IDps(
            _proxy(
                "DPSToken.sol:DPSToken",
                abi.encodeWithSignature(
                    "initialize(address,address,uint256)",
                    address(manager),
                    address(this),
                    GENESIS_DPS
                )
            )
        );
        ch = IERC20(_proxy("CHToken.sol:CHToken", abi.encodeWithSignature("initialize(address)", address(manager))));
        gfl = IERC20(_proxy("GFLToken.sol:GFLToken", abi.encodeWithSignature("initialize(address)", address(manager))));
        usdc = IMintable(deployCode("MockERC20.sol:MockERC20", abi.encode("USD Coin (mock)", "USDC", uint8(6))));
        _setRole(address(dps), bytes4(keccak256("mint(address,uint256)")), Roles.EMISSION);
        _setRole(address(ch), bytes4(keccak256("mint(address,uint256)")), Roles.CH_MINTER);
        _setRole(address(ch), bytes4(keccak256("burn(address,uint256)")), Roles.CH_MINTER);
        _setRole(address(gfl), bytes4(keccak256("mint(address,uint256)")), Roles.EMISSION);
        _setRole(address(gfl), bytes4(keccak256("burn(address,uint256)")), Roles.EMISSION);
        _setRole(address(gfl), bytes4(keccak256("setBalance(address,uint256)")), Roles.EMISSION);

        // oracle module: 10 USDC/CH, 8 decimals, 1-day heartbeat
        feed = IFeed(
            deployCode("MockAggregatorV3.sol:MockAggregatorV3", abi.encode(uint8(8), "CH / USD", int256(10e8)))
        );
        oracle = IComputePriceOracle(
            _proxy(
                "ComputePriceOracle.sol:ComputePriceOracle",
                abi.encodeWithSignature(
                    "initialize(address,address,uint32,uint256,uint256,address,uint32)",
                    address(manager),
                    address(feed),
                    uint32(1 days),
                    0.01e18,
                    1_000e18,
                    address(0),
                    uint32(0)
                )
            )
        );

        // insurance module: 7-day cooldown, 2-day window
        fund = IInsuranceFund(
            _proxy(
                "InsuranceFund.sol:InsuranceFund",
                abi.encodeWithSignature(
                    "initialize(address,address,uint64,uint64)",
                    address(manager),
                    address(usdc),
                    uint64(7 days),
                    uint64(2 days)
                )
            )
        );
        _setRole(address(fund), IInsuranceFund.coverBadDebt.selector, Roles.CLEARING);
        _setRole(address(fund), IInsuranceFund.setGuarantorRequirement.selector, Roles.CLEARING);
        _setRole(address(fund), IInsuranceFund.depositFees.selector, Roles.FEE_SOURCE);

        _deployCompute();
        _deployEmission();
        _deployClearing();
        _deployTasks();
        _grant(Roles.FEE_SOURCE, address(house));
        registry.setCapacityRecorder(address(emission));
        registry.setPriceOracle(address(oracle));
    }

    function _deployCompute() private {
        standard = IComputeStandard(
            _proxy(
                "ComputeStandard.sol:ComputeStandard",
                abi.encodeWithSignature("initialize(address)", address(manager))
            )
        );
        IProviderRegistry.Params memory p = IProviderRegistry.Params({
            minStakeDps: 1_000e18,
            collateralFactorWad: 0.5e18,
            mintHorizonSec: 30 days,
            unbondingDelaySec: 7 days,
            attestationValiditySec: 30 days,
            heartbeatIntervalSec: 1 hours,
            uptimeWindowSec: 30 days,
            finderFeeBps: 1_000,
            redemptionPenaltyBps: 1_000,
            dpsPriceWad: 1e18
        });
        registry = IProviderRegistry(
            _proxy(
                "ProviderRegistry.sol:ProviderRegistry",
                abi.encodeCall(
                    ProviderRegistryInit.initialize,
                    (address(manager), address(dps), address(ch), address(standard), p)
                )
            )
        );
        _grant(Roles.CH_MINTER, address(registry));
        _grant(Roles.CAPACITY_RECORDER, address(registry));
        _setRole(address(registry), IProviderRegistry.recordTaskOutcome.selector, Roles.COMPUTE);
        _setRole(address(registry), IProviderRegistry.assignRedemption.selector, Roles.COMPUTE);
        _setRole(address(registry), IProviderRegistry.confirmDelivery.selector, Roles.COMPUTE);
        _setRole(address(registry), IProviderRegistry.reportDeliveryFailure.selector, Roles.COMPUTE);
        _setRole(address(registry), IProviderRegistry.releaseRedemption.selector, Roles.COMPUTE);
        _setRole(address(registry), IProviderRegistry.slash.selector, Roles.PROVIDER_SLASHER);
        _setRole(address(registry), IProviderRegistry.slashTo.selector, Roles.PROVIDER_SLASHER);
        _setRole(address(registry), IProviderRegistry.lockStake.selector, Roles.STAKE_LOCKER);
        _setRole(address(registry), IProviderRegistry.releaseStake.selector, Roles.STAKE_LOCKER);
        _grant(Roles.ATTESTER, vm.addr(ATTESTER_PK));
        uint64[] memory w = new uint64[](3);
        (w[0], w[1], w[2]) = (0.5e18, 0.3e18, 0.2e18);
        standard.publishReference(1, 0.312e18, w, "ML training", bytes32(0));
    }

    /// @dev tasks module: ProviderMatcher + TaskRegistry over CH/USDC/DPS, replenishing Emission (COMPUTE, SLASHER).
    function _deployTasks() private {
        matcher = IProviderMatcher(
            _proxy(
                "ProviderMatcher.sol:ProviderMatcher",
                abi.encodeWithSignature("initialize(address,address)", address(manager), address(registry))
            )
        );
        address[3] memory toks = [address(ch), address(usdc), address(dps)];
        ITaskRegistry.Params memory p = ITaskRegistry.Params({
            councilFeeBps: 100,
            dpsDiscountBps: 1_000,
            dpsReplenishBps: 2_000,
            maxCouncil: 5,
            councilWindow: 32,
            verifyWindowSec: 1 days,
            disputeWindowSec: 2 days,
            redemptionGraceSec: 1 days,
            slashDps: 100e18
        });
        tasks = ITaskRegistry(
            _proxy(
                "TaskRegistry.sol:TaskRegistry",
                abi.encodeWithSignature(
                    "initialize(address,address,address,address[3],address,(uint16,uint16,uint16,uint8,uint8,uint32,uint32,uint32,uint128))",
                    address(manager),
                    address(registry),
                    address(matcher),
                    toks,
                    address(emission),
                    p
                )
            )
        );
        _grant(Roles.COMPUTE, address(tasks));
        _grant(Roles.REWARD_SOURCE, address(tasks));
        _grant(Roles.PROVIDER_SLASHER, address(tasks));
        _grant(Roles.STAKE_LOCKER, address(tasks));
    }

    function _deployEmission() private {
        IEmission.InitParams memory e;
        e.gfl = address(gfl);
        e.dps = address(dps);
        e.genesisTime = 0;
        e.rewardShareBps = 2_000;
        e.initialRatioWad = 1e16;
        e.halvingSpanGfl = HALVING_SPAN;
        e.minSamples = 1;
        e.bounty = IEmission.BountyConfig({closeBountyDps: 1e18, perProviderBountyDps: 5e16, maxBountyDps: 10e18});
        e.keeperShareBps = 500;
        e.keeperBatchSize = 100;
        emission = IEmission(
            _proxy("Emission.sol:Emission", abi.encodeCall(EmissionInit.initialize, (address(manager), e)))
        );
        _setRole(address(emission), bytes4(keccak256("recordCapacity(address,uint256)")), Roles.CAPACITY_RECORDER);
        _setRole(address(emission), bytes4(keccak256("replenish(uint256)")), Roles.REWARD_SOURCE);
        _grant(Roles.EMISSION, address(emission));
    }

    function _deployClearing() private {
        house = IClearingHouse(
            _proxy(
                "ClearingHouse.sol:ClearingHouse",
                abi.encodeWithSignature("initialize(address,address)", address(manager), address(usdc))
            )
        );
        risk = IRiskEngine(
            _proxy(
                "RiskEngine.sol:RiskEngine",
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,uint256,uint256,uint256,uint256)",
                    address(manager),
                    address(oracle),
                    address(house),
                    address(usdc),
                    0.02e18,
                    0.94e18,
                    1 hours,
                    1e6
                )
            )
        );
        pool = IGuarantorPool(
            _proxy(
                "GuarantorPool.sol:GuarantorPool",
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,uint256,uint256)",
                    address(manager),
                    address(usdc),
                    address(dps),
                    address(house),
                    MIN_GUARANTOR_DPS,
                    10e18
                )
            )
        );
        liq = ILiquidationEngine(
            _proxy(
                "LiquidationEngine.sol:LiquidationEngine",
                abi.encodeWithSignature(
                    "initialize(address,address,uint256,uint256,uint256)",
                    address(manager),
                    address(house),
                    uint256(100),
                    MAX_BOUNTY,
                    uint256(10e6)
                )
            )
        );
        house.setModules(address(oracle), address(risk), address(pool), address(fund), address(liq));
        market = IMarket(
            deployCode(
                "MockClearingMarket.sol:MockClearingMarket",
                abi.encode(address(house), address(oracle), address(usdc))
            )
        );
        house.registerMarket(address(market));
        house.setMarketLossAbsorber(address(market), true); // stands in for a perp market (LP pool)
        risk.setMarketParams(
            address(market),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        _setRole(address(house), IClearingHouse.modifyPosition.selector, Roles.MARKET);
        _setRole(address(house), IClearingHouse.settle.selector, Roles.MARKET);
        _setRole(address(house), IClearingHouse.fundMarketPool.selector, Roles.MARKET);
        _setRole(address(house), IClearingHouse.withdrawMarketPool.selector, Roles.MARKET);
        _setRole(address(pool), IGuarantorPool.coverLoss.selector, Roles.CLEARING);
        _setRole(address(pool), IGuarantorPool.slashDps.selector, Roles.GUARANTOR_SLASHER);
        _grant(Roles.MARKET, address(market));
        _grant(Roles.CLEARING, address(liq));
    }

    /// @dev The perps module as scripts/deploy/modules/perps.ts wires it: a LiquidityVault (production limits: 10M
    ///      USDC cap, 1-day lock) and a PerpMarket (production parameters) reading the ClearingHouse's oracle — the
    ///      same ComputePriceOracle and feed the mock market and the RiskEngine read — registered in the
    ///      ClearingHouse with the production margin multiples, Roles.MARKET, added to the vault, allocate /
    ///      deallocate behind Roles.KEEPER.
    function _deployPerpMarket() internal {
        vault = ILiquidityVault(
            _proxy(
                "LiquidityVault.sol:LiquidityVault",
                abi.encodeWithSignature(
                    "initialize(address,address,string,string,uint256,uint32)",
                    address(manager),
                    address(usdc),
                    "CHX Perp LP",
                    "chxLP",
                    10_000_000e6,
                    uint32(1 days)
                )
            )
        );
        IPerpMarket.PerpParams memory p = PerpDefaults.params();
        perp = IPerpMarket(
            _proxy(
                "PerpMarket.sol:PerpMarket",
                abi.encodeWithSignature(
                    PerpDefaults.INITIALIZE_SIG,
                    address(manager),
                    address(house),
                    address(oracle),
                    address(vault),
                    BURN_SINK,
                    p
                )
            )
        );
        house.registerMarket(address(perp));
        house.setMarketLossAbsorber(address(perp), true); // as the deploy's wiring module
        risk.setMarketParams(
            address(perp),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        _grant(Roles.MARKET, address(perp));
        vault.addMarket(address(perp));
        _setRole(address(vault), ILiquidityVault.allocate.selector, Roles.KEEPER);
        _setRole(address(vault), ILiquidityVault.deallocate.selector, Roles.KEEPER);
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
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(ATTESTER_PK, registry.attestationDigest(a));
        registry.attest(a, abi.encodePacked(r, s, v));
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

/// @dev Initializer signatures, for abi.encodeCall without importing the implementations.
interface ProviderRegistryInit {
    function initialize(
        address authority,
        address dps,
        address ch,
        address standard,
        IProviderRegistry.Params calldata p
    ) external;
}

interface EmissionInit {
    function initialize(address authority, IEmission.InitParams calldata p) external;
}
