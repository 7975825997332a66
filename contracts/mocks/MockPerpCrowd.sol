// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IClearingHouse} from "../interfaces/IClearingHouse.sol";
import {IGuarantorPool} from "../interfaces/IGuarantorPool.sol";
import {IPerpMarket} from "../interfaces/IPerpMarket.sol";

interface IMintableUsdc {
    function mint(address to, uint256 amount) external;
}

/// @title PerpCrowdMember
/// @notice Bench-only: one throw-away trader that, in its constructor, joins an open guarantor, deposits minted
///         mock USDC as collateral and opens one perp position.
contract PerpCrowdMember {
    /// @param pool GuarantorPool.
    /// @param guarantor An open guarantor.
    /// @param usdc Mock USDC (public mint).
    /// @param ch ClearingHouse.
    /// @param market PerpMarket.
    /// @param collateralUsdc Collateral to deposit.
    /// @param sizeCh Position to open.
    constructor(
        address pool,
        address guarantor,
        address usdc,
        address ch,
        address market,
        uint256 collateralUsdc,
        int256 sizeCh
    ) {
        IGuarantorPool(pool).joinOpenGuarantor(guarantor);
        IMintableUsdc(usdc).mint(address(this), collateralUsdc);
        IERC20(usdc).approve(ch, collateralUsdc);
        IClearingHouse(ch).deposit(collateralUsdc);
        IPerpMarket(market).trade(sizeCh, 0);
    }
}

/// @title MockPerpCrowd
/// @notice Bench-only: opens many small perp positions in one transaction (one new account each), alternating
///         long and short so the skew stays near zero — how the bench reaches 10,000 open positions cheaply.
contract MockPerpCrowd {
    /// @notice Creates `n` accounts with a position of ±`sizeCh` each.
    /// @param n Accounts to create.
    /// @param pool GuarantorPool.
    /// @param guarantor An open guarantor.
    /// @param usdc Mock USDC.
    /// @param ch ClearingHouse.
    /// @param market PerpMarket.
    /// @param collateralUsdc Collateral per account.
    /// @param sizeCh |size| per account.
    function spawn(
        uint256 n,
        address pool,
        address guarantor,
        address usdc,
        address ch,
        address market,
        uint256 collateralUsdc,
        int256 sizeCh
    ) external {
        for (uint256 i; i < n; ++i) {
            new PerpCrowdMember(pool, guarantor, usdc, ch, market, collateralUsdc, i % 2 == 0 ? sizeCh : -sizeCh);
        }
    }
}
