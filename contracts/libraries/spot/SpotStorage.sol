// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ISpotMarket as ISpotMarketTypes} from "../../interfaces/markets/ISpotMarket.sol";
import {SpotTwap} from "../SpotTwap.sol";
import {SignedOrders} from "../orders/SignedOrders.sol";

/// @title SpotLayout
/// @notice The SpotMarket's ERC-7201 storage, shared by the market and its libraries (docs/spot.md).
/// @dev The two first words hold everything a fill reads besides its order's own slots: the USDC token and the fees
///      (word 0; the pending fee income is the market's USDC balance, no word); the CH token, the TWAP size floor
///      and whether seat tiers exist (word 1). A fill writes neither. Parameters read by governance, seats or fee
///      distribution only sit behind them.
abstract contract SpotLayout {
    /// @custom:storage-location erc7201:chx.storage.SpotMarket
    struct SpotMarketStorage {
        // word 0: read by every fill
        IERC20 usdc;
        uint16 makerFeeBps;
        uint16 takerFeeBps;
        // @dev retired in round 37 (never written since): the pending fee income is the market's USDC balance
        //      (SpotSettlement.accrue); the field keeps word 0's layout
        uint64 pendingFeesUsdc;
        // word 1: read by every fill
        IERC20 ch;
        uint80 twapMinAmountCh;
        bool hasSeatTiers;
        // @dev SpotStorage.GATE_TRADE: `spot.trade` known not paused (a copy of ChxUpgradeable's flag kept by
        //      SpotMarket._afterPauseChanged; clear: the flag is read, so an empty copy after an upgrade is safe)
        uint8 activeGates;
        // cold: seats, fee distribution, governance
        IERC20 dps;
        uint16 insuranceShareBps;
        uint32 unstakeDelaySec;
        address treasury;
        address insuranceFund;
        // seat tiers packed 4 × 64 bits: low 48 bits whole-DPS threshold, high 16 bits discount bps
        uint256 seatTiers;
        uint128 totalStakedDps;
        uint128 totalPendingDps;
        // @dev the shared signed-order book (fills and cancels per digest, nonce bitmap, minimum nonce): three
        //      mappings in the slots the market's own `orders`, `nonceBitmap` and `minNonce` held before (issue 19:
        //      one implementation of the EIP-712 order model, shared with the FuturesMarket)
        SignedOrders.Book book;
        mapping(address account => ISpotMarketTypes.Seat) seats;
        SpotTwap.State twap;
        // @dev order fill records keyed by (maker, nonce): the record is the nonce claim (docs/spot.md, SpotOrders)
        mapping(address maker => mapping(uint256 nonce => uint256 record)) orderRecords;
    }
}

/// @title SpotStorage
/// @notice The pointer to SpotLayout's ERC-7201 namespace, for the market and its libraries.
library SpotStorage {
    // keccak256(abi.encode(uint256(keccak256("chx.storage.SpotMarket")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant LOCATION = 0x6ad3fd994578ab3cbf4da710cda3692edd5298b482e7e3a6c9ae71d34f14ed00;

    /// @dev The pause flag (ChxUpgradeable) of order fills, matches and deals.
    bytes32 internal constant FEATURE_TRADE = keccak256("spot.trade");
    /// @dev SpotMarketStorage.activeGates bit: `spot.trade` is known not paused.
    uint8 internal constant GATE_TRADE = 1;

    /// @notice The market's storage.
    function layout() internal pure returns (SpotLayout.SpotMarketStorage storage $) {
        assembly {
            $.slot := LOCATION
        }
    }
}
