// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ClearingSolBase} from "./ClearingSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IFuturesMarket} from "../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";
import {DeployDefaults} from "../utils/DeployDefaults.sol";
import {IFuturesMarketInit} from "../utils/DeployDefaults.sol";
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
        return DeployDefaults.futures();
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
        chToken = IERC20(_deployCh());
        fIndex = MockFuturesIndex(deployCode("MockFuturesIndex.sol:MockFuturesIndex", abi.encode(PRICE0)));
        futures = IFuturesMarket(_deployFuturesMarket(stack, address(fIndex), address(chToken), _params()));
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

interface IMintable {
    function mint(address to, uint256 amount) external;
}
