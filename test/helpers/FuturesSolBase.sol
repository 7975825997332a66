// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ClearingSolBase} from "./ClearingSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IFuturesMarket} from "../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesExercise} from "../../contracts/interfaces/markets/IFuturesExercise.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {MockFuturesIndex} from "../../contracts/mocks/MockFuturesIndex.sol";
import {MockFuturesVault} from "../../contracts/mocks/MockFuturesVault.sol";

/// @notice The clearing layer (ClearingSolBase) plus a FuturesMarket proxy with its FuturesDelivery module, a CH
///         token and a stand-in vault, all deployed from artifacts (solc-js memory, see docs/clearing.md). The
///         futures market reads MockFuturesIndex; tests move it together with the clearing layer's MockPriceIndex.
abstract contract FuturesSolBase is ClearingSolBase {
    IFuturesMarket internal futures;
    IERC20 internal chToken;
    MockFuturesIndex internal fIndex;
    MockFuturesVault internal vault;

    function _params() internal pure returns (IFuturesTypes.Params memory) {
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

    function _deployFutures() internal {
        _deployFuturesMarket();
        vault = MockFuturesVault(deployCode("MockFuturesVault.sol:MockFuturesVault", abi.encode(address(usdc))));
        futures.setVault(address(vault));
        _mintUsdc(address(this), 10_000_000e6);
        usdcApprove(address(vault), 10_000_000e6);
        vault.fund(address(futures), 10_000_000e6);
    }

    /// @dev The clearing layer, the CH token, the index and the FuturesMarket with its module, without a vault.
    function _deployFuturesMarket() internal {
        _deployClearing();
        chToken = IERC20(
            _proxy(deployCode("CHToken.sol:CHToken"), abi.encodeWithSignature("initialize(address)", address(manager)))
        );
        fIndex = MockFuturesIndex(deployCode("MockFuturesIndex.sol:MockFuturesIndex", abi.encode(PRICE0)));
        address module = deployCode("FuturesDelivery.sol:FuturesDelivery");
        futures = IFuturesMarket(
            _proxy(
                deployCode("FuturesMarket.sol:FuturesMarket"),
                abi.encodeCall(
                    IFuturesMarketInit.initialize,
                    (
                        address(manager),
                        address(chouse),
                        address(fIndex),
                        address(chToken),
                        address(0),
                        module,
                        _params()
                    )
                )
            )
        );
        chouse.registerMarket(address(futures));
        chouse.setMarketLossAbsorber(address(futures), true);
        chouse.setMarketAccountRisk(address(futures), true);
        chouse.setMarketHoldsAccounts(address(futures), true);
        risk.setMarketParams(
            address(futures),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        _grant(Roles.MARKET, address(futures));
        _setRole(address(futures), IFuturesExercise.openFromExercise.selector, Roles.MARKET);
        _setRole(address(futures), IFuturesMarket.disputeSettlementPrice.selector, Roles.GUARDIAN);
        _setRole(address(chToken), bytes4(keccak256("mint(address,uint256)")), Roles.CH_MINTER);
        _grant(Roles.CH_MINTER, address(this));
    }

    /// @dev Moves both the clearing layer's index and the futures market's index.
    function _setPrice(uint256 priceWad) internal {
        oracle.setPrice(priceWad);
        fIndex.setPrice(priceWad);
    }

    function _mintCh(address to, uint256 amount) internal {
        IMintable(address(chToken)).mint(to, amount);
    }
}

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

interface IMintable {
    function mint(address to, uint256 amount) external;
}
