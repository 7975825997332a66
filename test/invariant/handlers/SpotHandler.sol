// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ISpotMarket} from "../../../contracts/interfaces/markets/ISpotMarket.sol";
import {ISpotMarketTrading} from "../../../contracts/interfaces/markets/ISpotMarketTrading.sol";
import {signDigest} from "../../utils/Signatures.sol";

/// @notice Drives the spot market with makers (signing orders), takers (filling), matchers, a canceller
///         (cancel / raise minimum nonce), seat stakers, fee distribution and time jumps. Ghost state records what
///         every successful fill did, so the invariants compare the contract with an independent ledger.
contract SpotHandler is Test {
    ISpotMarket internal spot;

    uint256[3] internal makerKeys;
    address[3] internal makers;
    address[3] internal takers;

    ISpotMarket.Order[] internal orders;
    bytes[] internal sigs;
    mapping(uint256 => uint256) public ghostFilled;
    mapping(uint256 => bool) public ghostCancelled;
    mapping(uint256 => uint256) public filledAtCancel;
    mapping(address => uint256) internal nextNonce;
    mapping(bytes32 => bool) internal seen;

    /// @notice USDC the actors lost to successful fills and matches: what the market, the treasury and the
    ///         insurance fund must hold together (ACC-01; the market's pending fee income is its balance).
    uint256 public ghostFeeIncome;
    uint256 public ghostStaked;
    uint256 public ghostPending;
    /// @notice Set when a fill succeeded that MKT-06 forbids (expired, cancelled, below min nonce, reused nonce).
    bool public violation;
    /// @notice Successful fills and matches (shows the run exercised the market).
    uint256 public fills;

    constructor(ISpotMarket spot_, address[3] memory takers_) {
        spot = spot_;
        takers = takers_;
        makerKeys = [uint256(0xA11CE), uint256(0xB0B), uint256(0xCA401)];
        for (uint256 i = 0; i < 3; ++i) makers[i] = vm.addr(makerKeys[i]);
    }

    /// @dev USDC held by the six actors (makers and takers; takers[0] is also the matcher).
    function _actorsUsdc() internal view returns (uint256 sum) {
        (, address usdc, , , ) = spot.addresses();
        for (uint256 i = 0; i < 3; ++i) sum += IERC20(usdc).balanceOf(makers[i]) + IERC20(usdc).balanceOf(takers[i]);
    }

    function makerAddress(uint256 i) external view returns (address) {
        return makers[i];
    }

    function orderCount() external view returns (uint256) {
        return orders.length;
    }

    function orderAt(uint256 i) external view returns (ISpotMarket.Order memory) {
        return orders[i];
    }

    /// @dev A maker signs a new order (sometimes reusing its last nonce, which must never fill).
    function makeOrder(uint256 makerSeed, bool isBuy, uint256 amount, uint256 price, uint32 life, bool reuse) external {
        uint256 m = makerSeed % 3;
        address maker = makers[m];
        uint256 nonce = nextNonce[maker];
        if (!reuse || nonce == 0) nextNonce[maker] = ++nonce;
        ISpotMarket.Order memory o = ISpotMarket.Order({
            maker: maker,
            isBuy: isBuy,
            amountCh: bound(amount, 1e15, 1_000e18),
            priceWad: bound(price, 1e17, 100e18),
            nonce: nonce,
            expiry: uint64(block.timestamp + bound(life, 1, 3 days)),
            taker: address(0)
        });
        bytes32 digest = spot.orderDigest(o);
        if (seen[digest]) return; // an identical order is the same order, not a replay
        seen[digest] = true;
        orders.push(o);
        sigs.push(signDigest(makerKeys[m], digest));
    }

    /// @dev Whether MKT-06 forbids filling `amount` more of order `idx` now.
    function _forbidden(uint256 idx, uint256 amount) internal view returns (bool) {
        ISpotMarket.Order storage o = orders[idx];
        if (block.timestamp > o.expiry || ghostCancelled[idx] || o.nonce < spot.minNonce(o.maker)) return true;
        if (ghostFilled[idx] == 0 && spot.nonceUsed(o.maker, o.nonce)) return true; // nonce claimed by another
        return ghostFilled[idx] + amount > o.amountCh;
    }

    function fill(uint256 idx, uint256 takerSeed, uint256 amount) external {
        if (orders.length == 0) return;
        idx %= orders.length;
        amount = bound(amount, 1, orders[idx].amountCh);
        bool forbidden = _forbidden(idx, amount);
        ISpotMarket.Order memory o = orders[idx];
        bytes memory sig = sigs[idx];
        uint256 usdcBefore = _actorsUsdc();
        vm.prank(takers[takerSeed % 3]);
        (bool ok, ) = address(spot).call(abi.encodeCall(ISpotMarketTrading.fillOrder, (o, sig, amount)));
        if (ok) {
            ghostFeeIncome += usdcBefore - _actorsUsdc();
            if (forbidden) violation = true;
            ghostFilled[idx] += amount;
            fills += 1;
        }
    }

    function matchPair(uint256 a, uint256 b, uint256 amount) external {
        if (orders.length < 2) return;
        a %= orders.length;
        b %= orders.length;
        if (!orders[a].isBuy || orders[b].isBuy) return;
        amount = bound(amount, 1, orders[a].amountCh);
        bool forbidden = _forbidden(a, amount) || _forbidden(b, amount);
        _match(a, b, amount, forbidden);
    }

    function _match(uint256 a, uint256 b, uint256 amount, bool forbidden) internal {
        ISpotMarket.Order memory buy = orders[a];
        ISpotMarket.Order memory sell = orders[b];
        bytes memory buySig = sigs[a];
        bytes memory sellSig = sigs[b];
        uint256 usdcBefore = _actorsUsdc();
        vm.prank(takers[0]);
        (bool ok, ) = address(spot).call(
            abi.encodeCall(ISpotMarketTrading.matchOrders, (buy, buySig, sell, sellSig, amount))
        );
        if (ok) {
            ghostFeeIncome += usdcBefore - _actorsUsdc();
            if (forbidden) violation = true;
            ghostFilled[a] += amount;
            ghostFilled[b] += amount;
            fills += 1;
        }
    }

    function cancel(uint256 idx) external {
        if (orders.length == 0) return;
        idx %= orders.length;
        ISpotMarket.Order memory o = orders[idx];
        vm.prank(o.maker);
        spot.cancelOrder(o);
        if (!ghostCancelled[idx]) {
            ghostCancelled[idx] = true;
            filledAtCancel[idx] = ghostFilled[idx];
        }
    }

    function raiseMinNonce(uint256 makerSeed, uint8 step) external {
        address maker = makers[makerSeed % 3];
        uint256 next = spot.minNonce(maker) + 1 + (step % 3);
        vm.prank(maker);
        spot.raiseMinNonce(next);
    }

    function stake(uint256 who, uint256 amount) external {
        amount = bound(amount, 1, 10_000e18);
        address a = takers[who % 3];
        vm.prank(a);
        spot.stakeSeat(amount);
        ghostStaked += amount;
    }

    function unstake(uint256 who, uint256 amount) external {
        address a = takers[who % 3];
        uint256 staked = spot.seat(a).stakedDps;
        if (staked == 0) return;
        amount = bound(amount, 1, staked);
        vm.prank(a);
        spot.requestUnstake(amount);
        ghostStaked -= amount;
        ghostPending += amount;
    }

    function withdraw(uint256 who) external {
        address a = takers[who % 3];
        vm.prank(a);
        try spot.withdrawUnstaked() returns (uint256 amount) {
            ghostPending -= amount;
        } catch {}
    }

    function distribute() external {
        spot.distributeFees();
    }

    function warp(uint32 secs) external {
        vm.warp(block.timestamp + bound(secs, 1, 2 days));
    }
}
