// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../interfaces/clearing/IGuarantorPool.sol";
import {IPerpMarket} from "../interfaces/markets/IPerpMarket.sol";

interface IMintableUsdc {
    function mint(address to, uint256 amount) external;
}

/// @title PerpCrowdMember
/// @notice Bench-only: one throw-away trader that, in its constructor, joins an open guarantor, deposits minted
///         mock USDC as collateral and commits one perp order (MockPerpCrowd.execute fills it after the delay).
contract PerpCrowdMember {
    /// @param pool GuarantorPool.
    /// @param guarantor An open guarantor.
    /// @param usdc Mock USDC (public mint).
    /// @param ch ClearingHouse.
    /// @param market PerpMarket.
    /// @param collateralUsdc Collateral to deposit.
    /// @param sizeCh Position to order.
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
        IPerpMarket(market).commitOrder(sizeCh, 0);
    }
}

/// @title MockPerpCrowd
/// @notice Bench-only: opens many small perp positions in two transactions per batch (one new account each, orders
///         committed, then executed after the delay), alternating long and short so the skew stays near zero — how
///         the bench reaches 10,000 open positions cheaply.
contract MockPerpCrowd {
    /// @notice Every account created, in order.
    address[] public members;

    /// @notice Creates `n` accounts, each committing an order of ±`sizeCh`.
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
            int256 size = i % 2 == 0 ? sizeCh : -sizeCh;
            members.push(address(new PerpCrowdMember(pool, guarantor, usdc, ch, market, collateralUsdc, size)));
        }
    }

    /// @notice Executes the orders of members [from, to) at `roundId`.
    /// @param market PerpMarket.
    /// @param from First member.
    /// @param to One past the last member.
    /// @param roundId The oracle round in force at their price time.
    function execute(address market, uint256 from, uint256 to, uint80 roundId) external {
        for (uint256 i = from; i < to; ++i) IPerpMarket(market).executeOrder(members[i], roundId);
    }

    /// @notice Accounts created.
    /// @return The count.
    function memberCount() external view returns (uint256) {
        return members.length;
    }
}
