// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {EIP712Upgradeable} from "@openzeppelin/contracts-upgradeable/utils/cryptography/EIP712Upgradeable.sol";
import {OptionsMarketBase} from "./OptionsMarketBase.sol";
import {IOptionsMarket} from "../../interfaces/markets/IOptionsMarket.sol";
import {IKeeperChecker, IKeeperUpkeep} from "../../interfaces/keepers/IKeeperCompatible.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {IFuturesExercise} from "../../interfaces/markets/IFuturesExercise.sol";
import {SpotMath} from "../../libraries/SpotMath.sol";
import {OptionsListing} from "../../libraries/options/OptionsListing.sol";
import {OptionsFunds} from "../../libraries/options/OptionsFunds.sol";
import {OptionsBook} from "../../libraries/options/OptionsBook.sol";
import {OptionsPositions} from "../../libraries/options/OptionsPositions.sol";
import {OptionsOffers} from "../../libraries/options/OptionsOffers.sol";
import {OptionsMargin} from "../../libraries/options/OptionsMargin.sol";
import {IMarketScenarioRisk} from "../../interfaces/callback/IMarketScenarioRisk.sol";
import {IMarketAccountRisk} from "../../interfaces/callback/IMarketAccountRisk.sol";
import {ILiquidatableMarket} from "../../interfaces/callback/ILiquidatableMarket.sol";

/// @title OptionsMarket
/// @notice European calls (capped: call spreads) and puts on the CH index, cash-settled, and on futures series,
///         exercised into futures positions; fully collateralised writers; signed premium offers (docs/options.md).
/// @dev Holds no tokens: collateral, premiums and fees sit in this market's ClearingHouse PnL pool. The pool must
///      always hold feesUsdc + reservedUsdc (ACC-01); a series pays out at most what it was posted (MKT-07).
///      Expiry, settlement, exercise, fee withdrawal, upkeep, setParams and delisting run in the settlement module
///      by delegatecall (same storage, same address for events and roles), to stay under the contract-size limit.
///      Offers are EIP-712 typed data under OpenZeppelin's EIP712Upgradeable domain (ERC-5267 `eip712Domain()`).
/// @custom:oz-upgrades-unsafe-allow delegatecall external-library-linking
contract OptionsMarket is OptionsMarketBase, EIP712Upgradeable, IOptionsMarket {
    using SafeCast for uint256;

    /// @dev The EIP-712 domain name and version of offers (ERC-5267 `eip712Domain()`; the SDK reads them there).
    string internal constant EIP712_NAME = "CHX Options";
    string internal constant EIP712_VERSION = "1";

    /// @notice Initialises the proxy with the default parameters (docs/options.md).
    /// @param authority The protocol AccessManager.
    /// @param clearingHouse The ClearingHouse (this market must be registered there and hold Roles.MARKET).
    /// @param oracle The CH index oracle.
    /// @param feeRecipient Receives fee income.
    /// @param settlement The OptionsSettlement logic contract.
    function initialize(
        address authority,
        address clearingHouse,
        address oracle,
        address feeRecipient,
        address settlement
    ) external initializer {
        __ChxUpgradeable_init(authority);
        __EIP712_init(EIP712_NAME, EIP712_VERSION);
        if (clearingHouse == address(0) || oracle == address(0)) revert ChxZeroAddress();
        OptionsMarketStorage storage $ = _s();
        $.clearingHouse = IClearingHouse(clearingHouse);
        $.oracle = IComputePriceOracle(oracle);
        _setFeeRecipient($, feeRecipient);
        _setSettlement($, settlement);
        // @dev the defaults are within setParams' bounds (checked by a test calling setParams with them)
        Params memory p = Params({
            makerFeeBps: 10,
            takerFeeBps: 30,
            disputeWindowSec: 1 hours,
            expiryGridSec: 1 days,
            expiryOffsetSec: 8 hours,
            minTimeToExpirySec: 1 hours,
            maxHorizonSec: 90 days,
            maxStrikeDeviationBps: 5_000,
            callCapBps: 10_000,
            maxLiveSeries: 64,
            bountyUsdc: 5e5,
            strikeStepWad: 5e17,
            maxCorrectionBps: 1_000,
            listingBondPerDayUsdc: 0.5e6
        });
        $.params = p;
        emit ParamsSet(p);
    }

    /// @inheritdoc IOptionsMarket
    function listSeries(SeriesParams calldata p) external restricted returns (uint256 seriesId) {
        return OptionsListing.listSeries(_s(), p);
    }

    /// @inheritdoc IOptionsMarket
    function listStandardSeries(
        OptionKind kind,
        uint128 strikeWad,
        uint64 expiry
    ) external nonReentrant whenActive(FEATURE_LIST) returns (uint256 seriesId) {
        return OptionsListing.listStandardSeries(_s(), kind, strikeWad, expiry);
    }

    /// @inheritdoc IOptionsMarket
    function listStandardFuturesSeries(
        OptionKind kind,
        uint128 strikeWad,
        uint64 expiry,
        uint64 futuresSeriesId
    ) external nonReentrant whenActive(FEATURE_LIST) returns (uint256 seriesId) {
        return OptionsListing.listStandardFuturesSeries(_s(), kind, strikeWad, expiry, futuresSeriesId);
    }

    /// @inheritdoc IOptionsMarket
    function write(
        uint256 seriesId,
        uint256 sizeCh
    ) external nonReentrant whenActive(FEATURE_WRITE) returns (uint256 collateralUsdc) {
        OptionsMarketStorage storage $ = _s();
        Series storage s = _tradable($, seriesId);
        _checkSize(sizeCh);
        Position memory p = $.positions[seriesId][msg.sender];
        bool wasEmpty = _isEmpty(p);
        collateralUsdc = OptionsOffers.addShort($, s, seriesId, msg.sender, p, sizeCh);
        p.longCh = (p.longCh + sizeCh).toUint96();
        _store($, s, seriesId, msg.sender, p, wasEmpty);
        OptionsFunds.move($, msg.sender, -collateralUsdc.toInt256());
    }

    /// @inheritdoc IOptionsMarket
    function writeMargined(uint256, uint256) external {
        _delegate();
    }

    /// @inheritdoc ILiquidatableMarket
    function onPositionLiquidated(address, int256, uint256, int256) external {
        _delegate();
    }

    /// @inheritdoc IMarketScenarioRisk
    function scenarioPnl(
        address account,
        uint256 priceWad,
        uint256[] calldata scenarioPricesWad
    ) external view returns (int256[] memory) {
        return OptionsMargin.scenarioPnl(_s(), account, priceWad, scenarioPricesWad);
    }

    /// @inheritdoc IMarketAccountRisk
    function accountRisk(address account, uint256 priceWad) external view returns (int256, uint256, uint256) {
        return (OptionsMargin.accountRisk(_s(), account, priceWad), 0, 0);
    }

    /// @inheritdoc IOptionsMarket
    function marginedOf(uint256 seriesId, address account) external view returns (MarginedShort memory) {
        return _s().margined[seriesId][account];
    }

    /// @inheritdoc IOptionsMarket
    function marginedSeriesOf(address account) external view returns (uint256[] memory) {
        return _s().marginedSeries[account];
    }

    /// @inheritdoc IOptionsMarket
    function marginedSeries(uint256 seriesId) external view returns (MarginedSeries memory) {
        return _s().marginedState[seriesId];
    }

    /// @inheritdoc IOptionsMarket
    function close(uint256 seriesId, uint256 sizeCh) external nonReentrant returns (uint256 releasedUsdc) {
        return OptionsPositions.close(_s(), seriesId, sizeCh);
    }

    /// @inheritdoc IOptionsMarket
    function transferLong(
        uint256 seriesId,
        address to,
        uint256 sizeCh
    ) external nonReentrant whenActive(FEATURE_TRADE) {
        OptionsPositions.transferLong(_s(), seriesId, to, sizeCh);
    }

    /// @inheritdoc IOptionsMarket
    function fillOffer(
        Offer calldata offer,
        bytes calldata signature,
        uint256 sizeCh
    ) external nonReentrant whenActive(FEATURE_TRADE) returns (uint256 filledAfterCh) {
        if (offer.maker == msg.sender) revert OptionsSelfTrade(msg.sender);
        bytes32 hash = _offerDigest(offer);
        if (offer.taker != address(0) && offer.taker != msg.sender) {
            revert OptionsTakerNotAllowed(hash, msg.sender, offer.taker);
        }
        bool wrote;
        (filledAfterCh, wrote) = OptionsPositions.fillOffer(_s(), offer, signature, sizeCh, hash);
        // @dev a seller writing in the fill needs "options.write" too (the whole fill reverts when it is paused)
        if (wrote) _requireActive(FEATURE_WRITE);
    }

    /// @inheritdoc IOptionsMarket
    function cancelOffer(Offer calldata offer) external {
        if (msg.sender != offer.maker) revert OptionsNotMaker(msg.sender, offer.maker);
        bytes32 hash = _offerDigest(offer);
        OfferState storage st = _s().offers[hash];
        st.cancelled = true;
        emit OfferCancelled(hash, msg.sender, offer.nonce, st.filledCh);
    }

    /// @inheritdoc IOptionsMarket
    function raiseMinNonce(uint256 newMinNonce) external {
        OptionsMarketStorage storage $ = _s();
        uint256 current = $.minNonce[msg.sender];
        if (newMinNonce <= current) revert OptionsNonceNotIncreasing(msg.sender, current, newMinNonce);
        $.minNonce[msg.sender] = newMinNonce;
        emit MinNonceRaised(msg.sender, newMinNonce);
    }

    /// @inheritdoc IKeeperChecker
    function checker() public view returns (bool canExec, bytes memory execPayload) {
        return OptionsListing.checker(_s());
    }

    /// @inheritdoc IKeeperUpkeep
    function checkUpkeep(bytes calldata) external view returns (bool upkeepNeeded, bytes memory performData) {
        return checker();
    }

    /// @inheritdoc IOptionsMarket
    function setFuturesMarket(address futuresMarket) external restricted {
        if (futuresMarket == address(0)) revert ChxZeroAddress();
        _s().futuresMarket = IFuturesExercise(futuresMarket);
        emit FuturesMarketSet(futuresMarket);
    }

    /// @inheritdoc IOptionsMarket
    function setFeeRecipient(address feeRecipient) external restricted {
        _setFeeRecipient(_s(), feeRecipient);
    }

    /// @inheritdoc IOptionsMarket
    function series(uint256 seriesId) external view returns (Series memory) {
        return _s().series[seriesId];
    }

    /// @inheritdoc IOptionsMarket
    function seriesStatus(uint256 seriesId) public view returns (SeriesStatus) {
        OptionsMarketStorage storage $ = _s();
        Series storage s = $.series[seriesId];
        if (s.expiry == 0) return SeriesStatus.None;
        if (block.timestamp < s.expiry) return SeriesStatus.Trading;
        if (s.priceFixedAt == 0) return SeriesStatus.Expired;
        if (block.timestamp < OptionsBook.disputeEnd($, s)) return SeriesStatus.Disputable;
        return s.settled ? SeriesStatus.Settled : SeriesStatus.Final;
    }

    /// @inheritdoc IOptionsMarket
    function payoffPerCh(uint256 seriesId, uint256 priceWad) external view returns (uint256) {
        return _payoff(_series(_s(), seriesId), priceWad);
    }

    /// @inheritdoc IOptionsMarket
    function collateralFor(uint256 seriesId, uint256 sizeCh) external view returns (uint256) {
        return SpotMath.quoteUsdcUp(sizeCh, _series(_s(), seriesId).capWad);
    }

    /// @inheritdoc IOptionsMarket
    function positionOf(uint256 seriesId, address account) external view returns (Position memory) {
        return _s().positions[seriesId][account];
    }

    /// @inheritdoc IOptionsMarket
    function accountAt(uint256 seriesId, uint256 index) external view returns (address) {
        return _s().accounts[seriesId][index];
    }

    /// @inheritdoc IOptionsMarket
    function seriesCount() external view returns (uint256) {
        return _s().seriesCount;
    }

    /// @inheritdoc IOptionsMarket
    function pendingSeries() external view returns (uint256[] memory) {
        return _s().pending;
    }

    /// @inheritdoc IOptionsMarket
    function liveSeries() external view returns (uint256) {
        return _s().liveSeries;
    }

    /// @inheritdoc IOptionsMarket
    function offerState(bytes32 hash) external view returns (uint256 filledCh, bool cancelled) {
        OfferState storage st = _s().offers[hash];
        return (st.filledCh, st.cancelled);
    }

    /// @inheritdoc IOptionsMarket
    function offerHash(Offer calldata offer) external view returns (bytes32) {
        return _offerDigest(offer);
    }

    /// @inheritdoc IOptionsMarket
    function minNonce(address maker) external view returns (uint256) {
        return _s().minNonce[maker];
    }

    /// @inheritdoc IOptionsMarket
    function poolClaims() external view returns (uint256 feesUsdc, uint256 reservedUsdc) {
        OptionsMarketStorage storage $ = _s();
        return ($.feesUsdc, $.reservedUsdc);
    }

    /// @inheritdoc IOptionsMarket
    function params() external view returns (Params memory) {
        return _s().params;
    }

    /// @inheritdoc IOptionsMarket
    function modules() external view returns (address, address, address, address) {
        OptionsMarketStorage storage $ = _s();
        return (address($.clearingHouse), address($.oracle), address($.futuresMarket), $.feeRecipient);
    }

    function _offerDigest(Offer calldata o) private view returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(OFFER_TYPEHASH, o.maker, o.seriesId, o.isBuy, o.sizeCh, o.premiumWad, o.nonce, o.expiry, o.taker)
        );
        return _hashTypedDataV4(structHash);
    }

    /// @dev The domain name as a constant: an offer's digest then reads no storage for it (OpenZeppelin's documented
    ///      override; `__EIP712_init` stores the same strings).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Name() internal pure override returns (string memory) {
        return EIP712_NAME;
    }

    /// @dev The domain version as a constant (see `_EIP712Name`).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Version() internal pure override returns (string memory) {
        return EIP712_VERSION;
    }

    function _setFeeRecipient(OptionsMarketStorage storage $, address feeRecipient) private {
        if (feeRecipient == address(0)) revert ChxZeroAddress();
        $.feeRecipient = feeRecipient;
        emit FeeRecipientSet(feeRecipient);
    }

    // ================================================================ delegated to the settlement module

    /// @inheritdoc IOptionsMarket
    function fixSettlementPrice(uint256) external returns (uint256) {
        _delegate();
    }

    /// @inheritdoc IOptionsMarket
    function correctSettlementPrice(uint256, uint256) external {
        _delegate();
    }

    /// @inheritdoc IOptionsMarket
    function delistSeries(uint256) external {
        _delegate();
    }

    /// @inheritdoc IOptionsMarket
    function exercise(uint256, address) external returns (uint256) {
        _delegate();
    }

    /// @inheritdoc IOptionsMarket
    function settleSeries(uint256, uint256) external returns (uint256, bool) {
        _delegate();
    }

    /// @inheritdoc IOptionsMarket
    function withdrawFees() external returns (uint256) {
        _delegate();
    }

    /// @inheritdoc IKeeperUpkeep
    function performUpkeep(bytes calldata) external {
        _delegate();
    }

    /// @inheritdoc IOptionsMarket
    function setParams(Params calldata) external {
        _delegate();
    }

    /// @inheritdoc IOptionsMarket
    function setSettlementModule(address module) external restricted {
        _setSettlement(_s(), module);
    }

    /// @inheritdoc IOptionsMarket
    function settlementModule() external view returns (address) {
        return _s().settlement;
    }

    function _setSettlement(OptionsMarketStorage storage $, address module) private {
        if (module.code.length == 0) revert ChxZeroAddress();
        $.settlement = module;
        emit SettlementModuleSet(module);
    }

    /// @dev Runs the call in the settlement module with this contract's storage and returns or reverts with its data.
    ///      The module's functions carry their own `nonReentrant` / `restricted` checks (msg.sender, msg.sig and
    ///      address(this) are preserved by delegatecall).
    function _delegate() private {
        address module = _s().settlement;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), module, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) {
                revert(0, returndatasize())
            }
            return(0, returndatasize())
        }
    }
}
