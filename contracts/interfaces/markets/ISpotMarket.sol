// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISpotPriceSource} from "../callback/ISpotPriceSource.sol";
import {IERC5267} from "@openzeppelin/contracts/interfaces/IERC5267.sol";
import {ISpotMarketErrors} from "./ISpotMarketErrors.sol";
import {ISpotMarketEvents} from "./ISpotMarketEvents.sol";

/// @title ISpotMarket
/// @notice The CH/USDC spot market (SPEC section 6): EIP-712 signed limit orders that anyone fills or matches on
///         chain, atomic OTC deals, maker/taker fees with DPS seat discounts, and a TWAP of fills for the oracle.
/// @dev Units: `amountCh` in CH wei (18 decimals); `priceWad` in USDC per CH as WAD (1e18 = 1 USDC per CH);
///      `*Usdc` in USDC units (6 decimals). The one conversion is `SpotMath.quoteUsdc{Up,Down}`
///      (amountCh · priceWad / 1e30): whoever pays USDC pays the amount rounded up, whoever receives USDC gets
///      it rounded down, fees round up; the difference stays with the protocol as fee income (ACC-05).
///      EIP-712 domain: ERC-5267 `eip712Domain()` (OpenZeppelin EIP712Upgradeable; name "CHX Spot", version "1").
interface ISpotMarket is ISpotMarketErrors, ISpotMarketEvents, ISpotPriceSource, IERC5267 {
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

    // ---------------------------------------------------------------- trading

    /// @notice Fills up to `amountCh` of a signed order; the caller is the taker and pays the taker fee.
    /// @dev The maker approves the market for CH (sell) or USDC (buy); the taker approves the other token.
    ///      Feature "spot.trade".
    /// @param order The order.
    /// @param signature The maker's EIP-712 signature (65-byte ECDSA, or an ERC-1271 wallet's signature).
    /// @param amountCh CH to trade now (≤ remaining).
    /// @return filledAfterCh The order's filled CH after this fill.
    function fillOrder(
        Order calldata order,
        bytes calldata signature,
        uint256 amountCh
    ) external returns (uint256 filledAfterCh);

    /// @notice Matches a crossing buy and sell order for `amountCh`; both pay the maker fee, each trades at its own
    ///         limit price, and the caller (matcher) receives the spread. Feature "spot.trade".
    /// @param buy A buy order.
    /// @param buySignature Its maker's signature.
    /// @param sell A sell order with `sell.priceWad ≤ buy.priceWad`.
    /// @param sellSignature Its maker's signature.
    /// @param amountCh CH to trade (≤ both remainders).
    function matchOrders(
        Order calldata buy,
        bytes calldata buySignature,
        Order calldata sell,
        bytes calldata sellSignature,
        uint256 amountCh
    ) external;

    /// @notice Settles an OTC deal atomically. A party that is the caller need not sign; the other must.
    ///         Both pay the maker fee. Feature "spot.trade".
    /// @param deal The deal.
    /// @param sellerSignature The seller's signature (may be empty when the seller is the caller).
    /// @param buyerSignature The buyer's signature (may be empty when the buyer is the caller).
    function settleDeal(Deal calldata deal, bytes calldata sellerSignature, bytes calldata buyerSignature) external;

    /// @notice Cancels an order (its maker only); its nonce stays used. Always open.
    /// @param order The order.
    function cancelOrder(Order calldata order) external;

    /// @notice Cancels a deal before settlement (either party). Always open.
    /// @param deal The deal.
    function cancelDeal(Deal calldata deal) external;

    /// @notice Voids every order and deal of the caller with a nonce below `minNonce`. Always open.
    /// @param minNonce The new minimum; must be greater than the current one.
    function raiseMinNonce(uint256 minNonce) external;

    // ---------------------------------------------------------------- fees and seats

    /// @notice Pays the pending fee income out: `insuranceShareBps` to the insurance fund via
    ///         `IInsuranceFund.depositFees`, the rest to the treasury. Permissionless, always open.
    /// @return insuranceUsdc Sent to the insurance fund.
    /// @return treasuryUsdc Sent to the treasury.
    function distributeFees() external returns (uint256 insuranceUsdc, uint256 treasuryUsdc);

    /// @notice Stakes DPS for a seat (fee tier). Feature "spot.stake".
    /// @param amountDps DPS to stake (the caller approves the market).
    function stakeSeat(uint256 amountDps) external;

    /// @notice Moves staked DPS to pending; it stops counting for the tier now and unlocks after the delay
    ///         (a new request restarts the delay for everything pending). Always open.
    /// @param amountDps DPS to unstake.
    function requestUnstake(uint256 amountDps) external;

    /// @notice Withdraws pending seat DPS after its delay. Always open.
    /// @return amountDps DPS sent to the caller.
    function withdrawUnstaked() external returns (uint256 amountDps);

    // ---------------------------------------------------------------- governance

    /// @notice Sets maker/taker fees (each ≤ MAX_FEE_BPS) and the insurance share of fee income (≤ 10,000).
    /// @param makerFeeBps Maker fee, bps of the quote.
    /// @param takerFeeBps Taker fee, bps of the quote.
    /// @param insuranceShareBps Share of fee income sent to the insurance fund.
    function setFees(uint16 makerFeeBps, uint16 takerFeeBps, uint16 insuranceShareBps) external;

    /// @notice Sets where fee income goes. Passing the treasury as `insuranceFund` sends everything there.
    /// @param treasury The treasury.
    /// @param insuranceFund The insurance fund (an IInsuranceFund), or the treasury until it exists.
    function setFeeRecipients(address treasury, address insuranceFund) external;

    /// @notice Sets up to MAX_SEAT_TIERS seat tiers: ascending whole-DPS thresholds, non-decreasing discounts
    ///         (each ≤ MAX_SEAT_DISCOUNT_BPS). An empty list removes all discounts.
    /// @param minStakeDps DPS thresholds (18 decimals, whole DPS).
    /// @param discountBps Fee discount of each tier, bps of the fee.
    function setSeatTiers(uint256[] calldata minStakeDps, uint256[] calldata discountBps) external;

    /// @notice Sets the seat unstake delay (≤ MAX_UNSTAKE_DELAY).
    /// @param unstakeDelaySec The delay, seconds.
    function setUnstakeDelay(uint32 unstakeDelaySec) external;

    /// @notice Sets the TWAP observation interval (MIN..MAX_OBSERVATION_INTERVAL) and the minimum fill that moves
    ///         the TWAP.
    /// @param observationIntervalSec Minimum time between ring-buffer observations.
    /// @param minAmountCh Fills below this CH amount do not update the TWAP.
    function setTwapParams(uint32 observationIntervalSec, uint128 minAmountCh) external;

    // ---------------------------------------------------------------- views

    /// @notice The EIP-712 hash of an order (what the maker signs, before the domain).
    /// @param order The order.
    /// @return The digest to sign (domain-bound).
    function orderDigest(Order calldata order) external view returns (bytes32);

    /// @notice The EIP-712 digest of a deal.
    /// @param deal The deal.
    /// @return The digest to sign (domain-bound).
    function dealDigest(Deal calldata deal) external view returns (bytes32);

    /// @notice The EIP-712 domain separator (name "CHX Spot", version "1", this chain, this proxy).
    /// @return The separator.
    function domainSeparator() external view returns (bytes32);

    /// @notice Fill state of an order or deal by its digest.
    /// @param hash The order or deal digest.
    /// @return The state.
    function orderState(bytes32 hash) external view returns (OrderState memory);

    /// @notice Whether `maker` has used `nonce` for an order (filled or cancelled).
    /// @param maker The maker.
    /// @param nonce The nonce.
    /// @return True when used.
    function nonceUsed(address maker, uint256 nonce) external view returns (bool);

    /// @notice The account's minimum nonce.
    /// @param account The account.
    /// @return Orders and deals below it are void.
    function minNonce(address account) external view returns (uint256);

    /// @notice The account's seat.
    /// @param account The account.
    /// @return The seat.
    function seat(address account) external view returns (Seat memory);

    /// @notice The fee discount the account's staked DPS earns.
    /// @param account The account.
    /// @return discountBps Discount, bps of the fee.
    function seatDiscountBps(address account) external view returns (uint256 discountBps);

    /// @notice Current fee configuration.
    /// @return makerFeeBps Maker fee.
    /// @return takerFeeBps Taker fee.
    /// @return insuranceShareBps Insurance share of fee income.
    function fees() external view returns (uint256 makerFeeBps, uint256 takerFeeBps, uint256 insuranceShareBps);

    /// @notice USDC fee income not yet distributed.
    /// @return amountUsdc Pending fees.
    function pendingFeesUsdc() external view returns (uint256 amountUsdc);

    /// @notice DPS held for seats (staked + pending).
    /// @return stakedDps Σ staked.
    /// @return pendingDps Σ pending unstake.
    function totalSeatDps() external view returns (uint256 stakedDps, uint256 pendingDps);

    /// @notice The TWAP accumulator now.
    /// @return lastPriceWad The last recorded fill price.
    /// @return priceCumulative Σ price·seconds up to now.
    /// @return observationCount Observations held.
    function twapState()
        external
        view
        returns (uint256 lastPriceWad, uint256 priceCumulative, uint256 observationCount);

    /// @notice Token and recipient addresses.
    /// @return ch CH token.
    /// @return usdc USDC.
    /// @return dps DPS token.
    /// @return treasury Treasury.
    /// @return insuranceFund Insurance fund (or the treasury).
    function addresses()
        external
        view
        returns (address ch, address usdc, address dps, address treasury, address insuranceFund);
}
