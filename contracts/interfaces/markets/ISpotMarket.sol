// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISpotPriceSource} from "../callback/ISpotPriceSource.sol";
import {IERC5267} from "@openzeppelin/contracts/interfaces/IERC5267.sol";
import {ISpotMarketErrors} from "./ISpotMarketErrors.sol";
import {ISpotMarketEvents} from "./ISpotMarketEvents.sol";
import {ISpotMarketConfigEvents} from "./ISpotMarketConfigEvents.sol";
import {ISpotMarketTrading} from "./ISpotMarketTrading.sol";
import {ISpotMarketAdmin} from "./ISpotMarketAdmin.sol";
import {ISpotMarketViews} from "./ISpotMarketViews.sol";

/// @title ISpotMarket
/// @notice The CH/USDC spot market (SPEC section 6): EIP-712 signed limit orders that anyone fills or matches on
///         chain, atomic OTC deals, maker/taker fees with DPS seat discounts, and a TWAP of fills for the oracle.
/// @dev Units: `amountCh` in CH wei (18 decimals); `priceWad` in USDC per CH as WAD (1e18 = 1 USDC per CH);
///      `*Usdc` in USDC units (6 decimals). The one conversion is `SpotMath.quoteUsdc{Up,Down}`
///      (amountCh · priceWad / 1e30): whoever pays USDC pays the amount rounded up, whoever receives USDC gets
///      it rounded down, fees round up; the difference stays with the protocol as fee income (ACC-05).
///      EIP-712 domain: ERC-5267 `eip712Domain()` (OpenZeppelin EIP712Upgradeable; name "CHX Spot", version "1").
///      The order and seat types stay here; the functions are split by role (ISpotMarketTrading, ISpotMarketAdmin,
///      ISpotMarketViews) and the events into ISpotMarketEvents (trading) and ISpotMarketConfigEvents (seats, settings).
interface ISpotMarket is
    ISpotMarketErrors,
    ISpotMarketEvents,
    ISpotMarketConfigEvents,
    ISpotMarketTrading,
    ISpotMarketAdmin,
    ISpotMarketViews,
    ISpotPriceSource,
    IERC5267
{
    /// @notice A maker's signed limit order (EIP-712 type `Order`).
    /// @param maker The signer (an EOA, or an ERC-1271 wallet) whose tokens move.
    /// @param isBuy True: the maker buys CH with USDC. False: the maker sells CH for USDC.
    /// @param amountCh Total CH the order may trade, 18 decimals (≤ type(uint128).max).
    /// @param priceWad Limit price in USDC per CH, WAD.
    /// @param nonce The maker's order id: one order per nonce, and orders below the maker's minimum nonce are void.
    /// @param expiry Unix time (seconds) after which the order can no longer be filled.
    /// @param taker The only account allowed to fill it (OTC-style private order), or address(0) for anyone.
    struct Order {
        address maker;
        bool isBuy;
        uint256 amountCh;
        uint256 priceWad;
        uint256 nonce;
        uint64 expiry;
        address taker;
    }

    /// @notice A bilateral OTC deal (EIP-712 type `Deal`), settled all at once; it does not update the TWAP.
    /// @param seller Delivers `amountCh` CH.
    /// @param buyer Pays `amountCh · priceWad` USDC.
    /// @param amountCh CH traded, 18 decimals.
    /// @param priceWad Agreed price, USDC per CH, WAD.
    /// @param nonce Deal id; the deal is void when below either party's minimum nonce.
    /// @param expiry Unix time (seconds) after which the deal can no longer be settled.
    struct Deal {
        address seller;
        address buyer;
        uint256 amountCh;
        uint256 priceWad;
        uint256 nonce;
        uint64 expiry;
    }

    /// @notice Per order (or deal) hash: CH filled so far and whether it was cancelled.
    /// @param filledCh CH filled so far (a settled deal records its whole amount).
    /// @param cancelled True once its maker (or a deal party) cancelled it.
    struct OrderState {
        uint128 filledCh;
        bool cancelled;
    }

    /// @notice A DPS seat: staked DPS gives a fee-discount tier; unstaking waits `unstakeDelaySec`.
    /// @param stakedDps DPS counting towards the tier.
    /// @param pendingDps DPS requested out, waiting for `unlockAt`; no longer counts towards the tier.
    /// @param unlockAt Unix time (seconds) from which `pendingDps` can be withdrawn.
    struct Seat {
        uint128 stakedDps;
        uint128 pendingDps;
        uint64 unlockAt;
    }

    /// @notice Amounts of one settlement, as emitted.
    /// @param buyer Receives CH, pays USDC.
    /// @param seller Delivers CH, receives USDC.
    /// @param amountCh CH moved from seller to buyer.
    /// @param buyerPaidUsdc USDC the buyer paid in total (quote rounded up + buyer fee).
    /// @param sellerReceivedUsdc USDC the seller received (quote rounded down − seller fee).
    /// @param buyerFeeUsdc The buyer's fee, USDC.
    /// @param sellerFeeUsdc The seller's fee, USDC.
    /// @param protocolUsdc USDC kept by the market as fee income (fees + rounding), added to pending fees.
    /// @param spreadUsdc USDC paid to the matcher (matches only; 0 otherwise).
    struct Settlement {
        address buyer;
        address seller;
        uint256 amountCh;
        uint256 buyerPaidUsdc;
        uint256 sellerReceivedUsdc;
        uint256 buyerFeeUsdc;
        uint256 sellerFeeUsdc;
        uint256 protocolUsdc;
        uint256 spreadUsdc;
    }
}
