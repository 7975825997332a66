// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {IAccessManager} from "@openzeppelin/contracts/access/manager/IAccessManager.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IInsuranceFund} from "../../contracts/interfaces/clearing/IInsuranceFund.sol";
import {IComputePriceOracle} from "../../contracts/interfaces/oracle/IComputePriceOracle.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IComputeStandard} from "../../contracts/interfaces/compute/IComputeStandard.sol";
import {IDeliveryOrders} from "../../contracts/interfaces/compute/IDeliveryOrders.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IEmission} from "../../contracts/interfaces/emission/IEmission.sol";
import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesMarket} from "../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IFuturesExercise} from "../../contracts/interfaces/markets/IFuturesExercise.sol";
import {ILiquidityVault} from "../../contracts/interfaces/markets/ILiquidityVault.sol";
import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";
import {DeployDefaults, IFuturesMarketInit, EmissionInit} from "./DeployDefaults.sol";

/// @notice The one deploy base of the Solidity tests: every component of the protocol is deployed here, once, the way
///         the production deploy modules (scripts/deploy/modules/*) do it — an ERC-1967 proxy over a fresh
///         implementation, initialized in the proxy's constructor, then the AccessManager wiring of that module. The
///         test contract is the bootstrap admin (it plays the timelock).
/// @dev Each step can be called alone: dependencies are arguments, it returns the address, which the test (or its
///      fixture in test/helpers) keeps in the type it drives. Implementations come from artifacts (`deployCode`),
///      never `new` (solc-js wasm memory, HHE908, docs/clearing.md). How to set up a new test: docs/testing.md.
abstract contract Deployers is Test {
    /// @notice The AccessManager every deployed module answers to (set by `_deployAccessManager`).
    IAccessManager public manager;

    /// @notice The key granted Roles.ATTESTER by the registry step; DPS minted to the test contract at genesis.
    uint256 internal constant ATTESTER_PK = 0xA77E57;
    uint256 internal constant GENESIS_DPS = 10_000_000e18;
    /// @notice Clearing defaults: GuarantorPool bond and leverage; liquidation bounty (1 % of notional), cap, dust.
    uint256 internal constant MIN_DPS = 1_000e18;
    uint256 internal constant MAX_LEVERAGE = 10e18;
    uint256 internal constant BOUNTY_BPS = 100;
    uint256 internal constant MAX_BOUNTY = 50e6;
    uint256 internal constant DUST = 10e6;

    /// @notice The clearing layer as `_deployClearingStack` returns it (house, risk, guarantor pool, liquidation).
    struct ClearingStack {
        address house;
        address risk;
        address pool;
        address liq;
    }

    /// @notice An ERC-1967 proxy over `impl`, initialized with `init` in its constructor (as production deploys).
    function _proxy(address impl, bytes memory init) internal returns (address) {
        return address(new ERC1967Proxy(impl, init));
    }

    /// @notice The same over a fresh implementation deployed from `artifact` ("File.sol:Contract").
    function _proxy(string memory artifact, bytes memory init) internal returns (address) {
        return _proxy(deployCode(artifact), init);
    }

    /// @notice `_proxy(artifact, …)` of a module whose initializer takes only its `authority`.
    function _managedProxy(string memory artifact, address authority) internal returns (address) {
        return _proxy(artifact, abi.encodeWithSignature("initialize(address)", authority));
    }

    /// @notice Maps one function of `target` to `role` in the AccessManager.
    function _setRole(address target, bytes4 selector, uint64 role) internal {
        bytes4[] memory sels = new bytes4[](1);
        sels[0] = selector;
        manager.setTargetFunctionRole(target, sels, role);
    }

    /// @notice Grants `role` to `account` with no execution delay.
    function _grant(uint64 role, address account) internal {
        manager.grantRole(role, account, 0);
    }

    /// @notice The ChxAccessManager with this contract as initial admin; stored in `manager`.
    function _deployAccessManager() internal returns (address) {
        manager = IAccessManager(_managedProxy("ChxAccessManager.sol:ChxAccessManager", address(this)));
        return address(manager);
    }

    /// @notice DPSToken with `genesis` minted to this contract. `withRoles`: mint behind Roles.EMISSION (tokens module).
    function _deployDps(uint256 genesis, bool withRoles) internal returns (address dps) {
        dps = _proxy(
            "DPSToken.sol:DPSToken",
            abi.encodeWithSignature("initialize(address,address,uint256)", address(manager), address(this), genesis)
        );
        if (withRoles) _setRole(dps, bytes4(keccak256("mint(address,uint256)")), Roles.EMISSION);
    }

    /// @notice CHToken; mint and burn behind Roles.CH_MINTER (tokens module).
    function _deployCh() internal returns (address ch) {
        ch = _managedProxy("CHToken.sol:CHToken", address(manager));
        _setRole(ch, bytes4(keccak256("mint(address,uint256)")), Roles.CH_MINTER);
        _setRole(ch, bytes4(keccak256("burn(address,uint256)")), Roles.CH_MINTER);
    }

    /// @notice GFLToken; mint, burn and setBalance behind Roles.EMISSION (tokens module).
    function _deployGfl() internal returns (address gfl) {
        gfl = _managedProxy("GFLToken.sol:GFLToken", address(manager));
        _setRole(gfl, bytes4(keccak256("mint(address,uint256)")), Roles.EMISSION);
        _setRole(gfl, bytes4(keccak256("burn(address,uint256)")), Roles.EMISSION);
        _setRole(gfl, bytes4(keccak256("setBalance(address,uint256)")), Roles.EMISSION);
    }

    /// @notice A 6-decimal MockERC20 standing in for USDC (anyone may mint).
    function _deployUsdc() internal returns (address) {
        return deployCode("MockERC20.sol:MockERC20", abi.encode("USD Coin (mock)", "USDC", uint8(6)));
    }

    // ───────────── oracle and insurance ─────────────

    /// @notice A Chainlink-style MockAggregatorV3 "CH / USD" with 8 decimals answering `answer`.
    function _deployFeed(int256 answer) internal returns (address) {
        return deployCode("MockAggregatorV3.sol:MockAggregatorV3", abi.encode(uint8(8), "CH / USD", answer));
    }

    /// @notice ComputePriceOracle over `feed` (no sequencer feed, no spot source).
    function _deployComputeOracle(
        address feed,
        uint32 heartbeatSec,
        uint256 minPriceWad,
        uint256 maxPriceWad
    ) internal returns (address) {
        IComputePriceOracle.Config memory c;
        (c.feed, c.heartbeatSec, c.minPriceWad, c.maxPriceWad) = (feed, heartbeatSec, minPriceWad, maxPriceWad);
        return _proxy(_deployOracleImpl(c), abi.encodeWithSignature("initialize(address)", address(manager)));
    }

    /// @notice The one constructor of ComputePriceOracle implementations in the tests (configuration immutables).
    function _deployOracleImpl(IComputePriceOracle.Config memory c) internal returns (address) {
        return deployCode("ComputePriceOracle.sol:ComputePriceOracle", abi.encode(c));
    }

    /// @notice InsuranceFund over `usdc`; coverBadDebt and setGuarantorRequirement behind Roles.CLEARING, depositFees
    ///         behind Roles.FEE_SOURCE (insurance module).
    function _deployInsuranceFund(address usdc, uint64 cooldownSec, uint64 windowSec) internal returns (address fund) {
        fund = _proxy(
            "InsuranceFund.sol:InsuranceFund",
            abi.encodeWithSignature(
                "initialize(address,address,uint64,uint64)",
                address(manager),
                usdc,
                cooldownSec,
                windowSec
            )
        );
        _setRole(fund, IInsuranceFund.coverBadDebt.selector, Roles.CLEARING);
        _setRole(fund, IInsuranceFund.setGuarantorRequirement.selector, Roles.CLEARING);
        _setRole(fund, IInsuranceFund.depositFees.selector, Roles.FEE_SOURCE);
    }

    /// @notice Puts `module`'s pauseFeature behind Roles.GUARDIAN (the guardian module's wiring).
    function _guardPause(address module) internal {
        _setRole(module, IChxModule.pauseFeature.selector, Roles.GUARDIAN);
    }

    // ───────────── compute, emission, tasks ─────────────

    /// @notice ComputeStandard with reference version 1 of workload class 1 published (ML training, three factors).
    function _deployComputeStandard() internal returns (address standard) {
        standard = _managedProxy("ComputeStandard.sol:ComputeStandard", address(manager));
        uint64[] memory w = new uint64[](3);
        (w[0], w[1], w[2]) = (0.5e18, 0.3e18, 0.2e18);
        IComputeStandard(standard).publishReference(1, 0.312e18, w, "ML training", bytes32(0));
    }

    /// @notice ProviderRegistry wired as the compute module wires it: CH_MINTER, the task-outcome and delivery
    ///         functions behind COMPUTE, slashing behind PROVIDER_SLASHER, stake locks behind STAKE_LOCKER, and
    ///         Roles.ATTESTER for `vm.addr(ATTESTER_PK)`.
    function _deployProviderRegistry(
        address dps,
        address ch,
        address standard,
        IProviderRegistry.Params memory p
    ) internal returns (address registry) {
        registry = _proxy(
            "ProviderRegistry.sol:ProviderRegistry",
            abi.encodeWithSignature(
                "initialize(address,address,address,address,(uint96,uint96,uint64,uint64,uint64,uint32,uint32,uint16,uint16,uint128))",
                address(manager),
                dps,
                ch,
                standard,
                p
            )
        );
        _grant(Roles.CH_MINTER, registry);
        _setRole(registry, IProviderRegistry.recordTaskOutcome.selector, Roles.COMPUTE);
        _setRole(registry, IProviderRegistry.assignRedemption.selector, Roles.COMPUTE);
        _setRole(registry, IProviderRegistry.confirmDelivery.selector, Roles.COMPUTE);
        _setRole(registry, IProviderRegistry.reportDeliveryFailure.selector, Roles.COMPUTE);
        _setRole(registry, IProviderRegistry.releaseRedemption.selector, Roles.COMPUTE);
        _setRole(registry, IProviderRegistry.slash.selector, Roles.PROVIDER_SLASHER);
        _setRole(registry, IProviderRegistry.slashTo.selector, Roles.PROVIDER_SLASHER);
        _setRole(registry, IProviderRegistry.lockStake.selector, Roles.STAKE_LOCKER);
        _setRole(registry, IProviderRegistry.releaseStake.selector, Roles.STAKE_LOCKER);
        _grant(Roles.ATTESTER, vm.addr(ATTESTER_PK));
    }

    /// @notice Emission with `p`; recordCapacity behind CAPACITY_RECORDER, replenish behind REWARD_SOURCE, and
    ///         Roles.EMISSION (DPS / GFL minting) granted to it.
    function _deployEmission(IEmission.InitParams memory p) internal returns (address emission) {
        emission = _proxy("Emission.sol:Emission", abi.encodeCall(EmissionInit.initialize, (address(manager), p)));
        _setRole(emission, bytes4(keccak256("recordCapacity(address,uint256)")), Roles.CAPACITY_RECORDER);
        _setRole(emission, bytes4(keccak256("replenish(uint256)")), Roles.REWARD_SOURCE);
        _grant(Roles.EMISSION, emission);
    }

    /// @notice ProviderMatcher over `registry`.
    function _deployProviderMatcher(address registry) internal returns (address) {
        return
            _proxy(
                "ProviderMatcher.sol:ProviderMatcher",
                abi.encodeWithSignature("initialize(address,address)", address(manager), registry)
            );
    }

    /// @notice TaskRegistry paying in `toks` (CH, USDC, DPS), replenishing `rewardPool`; holds COMPUTE,
    ///         PROVIDER_SLASHER and STAKE_LOCKER (tasks module).
    function _deployTaskRegistry(
        address registry,
        address matcher,
        address[3] memory toks,
        address rewardPool,
        ITaskRegistry.Params memory p
    ) internal returns (address tasks) {
        tasks = _proxy(
            "TaskRegistry.sol:TaskRegistry",
            abi.encodeWithSignature(
                "initialize(address,address,address,address[3],address,(uint16,uint16,uint16,uint8,uint8,uint32,uint32,uint32,uint128))",
                address(manager),
                registry,
                matcher,
                toks,
                rewardPool,
                p
            )
        );
        _grant(Roles.COMPUTE, tasks);
        _grant(Roles.PROVIDER_SLASHER, tasks);
        _grant(Roles.STAKE_LOCKER, tasks);
    }

    /// @notice StreamTasks on `matcher` paying in `toks`, one-day window; may lock subscribers' stake (STAKE_LOCKER).
    function _deployStreamTasks(address matcher, address[3] memory toks) internal returns (address streams) {
        streams = _proxy(
            "StreamTasks.sol:StreamTasks",
            abi.encodeWithSignature(
                "initialize(address,address,address[3],uint32)",
                address(manager),
                matcher,
                toks,
                uint32(1 days)
            )
        );
        _grant(Roles.STAKE_LOCKER, streams);
    }

    /// @notice DeliveryOrders for futures market `market` (`deps`: registry, matcher, tasks, standard, ch, dps),
    ///         holding COMPUTE and PROVIDER_SLASHER.
    function _deployDeliveryOrders(
        address market,
        address[6] memory deps,
        IDeliveryOrders.Spec memory spec
    ) internal returns (address d) {
        d = _proxy(
            "DeliveryOrders.sol:DeliveryOrders",
            abi.encodeWithSignature(
                "initialize(address,address,address,address,address,address,address,address,(uint16,uint8,uint32))",
                address(manager),
                market,
                deps[0],
                deps[1],
                deps[2],
                deps[3],
                deps[4],
                deps[5],
                spec
            )
        );
        _grant(Roles.COMPUTE, d);
        _grant(Roles.PROVIDER_SLASHER, d);
    }

    // ───────────── clearing ─────────────

    /// @notice ClearingHouse, RiskEngine, GuarantorPool and LiquidationEngine over collateral `token`, reading
    ///         `oracle`, backed by `insurance`, with the module wiring of the clearing deploy module (market
    ///         functions behind MARKET, coverLoss behind CLEARING held by the liquidation engine, slashDps behind
    ///         GUARANTOR_SLASHER).
    function _deployClearingStack(
        address token,
        address dps,
        address oracle,
        address insurance
    ) internal returns (ClearingStack memory c) {
        c.house = _proxy(
            deployCode("ClearingHouse.sol:ClearingHouse", abi.encode(token)),
            abi.encodeWithSignature("initialize(address,address)", address(manager), token)
        );
        c.risk = _proxy(
            "RiskEngine.sol:RiskEngine",
            abi.encodeWithSignature(
                "initialize(address,address,address,address,uint256,uint256,uint256,uint256)",
                address(manager),
                oracle,
                c.house,
                token,
                0.02e18,
                0.94e18,
                1 hours,
                1e6
            )
        );
        c.pool = _proxy(
            "GuarantorPool.sol:GuarantorPool",
            abi.encodeWithSignature(
                "initialize(address,address,address,address,uint256,uint256)",
                address(manager),
                token,
                dps,
                c.house,
                MIN_DPS,
                MAX_LEVERAGE
            )
        );
        c.liq = _proxy(
            "LiquidationEngine.sol:LiquidationEngine",
            abi.encodeWithSignature(
                "initialize(address,address,uint256,uint256,uint256)",
                address(manager),
                c.house,
                BOUNTY_BPS,
                MAX_BOUNTY,
                DUST
            )
        );
        IClearingHouse(c.house).setModules(oracle, c.risk, c.pool, insurance, c.liq);
        _setRole(c.house, IClearingHouse.modifyPosition.selector, Roles.MARKET);
        _setRole(c.house, IClearingHouse.settle.selector, Roles.MARKET);
        _setRole(c.house, IClearingHouse.fundMarketPool.selector, Roles.MARKET);
        _setRole(c.house, IClearingHouse.withdrawMarketPool.selector, Roles.MARKET);
        _setRole(c.pool, IGuarantorPool.coverLoss.selector, Roles.CLEARING);
        _setRole(c.pool, IGuarantorPool.slashDps.selector, Roles.GUARANTOR_SLASHER);
        _grant(Roles.CLEARING, c.liq);
    }

    /// @notice Registers `market` in the ClearingHouse with the production margin multiples and grants it
    ///         Roles.MARKET; `lossAbsorber`: its pool absorbs losses before the guarantors (perps, futures).
    function _registerMarket(ClearingStack memory c, address market, bool lossAbsorber) internal {
        IClearingHouse(c.house).registerMarket(market);
        if (lossAbsorber) IClearingHouse(c.house).setMarketLossAbsorber(market, true);
        IRiskEngine(c.risk).setMarketParams(market, DeployDefaults.marketRisk());
        _grant(Roles.MARKET, market);
    }

    /// @notice Portfolio margin for `market` (it holds, values and scenario-margins its accounts), with the
    ///         production margin multiples.
    function _portfolioMargin(ClearingStack memory c, address market) internal {
        IClearingHouse(c.house).setMarketHoldsAccounts(market, true);
        IClearingHouse(c.house).setMarketAccountRisk(market, true);
        IClearingHouse(c.house).setMarketScenarioRisk(market, true);
        IRiskEngine(c.risk).setMarketParams(market, DeployDefaults.marketRisk());
    }

    /// @notice A MockClearingMarket on the stack, registered as a loss absorber (it stands in for a perp market).
    function _deployMockMarket(ClearingStack memory c, address oracle, address token) internal returns (address m) {
        m = deployCode("MockClearingMarket.sol:MockClearingMarket", abi.encode(c.house, oracle, token));
        _registerMarket(c, m, true);
    }

    /// @notice LiquidityVault over `usdc` with deposit cap `capUsdc` and lock `lockSec`.
    function _deployLiquidityVault(address usdc, uint256 capUsdc, uint32 lockSec) internal returns (address) {
        return
            _proxy(
                "LiquidityVault.sol:LiquidityVault",
                abi.encodeWithSignature(
                    "initialize(address,address,string,string,uint256,uint32)",
                    address(manager),
                    usdc,
                    "CHX Perp LP",
                    "chxLP",
                    capUsdc,
                    lockSec
                )
            );
    }

    /// @notice PerpMarket with the production parameters (DeployDefaults.perp) reading `index`, registered on the
    ///         stack as a loss absorber and added to `vault` (perps module).
    function _deployPerpMarket(
        ClearingStack memory c,
        address index,
        address vault,
        address burnSink
    ) internal returns (address perp) {
        perp = _proxy(
            deployCode("PerpMarket.sol:PerpMarket", abi.encode(c.house, index)),
            abi.encodeWithSignature(
                DeployDefaults.PERP_INITIALIZE_SIG,
                address(manager),
                c.house,
                index,
                vault,
                burnSink,
                DeployDefaults.perp()
            )
        );
        _registerMarket(c, perp, true);
        ILiquidityVault(vault).addMarket(perp);
    }

    /// @notice Puts `vault`'s allocate / deallocate behind Roles.KEEPER (perps module).
    function _keeperGateVault(address vault) internal {
        _setRole(vault, ILiquidityVault.allocate.selector, Roles.KEEPER);
        _setRole(vault, ILiquidityVault.deallocate.selector, Roles.KEEPER);
    }

    /// @notice FuturesMarket with its FuturesDelivery module reading `index`, delivering `ch`, no vault yet;
    ///         registered on the stack (loss absorber, account risk, holds accounts), openFromExercise behind
    ///         MARKET and disputeSettlementPrice behind GUARDIAN (futures module).
    function _deployFuturesMarket(
        ClearingStack memory c,
        address index,
        address ch,
        IFuturesTypes.Params memory p
    ) internal returns (address futures) {
        address module = deployCode("FuturesDelivery.sol:FuturesDelivery");
        futures = _proxy(
            "FuturesMarket.sol:FuturesMarket",
            abi.encodeCall(IFuturesMarketInit.initialize, (address(manager), c.house, index, ch, address(0), module, p))
        );
        _registerMarket(c, futures, true);
        IClearingHouse(c.house).setMarketAccountRisk(futures, true);
        IClearingHouse(c.house).setMarketHoldsAccounts(futures, true);
        _setRole(futures, IFuturesExercise.openFromExercise.selector, Roles.MARKET);
        _setRole(futures, IFuturesMarket.disputeSettlementPrice.selector, Roles.GUARDIAN);
    }

    /// @notice OptionsMarket with its OptionsSettlement module reading `oracle`, fees to `feeRecipient`; registered
    ///         on the stack with Roles.MARKET (no margin multiples: options margin is scenario-based).
    function _deployOptionsMarket(
        ClearingStack memory c,
        address oracle,
        address feeRecipient
    ) internal returns (address options) {
        address settlement = deployCode("OptionsSettlement.sol:OptionsSettlement");
        options = _proxy(
            "OptionsMarket.sol:OptionsMarket",
            abi.encodeWithSignature(
                "initialize(address,address,address,address,address)",
                address(manager),
                c.house,
                oracle,
                feeRecipient,
                settlement
            )
        );
        IClearingHouse(c.house).registerMarket(options);
        _grant(Roles.MARKET, options);
    }

    /// @notice SpotMarket under `authority` trading `ch` against `usdc`, DPS fee discounts in `dps`.
    function _deploySpotMarket(
        address authority,
        address[3] memory chUsdcDps,
        address treasury,
        address fund
    ) internal returns (address) {
        return
            _proxy(
                "SpotMarket.sol:SpotMarket",
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,address,address)",
                    authority,
                    chUsdcDps[0],
                    chUsdcDps[1],
                    chUsdcDps[2],
                    treasury,
                    fund
                )
            );
    }
}
