// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IRiskEngine} from "../clearing/IRiskEngine.sol";

/// @title IClearingRiskSync
/// @notice The RiskEngine's push into the ClearingHouse's copy of the margin-rate inputs (σ and each market's
///         parameters), so a margin check computes the rates locally instead of calling the RiskEngine (≈ 10k gas
///         less per check). Internal to the clearing layer: markets never call it.
/// @dev The ClearingHouse keys the copy by the RiskEngine that pushed it and uses it only while that RiskEngine is
///      the one set in `setModules`; otherwise (or for a market without pushed parameters) it calls
///      `IRiskEngine.marginRates`, so the copy can never be staler than the RiskEngine. A push from any other address
///      changes nothing (a replaced RiskEngine keeps working). No events: the RiskEngine's VolatilityUpdated and
///      MarketRiskParamsSet carry the same values.
interface IClearingRiskSync {
    /// @notice Records σ after a RiskEngine update (only from the ClearingHouse's RiskEngine).
    /// @param sigmaWad σ, WAD.
    function syncVolatility(uint256 sigmaWad) external;

    /// @notice Records a market's parameters after the RiskEngine set them (only from the ClearingHouse's RiskEngine).
    /// @param market The market.
    /// @param params The parameters.
    function syncMarketRisk(address market, IRiskEngine.MarketRiskParams calldata params) external;

    /// @notice Records a market's own σ after a RiskEngine update (only from the ClearingHouse's RiskEngine): margin
    ///         uses `sigmaWad` (already floored) until `staleAt`, then max(`sigmaWad`, `staleSigmaWad`).
    /// @param market The market.
    /// @param sigmaWad σ, WAD.
    /// @param staleSigmaWad σ once stale, WAD.
    /// @param staleAt Unix seconds after which the σ is stale.
    function syncMarketVolatility(address market, uint256 sigmaWad, uint256 staleSigmaWad, uint256 staleAt) external;
}
