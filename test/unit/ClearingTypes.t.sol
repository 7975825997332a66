// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {MarketSet, MarketSetLib} from "../../contracts/types/MarketSet.sol";
import {RiskWord, RiskWordLib} from "../../contracts/types/RiskWord.sol";

/// @notice The clearing value types against plain references: MarketSet against an array with a held flag per
///         entry (add, swap-with-last removal, unhold), RiskWord against the struct it packs.
contract ClearingTypesTest is Test {
    uint256[] internal refIds;
    bool[] internal refHeld;

    function _assertSame(MarketSet s) internal view {
        assertEq(s.count(), refIds.length, "count");
        for (uint256 i; i < refIds.length; ++i) {
            assertEq(s.idAt(i), refIds[i], "id");
            assertEq(s.heldAt(i), refHeld[i], "held");
            assertEq(s.placeOf(refIds[i]), i, "place");
        }
    }

    /// forge-config: default.fuzz.runs = 256
    function testFuzz_marketSet_matchesArrayReference(uint256 seed) public {
        MarketSet s;
        uint256 nextId = 1;
        for (uint256 step; step < 40; ++step) {
            uint256 r = uint256(keccak256(abi.encode(seed, step)));
            uint256 n = refIds.length;
            if (n < MarketSetLib.MAX && (n == 0 || r % 3 != 0)) {
                bool held = (r >> 8) & 1 == 1;
                uint256 id = 1 + ((nextId++ * 7919) % 65_535);
                if (s.placeOf(id) != MarketSetLib.NOT_IN_SET) continue;
                s = s.add(id, held);
                refIds.push(id);
                refHeld.push(held);
            } else if ((r >> 16) & 1 == 1) {
                uint256 place = (r >> 24) % n;
                s = s.removeAt(place);
                refIds[place] = refIds[n - 1];
                refHeld[place] = refHeld[n - 1];
                refIds.pop();
                refHeld.pop();
            } else {
                uint256 place = (r >> 24) % n;
                s = s.unhold(place);
                refHeld[place] = false;
            }
            _assertSame(s);
        }
        assertEq(s.placeOf(0), MarketSetLib.NOT_IN_SET, "id 0 is never in a set");
    }

    function test_marketSet_removeLastAndOnly() public pure {
        MarketSet s;
        s = s.add(5, true);
        assertEq(s.count(), 1);
        assertTrue(s.heldAt(0));
        s = s.removeAt(0);
        assertEq(s.count(), 0);
        assertEq(MarketSet.unwrap(s), 0, "an emptied set is zero (no stale id or held bit)");
    }

    function testFuzz_riskWord_roundTrips(uint64 imM, uint64 mmM, uint64 imF, uint64 mmF, uint8 gen) public pure {
        imF = uint64(bound(imF, 0, (1 << 60) - 1));
        mmF = uint64(bound(mmF, 0, (1 << 60) - 1));
        IRiskEngine.MarketRiskParams memory p = IRiskEngine.MarketRiskParams(imM, mmM, imF, mmF);
        assertTrue(RiskWordLib.fits(p));
        RiskWord w = RiskWordLib.pack(p, gen);
        IRiskEngine.MarketRiskParams memory q = w.params();
        assertEq(q.imMultipleWad, imM);
        assertEq(q.mmMultipleWad, mmM);
        assertEq(q.imFloorWad, imF);
        assertEq(q.mmFloorWad, mmF);
        assertEq(w.generation(), gen);
        assertEq(w.isCurrent(gen), imF != 0, "a copy is current for its generation when it has a floor");
        assertFalse(w.isCurrent(uint256(gen) + 1), "another generation never reads it");
    }

    function test_riskWord_floorOf2pow60_doesNotFit() public pure {
        assertFalse(RiskWordLib.fits(IRiskEngine.MarketRiskParams(1, 1, uint64(1 << 60), 0)));
        assertFalse(RiskWordLib.fits(IRiskEngine.MarketRiskParams(1, 1, 0, uint64(1 << 60))));
        assertFalse(RiskWord.wrap(0).isCurrent(0), "the zero word is no copy");
    }
}
