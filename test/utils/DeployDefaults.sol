// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IEmission} from "../../contracts/interfaces/emission/IEmission.sol";
import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IPerpMarket} from "../../contracts/interfaces/markets/IPerpMarket.sol";

/// @notice The parameter sets the Solidity tests and invariant handlers deploy with. Deployers' steps take these as
///         arguments, so a test can start from a default and change one field before deploying.
library DeployDefaults {
    /// @notice The PerpMarket.initialize signature with the PerpParams tuple spelled out (abi.encodeWithSignature).
    string internal constant PERP_INITIALIZE_SIG =
        "initialize(address,address,address,address,address,(uint96,uint64,uint64,uint16,uint16,uint96,uint96,uint16,uint16,uint16,uint16,uint96,uint64,uint32,uint32,uint32))";

    /// @notice The perp parameters of scripts/deploy/modules/perps.ts, so every suite that deploys a PerpMarket
    ///         exercises the production configuration.
    function perp() internal pure returns (IPerpMarket.PerpParams memory) {
        return
            IPerpMarket.PerpParams({
                skewScaleCh: 1_000_000e18,
                maxFundingVelocityWad: 3e18,
                maxFundingRateWad: 0.1e18,
                makerFeeBps: 2,
                takerFeeBps: 5,
                maxOpenInterestCh: 100_000e18,
                maxPositionCh: 10_000e18,
                insuranceShareBps: 2_000,
                burnShareBps: 1_000,
                lpReserveBps: 1_000,
                minOrderDelaySec: 30,
                minTradeCh: 0.01e18,
                pokeBountyUsdc: 0.1e6,
                pokeIntervalSec: 1 hours,
                maxOrderDelaySec: 300,
                executionFeeUsdc: 0.5e6
            });
    }

    /// @notice Production margin multiples of a registered market: IM = max(10 %, 3σ), MM = max(5 %, 1.5σ).
    function marketRisk() internal pure returns (IRiskEngine.MarketRiskParams memory) {
        return
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            });
    }

    /// @notice ProviderRegistry parameters; `attestationValiditySec` is the one the suites vary.
    function registry(uint64 attestationValiditySec) internal pure returns (IProviderRegistry.Params memory) {
        return
            IProviderRegistry.Params({
                minStakeDps: 1_000e18,
                collateralFactorWad: 0.5e18,
                mintHorizonSec: 30 days,
                unbondingDelaySec: 7 days,
                attestationValiditySec: attestationValiditySec,
                heartbeatIntervalSec: 1 hours,
                uptimeWindowSec: 30 days,
                finderFeeBps: 1_000,
                redemptionPenaltyBps: 1_000,
                dpsPriceWad: 1e18
            });
    }

    /// @notice TaskRegistry parameters with `councilFeeBps` per council member and `slashDps` per slash.
    function tasks(uint16 councilFeeBps, uint128 slashDps) internal pure returns (ITaskRegistry.Params memory) {
        return
            ITaskRegistry.Params({
                councilFeeBps: councilFeeBps,
                dpsDiscountBps: 1_000,
                dpsReplenishBps: 2_000,
                maxCouncil: 5,
                councilWindow: 32,
                verifyWindowSec: 1 days,
                disputeWindowSec: 2 days,
                redemptionGraceSec: 1 days,
                slashDps: slashDps
            });
    }

    /// @notice Emission parameters over `gfl` / `dps` with a halving every `spanGfl` and `minSamples` per epoch.
    function emission(
        address gfl,
        address dps,
        uint256 spanGfl,
        uint256 minSamples
    ) internal pure returns (IEmission.InitParams memory p) {
        p.gfl = gfl;
        p.dps = dps;
        p.genesisTime = 0;
        p.rewardShareBps = 2_000;
        p.initialRatioWad = 1e16;
        p.halvingSpanGfl = spanGfl;
        p.minSamples = minSamples;
        p.bounty = IEmission.BountyConfig({closeBountyDps: 1e18, perProviderBountyDps: 5e16, maxBountyDps: 10e18});
        p.keeperShareBps = 500;
        p.keeperBatchSize = 100;
    }

    /// @notice FuturesMarket parameters of the futures suites.
    function futures() internal pure returns (IFuturesTypes.Params memory) {
        return
            IFuturesTypes.Params({
                feeBps: 5,
                penaltyBps: 1_000,
                maxPremiumBps: 1_000,
                maxCorrectionBps: 1_000,
                vaultReserveBps: 1_000,
                maxLiveSeries: 12,
                electionCutoffSec: 1 hours,
                disputeWindowSec: 1 hours,
                deliveryWindowSec: 1 days,
                proofWindowSec: 1 days,
                minListingLeadSec: 1 hours,
                keeperBountyUsdc: 1e6,
                skewScaleCh: 100_000e18,
                premiumHorizonSec: 30 days,
                defaultOiCapCh: 1_000_000e18,
                minOrderDelaySec: 30,
                maxOrderDelaySec: 300,
                executionFeeUsdc: 0.5e6
            });
    }
}

/// @dev Initializer signatures with struct parameters, for abi.encodeCall without importing the implementations.
interface IFuturesMarketInit {
    function initialize(
        address authority,
        address clearingHouse,
        address oracle,
        address ch,
        address vault,
        address module,
        IFuturesTypes.Params calldata params
    ) external;
}

interface EmissionInit {
    function initialize(address authority, IEmission.InitParams calldata p) external;
}
