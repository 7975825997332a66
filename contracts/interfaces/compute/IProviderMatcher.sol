// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IProviderMatcher
/// @notice The one matching function of CHX (seed 002): scores providers by region, price vs budget, uptime,
///         reputation, free capacity, slash rate, stake and randomness, and picks executors, councils and delivery
///         assignments. Views only; gas depends on the page size, never on the number of registered providers.
/// @dev Randomness: callers pass a `seed` that no single party controls. `blockSeed(salt, targetBlock)` derives one
///      from the hash of a block that did not exist when the salt (e.g. the task id and the bids) was fixed; the
///      task registry commits `targetBlock` when bidding closes and selects once it is mined (within 256 blocks).
///      Limits per chain are in docs/compute.md. Draws (TSK-07) are unmovable once the seed is known:
///      `drawFromSnapshot` samples the ProviderRegistry's append-only draw list at indices keccak256(seed, k) mod
///      the list length at the commit block, accepting a candidate on its DrawProfile as of that block — nothing
///      done after the commit (registering, staking, unbonding, profiles, heartbeats, who calls) moves it. Ties of
///      the scoring functions are broken by keccak256(seed, provider).
interface IProviderMatcher {
    /// @notice What the selection is for. Executor: price vs budget counts and capacity is required; Council:
    ///         capacity required, price ignored; Delivery: outstanding CH liability ≥ requiredCh is required.
    enum Mode {
        Executor,
        Council,
        Delivery
    }

    /// @notice A selection query.
    /// @param mode Executor, Council or Delivery.
    /// @param workloadClass Required class (type(uint16).max: any).
    /// @param region Preferred region (0: any).
    /// @param regionStrict Only candidates in `region`.
    /// @param budgetPriceWad Client's maximum price, USDC per CH WAD (0: no budget). Executor mode only.
    /// @param requiredCapacityPflopsWad Capacity needed, PFLOPS WAD (Executor, Council).
    /// @param requiredCh Outstanding CH liability needed (Delivery).
    struct Query {
        Mode mode;
        uint16 workloadClass;
        uint16 region;
        bool regionStrict;
        uint128 budgetPriceWad;
        uint128 requiredCapacityPflopsWad;
        uint128 requiredCh;
    }

    /// @notice A draw from the registry's snapshot (TSK-07): everything it reads is fixed at the commit block.
    /// @param workloadClass Attested class required (type(uint16).max: any).
    /// @param requiredCapacityPflopsWad Attested capacity required, PFLOPS WAD.
    /// @param atBlock The commit block: candidates' DrawProfiles are read as of its end.
    /// @param atTime The commit block's timestamp: attestations must be live then.
    /// @param candidates The draw list's length at the commit: indices sampled are below it.
    /// @param extraSamples Samples the draw may reject (ineligible, excluded, repeated) beyond one per seat before
    ///        it gives up and returns fewer.
    struct DrawQuery {
        uint16 workloadClass;
        uint128 requiredCapacityPflopsWad;
        uint64 atBlock;
        uint40 atTime;
        uint32 candidates;
        uint32 extraSamples;
    }

    /// @notice Scoring weights in basis points (sum 10 000).
    struct Weights {
        uint16 region;
        uint16 price;
        uint16 uptime;
        uint16 reputation;
        uint16 capacity;
        uint16 slashRate;
        uint16 stake;
        uint16 randomness;
    }

    /// @notice Thrown when weights do not sum to 10 000 bps.
    /// @param sumBps The sum given.
    error MatcherInvalidWeights(uint256 sumBps);
    /// @notice Thrown when a candidate page or registry window exceeds the limit.
    /// @param given Page size.
    /// @param maxPage Limit.
    error MatcherPageTooLarge(uint256 given, uint256 maxPage);
    /// @notice Thrown when more providers are asked for than the limit.
    /// @param given Count asked.
    /// @param maxPick Limit.
    error MatcherCountTooLarge(uint256 given, uint256 maxPick);
    /// @notice Thrown when the target block's hash is not available (not mined yet, or older than 256 blocks).
    /// @param targetBlock The block.
    /// @param currentBlock The current block.
    error MatcherSeedUnavailable(uint256 targetBlock, uint256 currentBlock);
    /// @notice Thrown when a limit of zero is set.
    error MatcherInvalidLimits();

    /// @notice Emitted when governance sets the weights.
    /// @param weights The weights.
    event WeightsSet(Weights weights);
    /// @notice Emitted when governance sets the limits.
    /// @param stakeNormDps Stake giving the full stake factor.
    /// @param maxPage Largest candidate page / window.
    /// @param maxPick Largest selection.
    event LimitsSet(uint256 stakeNormDps, uint256 maxPage, uint256 maxPick);

    /// @notice Sets the weights. ADMIN only.
    /// @param w Weights (sum 10 000 bps).
    function setWeights(Weights calldata w) external;

    /// @notice Sets the limits. ADMIN only.
    /// @param stakeNormDps Stake giving the full stake factor (0: stake factor always full).
    /// @param maxPage Largest page / window (> 0).
    /// @param maxPick Largest selection (> 0).
    function setLimits(uint256 stakeNormDps, uint256 maxPage, uint256 maxPick) external;

    /// @notice Scores a caller-given page of candidates.
    /// @param q The query.
    /// @param candidates At most `maxPage` providers.
    /// @param seed The selection seed.
    /// @return eligible Per candidate: passed the hard filters.
    /// @return scoresWad Per candidate: score, WAD.
    function scoreCandidates(
        Query calldata q,
        address[] calldata candidates,
        bytes32 seed
    ) external view returns (bool[] memory eligible, uint256[] memory scoresWad);

    /// @notice Picks the best `count` eligible candidates of a caller-given page (e.g. the bidders of a task),
    ///         best first. Fewer are returned when fewer qualify.
    /// @param q The query.
    /// @param candidates At most `maxPage` providers (duplicates are the caller's fault: pass a set).
    /// @param excluded Addresses never picked (client, executor, the caller).
    /// @param seed The selection seed.
    /// @param count How many to pick (≤ maxPick).
    /// @return picked The selection.
    function selectFromCandidates(
        Query calldata q,
        address[] calldata candidates,
        address[] calldata excluded,
        bytes32 seed,
        uint256 count
    ) external view returns (address[] memory picked);

    /// @notice Draws `count` distinct providers from the registry's snapshot: sample k is the draw-list entry at
    ///         keccak256(seed, k) mod `q.candidates`, accepted when its DrawProfile as of `q.atBlock` is eligible
    ///         for `q` and it is neither excluded nor already drawn; at most count + `q.extraSamples` samples, then
    ///         (seats still empty) a sweep of as many consecutive entries from a seeded start. In draw order; fewer
    ///         when both run out. Unmovable once the seed is known (TSK-07).
    /// @param q The draw (snapshot block, time, list length, filters, sample budget).
    /// @param excluded Addresses never drawn (client, executor, an earlier council).
    /// @param seed The selection seed.
    /// @param count How many to draw (≤ maxPick).
    /// @return drawn The providers drawn.
    function drawFromSnapshot(
        DrawQuery calldata q,
        address[] calldata excluded,
        bytes32 seed,
        uint256 count
    ) external view returns (address[] memory drawn);

    /// @notice A seed from a committed future block: keccak256(blockhash(targetBlock), salt, chain id).
    /// @param salt Data fixed before targetBlock (task id, bids root).
    /// @param targetBlock A block after the salt was fixed; must be mined and among the last 256.
    /// @return The seed.
    function blockSeed(bytes32 salt, uint256 targetBlock) external view returns (bytes32);

    /// @notice The weights.
    /// @return The weights.
    function weights() external view returns (Weights memory);

    /// @notice The limits.
    /// @return stakeNormDps Stake giving the full stake factor.
    /// @return maxPage Largest page.
    /// @return maxPick Largest selection.
    function limits() external view returns (uint256 stakeNormDps, uint256 maxPage, uint256 maxPick);

    /// @notice The registry scored.
    /// @return The ProviderRegistry.
    function registry() external view returns (address);
}
