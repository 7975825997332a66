// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../interfaces/clearing/IGuarantorPool.sol";

interface IMintableUsdcCrowd {
    function mint(address to, uint256 amount) external;
}

interface ITradeAtMarket {
    function tradeAt(address account, int256 sizeDeltaCh, uint256 priceWad) external returns (int256);
}

/// @title ClearingCrowdMember
/// @notice Bench-only: one throw-away account that, in its constructor, joins an open guarantor and deposits minted
///         mock USDC as collateral.
contract ClearingCrowdMember {
    /// @param pool GuarantorPool.
    /// @param guarantor An open guarantor.
    /// @param usdc Mock USDC (public mint).
    /// @param ch ClearingHouse.
    /// @param collateralUsdc Collateral to deposit.
    constructor(address pool, address guarantor, address usdc, address ch, uint256 collateralUsdc) {
        IGuarantorPool(pool).joinOpenGuarantor(guarantor);
        IMintableUsdcCrowd(usdc).mint(address(this), collateralUsdc);
        IERC20(usdc).approve(ch, collateralUsdc);
        IClearingHouse(ch).deposit(collateralUsdc);
    }
}

/// @title MockClearingCrowd
/// @notice Bench-only (scripts/bench/stress.ts): creates many accounts in one transaction, each under an open
///         guarantor with its collateral and up to two positions opened through MockClearingMarket.tradeAt.
contract MockClearingCrowd {
    /// @notice One account to create.
    /// @param guarantor Its open guarantor.
    /// @param collateralUsdc Its collateral.
    /// @param marketA First market (0: none).
    /// @param sizeA Size there.
    /// @param marketB Second market (0: none).
    /// @param sizeB Size there.
    struct Spec {
        address guarantor;
        uint256 collateralUsdc;
        address marketA;
        int256 sizeA;
        address marketB;
        int256 sizeB;
    }

    /// @notice Every account created, in order.
    address[] public members;

    /// @notice Creates one account per spec and opens its positions at `priceWad`.
    /// @param specs The accounts.
    /// @param pool GuarantorPool.
    /// @param usdc Mock USDC.
    /// @param ch ClearingHouse.
    /// @param priceWad Trade price.
    function spawn(Spec[] calldata specs, address pool, address usdc, address ch, uint256 priceWad) external {
        for (uint256 i; i < specs.length; ++i) {
            Spec calldata s = specs[i];
            address m = address(new ClearingCrowdMember(pool, s.guarantor, usdc, ch, s.collateralUsdc));
            members.push(m);
            if (s.marketA != address(0)) ITradeAtMarket(s.marketA).tradeAt(m, s.sizeA, priceWad);
            if (s.marketB != address(0)) ITradeAtMarket(s.marketB).tradeAt(m, s.sizeB, priceWad);
        }
    }

    /// @notice How many accounts exist.
    /// @return The count.
    function count() external view returns (uint256) {
        return members.length;
    }
}
