// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {DrawProfile} from "../../contracts/libraries/compute/DrawProfile.sol";
import {ProviderDraw} from "../../contracts/libraries/compute/ProviderDraw.sol";
import {ProviderSampling} from "../../contracts/libraries/compute/ProviderSampling.sol";
import {ProviderRegistryStore} from "../../contracts/core/compute/ProviderRegistryStore.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderMatcher} from "../../contracts/interfaces/compute/IProviderMatcher.sol";

/// @dev The registry's draw snapshot in miniature: ProviderDraw on the registry's storage struct, and the two views
///      ProviderSampling calls (same signatures as the ProviderRegistry's, so a draw runs against it unchanged).
contract DrawRegistryHarness {
    ProviderRegistryStore.ProviderRegistryStorage internal s;

    function setMinStake(uint96 v) external {
        s.params.minStakeDps = v;
    }

    /// @dev Sets what a draw looks at and records it, as the registry does after every such change.
    function put(
        address who,
        uint128 staked,
        uint40 expires,
        uint16 cls,
        uint88 cap,
        uint16 points,
        uint32 slashes
    ) external {
        ProviderRegistryStore.ProviderData storage p = s.providers[who];
        p.stakedDps = staked;
        p.attestationExpiresAt = expires;
        p.workloadClass = cls;
        p.capacityPflopsWad = cap;
        p.repPoints = points;
        p.slashCount = slashes;
        ProviderDraw.record(s, p, who);
    }

    function outcome(address who, bool completed) external returns (bool changed, uint256 points, uint256 day) {
        ProviderRegistryStore.ProviderData storage p = s.providers[who];
        changed = ProviderDraw.applyOutcome(p, completed);
        return (changed, p.repPoints, p.repDay);
    }

    function listLength() external view returns (uint256) {
        return s.drawList.length;
    }

    function listed(uint256 i) external view returns (address) {
        return address(uint160(s.drawList[i]));
    }

    function wordAt(address who, uint256 atBlock) external view returns (uint256) {
        return ProviderDraw.wordAt(s.providers[who], atBlock);
    }

    function maxWeightAt(uint256 atBlock) external view returns (uint256) {
        return ProviderDraw.maxWeightAt(s, atBlock);
    }

    function drawSample(
        uint256[] calldata indices,
        uint256 atBlock
    ) external view returns (address[] memory who, uint256[] memory words, uint256 ref) {
        who = new address[](indices.length);
        words = new uint256[](indices.length);
        for (uint256 i; i < indices.length; ++i) {
            who[i] = address(uint160(s.drawList[indices[i]]));
            words[i] = ProviderDraw.wordAt(s.providers[who[i]], atBlock);
        }
        ref = ProviderDraw.maxWeightAt(s, atBlock);
    }

    function drawSampleWeighted(
        uint256[] calldata samples,
        uint256 candidates,
        uint256 atBlock,
        uint256 want,
        address[] calldata excluded
    ) external view returns (address[] memory, uint256[] memory, uint256) {
        return ProviderDraw.weightedSamples(s, samples, want, ProviderDraw.Batch(candidates, atBlock, 0, excluded));
    }

    /// @dev ProviderSampling.draw against this harness as the registry.
    function draw(
        IProviderMatcher.DrawQuery calldata q,
        address[] calldata excluded,
        bytes32 seed,
        uint256 count
    ) external view returns (address[] memory) {
        return ProviderSampling.draw(IProviderRegistry(address(this)), q, excluded, seed, count);
    }
}

/// @notice The council draw's libraries against brute-force references (TSK-07): DrawProfile's packing and
///         eligibility against the documented bit layout, the reputation factor against clamp(100 + min(points, 50)
///         − 10·slashes, 50, 150), applyOutcome against a day-by-day model, and — over a small snapshot (2..8
///         providers) whose profiles change after the commit block — the registry's weighted sample batch and the
///         whole ProviderSampling.draw against a reference that replays the documented rule sample by sample
///         (entry uint128(h) mod n, accepted when (h >> 128) mod ref < weight, the snapshot word as of the commit
///         block decides eligibility, then a seeded sweep). A fixed-seed count checks that the landing frequencies
///         follow the weights.
contract ProviderDrawTest is Test {
    DrawRegistryHarness internal h;

    uint256 internal constant MIN_STAKE = 100e18;
    uint16 internal constant CLS = 3;

    /// @dev The reference snapshot: each provider's profile as of the commit block.
    struct Model {
        address who;
        uint256 units;
        uint256 rep;
        uint40 expires;
        uint16 cls;
        uint88 cap;
        bool minMet;
    }

    function setUp() public {
        h = new DrawRegistryHarness();
        h.setMinStake(uint96(MIN_STAKE));
        vm.roll(100);
        vm.warp(1_000_000);
    }

    // ───────────────────────────── pure parts ─────────────────────────────

    function _refRep(uint256 points, uint256 slashes) internal pure returns (uint256) {
        int256 f = 100 + int256(points < 50 ? points : 50) - 10 * int256(slashes);
        if (f < 50) return 50;
        if (f > 150) return 150;
        return uint256(f);
    }

    function testFuzz_repPct_matchesClamp(uint16 points, uint32 slashes) public pure {
        assertEq(ProviderDraw.repPct(points, bound(slashes, 0, 1e6)), _refRep(points, bound(slashes, 0, 1e6)));
    }

    /// @dev The word's fields read back per the layout, weight = min(units·rep, WEIGHT_CAP) (linear in stake: a
    ///      stake split over two providers never weighs more than whole), eligibility per its four conditions.
    function testFuzz_drawProfile_layoutWeightEligibility(
        uint40 expires,
        uint16 cls,
        uint88 cap,
        uint128 staked,
        uint8 rep,
        bool minMet,
        uint16 askCls,
        uint88 askCap,
        uint40 atTime
    ) public pure {
        rep = uint8(bound(rep, 50, 150));
        uint256 w = DrawProfile.encode(expires, cls, cap, staked, rep, minMet);
        uint256 units = staked / 1e18;
        if (units > (1 << 55) - 1) units = (1 << 55) - 1;
        assertEq(uint40(w), expires);
        assertEq(DrawProfile.stakeUnits(w), units);
        assertEq(DrawProfile.repPct(w), rep);
        uint256 weight = units * rep > DrawProfile.WEIGHT_CAP ? DrawProfile.WEIGHT_CAP : units * rep;
        assertEq(DrawProfile.weight(w), weight);
        uint256 half = DrawProfile.weight(DrawProfile.encode(expires, cls, cap, staked / 2, rep, minMet));
        if (units * rep <= DrawProfile.WEIGHT_CAP) assertLe(2 * half, weight, "splitting adds weight");
        if (askCls % 2 == 0) askCls = cls;
        if (askCls % 3 == 0) askCls = DrawProfile.ANY_CLASS;
        bool ref = minMet && expires >= atTime && (askCls == DrawProfile.ANY_CLASS || askCls == cls) && cap >= askCap;
        assertEq(DrawProfile.eligible(w, askCls, askCap, atTime), ref);
    }

    function testFuzz_sampleHash_isKeccakOfSeedAndK(bytes32 seed, uint256 k) public pure {
        assertEq(ProviderSampling.sampleHash(seed, k), uint256(keccak256(abi.encode(seed, k))));
    }

    /// @dev applyOutcome against a model: one point per new reputation day (≤ 50), −5 (floored at 0) per failure.
    function testFuzz_applyOutcome_matchesDayModel(uint256 seed, uint256 steps) public {
        steps = bound(steps, 1, 30);
        address who = makeAddr("p");
        uint256 points;
        uint256 lastDay;
        for (uint256 i; i < steps; ++i) {
            uint256 r = uint256(keccak256(abi.encode(seed, i)));
            vm.warp(block.timestamp + (r % 3) * 12 hours);
            bool completed = (r >> 8) % 4 != 0;
            uint256 day = block.timestamp / 1 days + 1;
            bool expect;
            if (completed) {
                expect = points < 50 && day > lastDay;
                if (expect) (points, lastDay) = (points + 1, day);
            } else {
                expect = points != 0;
                points = points > 5 ? points - 5 : 0;
            }
            (bool changed, uint256 got, ) = h.outcome(who, completed);
            assertEq(changed, expect, "changed");
            assertEq(got, points, "points");
        }
    }

    /// @dev Fixed seed: with weights 1:2:4 (stakes 100, 200, 400 DPS, neutral reputation) the accepted samples land in
    ///      proportion to weight within 15 % over 3,000 samples (the rule is exact up to modulo bias; the count is
    ///      deterministic).
    function test_weighting_landingFrequencies() public pure {
        uint256[3] memory w = [uint256(100 * 100), 200 * 100, 400 * 100];
        uint256 ref = w[2];
        uint256[3] memory hits;
        uint256 total;
        for (uint256 k; k < 3000; ++k) {
            uint256 hh = ProviderSampling.sampleHash(bytes32("freq"), k);
            uint256 i = ProviderSampling.index(hh, 3);
            if (ProviderSampling.acceptsWeight(hh, w[i], ref)) {
                ++hits[i];
                ++total;
            }
        }
        for (uint256 i; i < 3; ++i) {
            uint256 expected = (total * w[i]) / (w[0] + w[1] + w[2]);
            assertApproxEqRel(hits[i], expected, 0.15e18);
        }
    }

    // ───────────────────────────── snapshot and draw (TSK-07) ─────────────────────────────

    /// @dev Lists n providers at the commit block (all eligible then), re-records a random profile for each in the
    ///      same block (the model: what a draw at that block must read), then in a later block changes them all
    ///      again (what it must ignore). Returns the model and the commit block.
    function _snapshot(uint256 seed, uint256 n) internal returns (Model[] memory m, uint256 atBlock, uint256 ref) {
        m = new Model[](n);
        atBlock = block.number;
        for (uint256 i; i < n; ++i) {
            address who = address(uint160(0x1000 + i));
            h.put(who, uint128(MIN_STAKE), uint40(block.timestamp + 1 days), CLS, 1e18, 0, 0);
            if ((MIN_STAKE / 1e18) * 100 > ref) ref = (MIN_STAKE / 1e18) * 100;
        }
        for (uint256 i; i < n; ++i) {
            uint256 r = uint256(keccak256(abi.encode(seed, "model", i)));
            Model memory x;
            x.who = address(uint160(0x1000 + i));
            uint256 staked = bound(r % 1e6, 1, 1_000) * 1e18; // whole DPS, 1..1000: some below the 100 minimum
            x.units = staked / 1e18;
            x.minMet = staked >= MIN_STAKE;
            uint256 points = (r >> 40) % 60;
            uint256 slashes = (r >> 48) % 8;
            x.rep = _refRep(points, slashes);
            x.expires = uint40(block.timestamp + ((r >> 56) % 4 == 0 ? 0 : 2 days)); // some expire at the draw
            x.cls = (r >> 64) % 5 == 0 ? CLS + 1 : CLS;
            x.cap = uint88(((r >> 72) % 4) * 1e18);
            h.put(x.who, uint128(staked), x.expires, x.cls, x.cap, uint16(points), uint32(slashes));
            if (x.minMet) {
                uint256 wn = x.units * 100 > DrawProfile.WEIGHT_CAP ? DrawProfile.WEIGHT_CAP : x.units * 100;
                if (wn > ref) ref = wn;
            }
            m[i] = x;
        }
        vm.roll(block.number + 5);
        for (uint256 i; i < n; ++i) {
            uint256 r = uint256(keccak256(abi.encode(seed, "later", i)));
            if (r % 2 == 0)
                h.put(m[i].who, uint128((r >> 8) % 5_000) * 1e18, uint40(block.timestamp + 9 days), CLS, 9e18, 50, 0);
        }
        vm.warp(block.timestamp + 1);
    }

    function _weight(Model memory x) internal pure returns (uint256 w) {
        w = x.units * x.rep;
        if (w > DrawProfile.WEIGHT_CAP) w = DrawProfile.WEIGHT_CAP;
    }

    function _eligible(Model memory x, IProviderMatcher.DrawQuery memory q) internal pure returns (bool) {
        return x.minMet && x.expires >= q.atTime && x.cls == q.workloadClass && x.cap >= q.requiredCapacityPflopsWad;
    }

    function _in(address[] memory xs, uint256 len, address a) internal pure returns (bool) {
        for (uint256 i; i < len; ++i) if (xs[i] == a) return true;
        return false;
    }

    /// @dev The reference draw: the documented rule, sample by sample, then the sweep.
    function _refDraw(
        Model[] memory m,
        uint256 ref,
        IProviderMatcher.DrawQuery memory q,
        address[] memory excluded,
        bytes32 seed,
        uint256 count
    ) internal pure returns (address[] memory out, uint256 filled) {
        out = new address[](count);
        uint256 budget = count + q.extraSamples;
        for (uint256 k; k < budget && filled < count; ++k) {
            uint256 hh = uint256(keccak256(abi.encode(seed, k)));
            Model memory x = m[uint128(hh) % q.candidates];
            if (_in(excluded, excluded.length, x.who) || _in(out, filled, x.who)) continue;
            uint256 w = _weight(x);
            if (w < ref && (hh >> 128) % ref >= w) continue;
            if (_eligible(x, q)) out[filled++] = x.who;
        }
        uint256 sweep = budget < q.candidates ? budget : q.candidates;
        uint256 start = uint256(keccak256(abi.encode(seed, "sweep")));
        for (uint256 i; i < sweep && filled < count; ++i) {
            Model memory x = m[(start + i) % q.candidates];
            if (_eligible(x, q) && !_in(excluded, excluded.length, x.who) && !_in(out, filled, x.who)) {
                out[filled++] = x.who;
            }
        }
    }

    /// @dev TSK-07: the snapshot as of the commit block is what the model says, whatever changed after it.
    function testFuzz_snapshot_wordsAndReferenceAsOfCommitBlock(uint256 seed, uint256 n) public {
        n = bound(n, 2, 8);
        (Model[] memory m, uint256 atBlock, uint256 ref) = _snapshot(seed, n);
        assertEq(h.listLength(), n, "listed once each");
        assertEq(h.maxWeightAt(atBlock), ref, "reference weight");
        for (uint256 i; i < n; ++i) {
            assertEq(h.listed(i), m[i].who, "list order");
            uint256 w = h.wordAt(m[i].who, atBlock);
            assertEq(DrawProfile.stakeUnits(w), m[i].units);
            assertEq(DrawProfile.repPct(w), m[i].rep);
            assertEq(DrawProfile.weight(w), _weight(m[i]));
        }
    }

    /// @dev TSK-07: ProviderSampling.draw over the harness registry equals the brute-force reference draw, with
    ///      exclusions, fewer candidates than listed, and profiles changed after the commit block.
    function testFuzz_draw_matchesBruteForceReference(
        uint256 seed,
        uint256 n,
        uint256 count,
        uint256 extra,
        uint256 candidates,
        uint8 excludeMask
    ) public {
        n = bound(n, 2, 8);
        (Model[] memory m, uint256 atBlock, uint256 ref) = _snapshot(seed, n);
        IProviderMatcher.DrawQuery memory q = _query(seed, atBlock, bound(candidates, 1, n), bound(extra, 0, 24));
        _checkDraw(m, ref, q, _excluded(m, excludeMask), keccak256(abi.encode(seed, "draw")), bound(count, 1, 5));
    }

    /// @dev Not vacuous: a fixed snapshot of 8 fills seats, and the same draw repeated gives the same seats.
    function test_draw_fillsSeatsDeterministically() public {
        (Model[] memory m, uint256 atBlock, uint256 ref) = _snapshot(42, 8);
        IProviderMatcher.DrawQuery memory q = _query(0, atBlock, 8, 6);
        address[] memory a = h.draw(q, new address[](0), bytes32("seed"), 3);
        assertGt(a.length, 0, "nothing drawn");
        address[] memory b = h.draw(q, new address[](0), bytes32("seed"), 3);
        assertEq(a, b);
        _checkDraw(m, ref, q, new address[](0), bytes32("seed"), 3);
    }

    function _query(
        uint256 seed,
        uint256 atBlock,
        uint256 candidates,
        uint256 extra
    ) internal view returns (IProviderMatcher.DrawQuery memory q) {
        q.workloadClass = CLS;
        q.requiredCapacityPflopsWad = uint128(bound(seed >> 200, 0, 2)) * 1e18;
        q.atBlock = uint64(atBlock);
        q.atTime = uint40(block.timestamp);
        q.candidates = uint32(candidates);
        q.extraSamples = uint32(extra);
    }

    /// @dev At most two providers of the mask excluded.
    function _excluded(Model[] memory m, uint8 mask) internal pure returns (address[] memory ex) {
        ex = new address[](m.length);
        uint256 ne;
        for (uint256 i; i < m.length; ++i) if ((mask >> i) & 1 == 1 && ne < 2) ex[ne++] = m[i].who;
        assembly ("memory-safe") {
            mstore(ex, ne)
        }
    }

    function _checkDraw(
        Model[] memory m,
        uint256 ref,
        IProviderMatcher.DrawQuery memory q,
        address[] memory excluded,
        bytes32 dseed,
        uint256 count
    ) internal view {
        address[] memory got = h.draw(q, excluded, dseed, count);
        (address[] memory want, uint256 filled) = _refDraw(m, ref, q, excluded, dseed, count);
        assertEq(got.length, filled, "seats filled");
        for (uint256 i; i < filled; ++i) assertEq(got[i], want[i], "drawn");
    }

    /// @dev TSK-07: one weighted batch (the registry view) accepts exactly the reference's samples, in order, and
    ///      stops once `want` are accepted.
    function testFuzz_weightedSamples_matchReference(uint256 seed, uint256 n, uint256 len, uint256 want) public {
        n = bound(n, 2, 8);
        len = bound(len, 1, 16);
        want = bound(want, 1, 4);
        (Model[] memory m, uint256 atBlock, uint256 ref) = _snapshot(seed, n);
        uint256[] memory hs = new uint256[](len);
        for (uint256 j; j < len; ++j) hs[j] = uint256(keccak256(abi.encode(seed, "batch", j)));
        (address[] memory who, uint256[] memory words, uint256 used) = h.drawSampleWeighted(
            hs,
            n,
            atBlock,
            want,
            new address[](0)
        );
        uint256 got;
        uint256 k;
        address[] memory seen = new address[](len);
        for (; k < len && got < want; ++k) {
            Model memory x = m[uint128(hs[k]) % n];
            uint256 w = _weight(x);
            bool accept = !_in(seen, got, x.who) && (w >= ref || (hs[k] >> 128) % ref < w);
            assertEq(who[k], accept ? x.who : address(0), "sample");
            if (accept) {
                assertEq(DrawProfile.weight(words[k]), w, "word as of the commit block");
                seen[got++] = x.who;
            }
        }
        assertEq(used, k, "samples consumed");
    }
}
