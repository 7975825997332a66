// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {ISpotMarket} from "../../contracts/interfaces/markets/ISpotMarket.sol";
import {ISpotMarketTrading} from "../../contracts/interfaces/markets/ISpotMarketTrading.sol";
import {signDigest} from "../utils/Signatures.sol";

interface IToken {
    function mint(address to, uint256 amount) external;
    function approve(address spender, uint256 amount) external returns (bool);
    function balanceOf(address who) external view returns (uint256);
    function arm(address target, bytes calldata data) external;
}

/// @notice SEC-04 on the SpotMarket's payout paths: with a malicious USDC that re-enters the market during the
///         transfer, a fill and the fee distribution revert (ReentrancyGuardReentrantCall) and nothing moves.
/// @dev Deployed from artifacts (deployCode) and driven through ISpotMarket, so this job never compiles the market
///      with forge-std (solc-js memory, see SpotSolBase).
contract SpotReentrancyTest is Test {
    ISpotMarket internal spot;
    IToken internal rusd;
    IToken internal ch;
    IToken internal dps;
    bytes4 internal constant REENTRANT = bytes4(keccak256("ReentrancyGuardReentrantCall()"));
    uint256 internal constant MAKER_KEY = 0xA11CE;
    address internal maker;
    address internal taker = makeAddr("taker");
    address internal treasury = makeAddr("treasury");

    function setUp() public {
        rusd = IToken(deployCode("ReentrantERC20.sol:ReentrantERC20"));
        ch = IToken(deployCode("MockERC20.sol:MockERC20", abi.encode("Compute Hour", "CH", uint8(18))));
        dps = IToken(deployCode("MockERC20.sol:MockERC20", abi.encode("CHX Reward Share", "DPS", uint8(18))));
        address fund = deployCode("MockInsuranceFund.sol:MockInsuranceFund", abi.encode(address(rusd)));
        address authority = deployCode("MockAuthority.sol:MockAuthority");
        spot = ISpotMarket(
            address(
                new ERC1967Proxy(
                    deployCode("SpotMarket.sol:SpotMarket"),
                    abi.encodeWithSignature(
                        "initialize(address,address,address,address,address,address)",
                        authority,
                        address(ch),
                        address(rusd),
                        address(dps),
                        treasury,
                        fund
                    )
                )
            )
        );
        maker = vm.addr(MAKER_KEY);
        for (uint256 i; i < 2; ++i) {
            address who = i == 0 ? maker : taker;
            ch.mint(who, 1e24);
            rusd.mint(who, 1e12);
            vm.startPrank(who);
            ch.approve(address(spot), type(uint256).max);
            rusd.approve(address(spot), type(uint256).max);
            vm.stopPrank();
        }
    }

    function _signed(bool isBuy) internal view returns (ISpotMarket.Order memory o, bytes memory sig) {
        o = ISpotMarket.Order({
            maker: maker,
            isBuy: isBuy,
            amountCh: 100e18,
            priceWad: 2e18,
            nonce: 1,
            expiry: uint64(block.timestamp + 1 days),
            taker: address(0)
        });
        sig = signDigest(MAKER_KEY, spot.orderDigest(o));
    }

    function test_fillOrder_reenteringTokenReverts_SEC04() public {
        (ISpotMarket.Order memory o, bytes memory sig) = _signed(false);
        rusd.arm(address(spot), abi.encodeCall(ISpotMarketTrading.fillOrder, (o, sig, 1e18)));
        uint256 before = rusd.balanceOf(taker);
        vm.prank(taker);
        vm.expectRevert(REENTRANT);
        spot.fillOrder(o, sig, 10e18);
        assertEq(rusd.balanceOf(taker), before);
        assertEq(ch.balanceOf(taker), 1e24);
    }

    function test_distributeFees_reenteringTokenReverts_SEC04() public {
        (ISpotMarket.Order memory o, bytes memory sig) = _signed(true);
        vm.prank(taker);
        spot.fillOrder(o, sig, 50e18); // accrues fees in USDC
        uint256 held = rusd.balanceOf(address(spot));
        rusd.arm(address(spot), abi.encodeCall(ISpotMarketTrading.distributeFees, ()));
        assertGt(held, 0, "fees accrued");
        vm.expectRevert(REENTRANT);
        spot.distributeFees();
        assertEq(rusd.balanceOf(address(spot)), held);
    }
}
