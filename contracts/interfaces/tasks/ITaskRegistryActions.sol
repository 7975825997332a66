// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ITaskRegistryActions
/// @notice The TaskRegistry's provider and council actions that name no task type: bids, the executor's checkpoint
///         commits, the members' commit–reveal and fee claims, and the replenishment flush. Inherited by
///         ITaskRegistry (one ABI). The keeper-paid steps (`closeBidding`, `drawCouncil`, `finalize`, …) stay in
///         ITaskRegistry: keepers and libraries take their selectors from it.
interface ITaskRegistryActions {
    /// @notice Bids `price` (task currency) while the halting rule is open (at most 32 bids per task). Eligibility
    ///         is checked when bidding closes (see `closeBidding`).
    /// @param taskId The task.
    /// @param price Total executor payment asked.
    function bid(uint256 taskId, uint128 price) external;

    /// @notice Withdraws the caller's bid at `index` (its `BidPlaced.bidCount` − 1) while the halting rule is open
    ///         (issue 17 item 22). The slot still counts toward `maxBids`. Never paused.
    /// @param taskId The task.
    /// @param index The bid's index.
    function withdrawBid(uint256 taskId, uint32 index) external;

    /// @notice Executor commits the result hash of checkpoint `checkpoint` (0-based, in order) before the deadline;
    ///         the last checkpoint starts verification.
    /// @param taskId The task.
    /// @param checkpoint Index.
    /// @param resultHash Result hash.
    function commit(uint256 taskId, uint8 checkpoint, bytes32 resultHash) external;

    /// @notice A current council member commits to its own result until `commitEnds` (the first half of the
    ///         verification window; may replace its commitment until then): `commitment` =
    ///         keccak256(abi.encode(taskId, member, resultHash, salt)).
    /// @param taskId The task.
    /// @param commitment The salted hash of the member's result.
    function commitResult(uint256 taskId, bytes32 commitment) external;

    /// @notice A member that committed reveals its result after `commitEnds` and until `votingEnds`. The accepted
    ///         result is the one a quorum of distinct members reveals (TSK-01): the executor's hash is accepted only
    ///         when the quorum's equals it, and a quorum on another hash proves the executor wrong.
    /// @param taskId The task.
    /// @param resultHash The member's result hash.
    /// @param salt The salt of its commitment.
    function revealResult(uint256 taskId, bytes32 resultHash, bytes32 salt) external;

    /// @notice A council member who revealed the verdict's result (either round) claims its fee, once; not while the
    ///         client's appeal of the acceptance runs (`TaskBisectionPhase`).
    /// @param taskId The task.
    /// @return fee Amount paid.
    function claimCouncilFee(uint256 taskId) external returns (uint256 fee);

    /// @notice Releases the duty lock of `member`'s seat on a task ended by a verdict (Accepted or Rejected): a
    ///         verdict leaves every council seat locked until its member claims its fee or this is called (TSK-08).
    ///         Permissionless (it frees only the member's own stake), once per seat.
    /// @param taskId The task.
    /// @param member The council member (either round).
    function releaseSeat(uint256 taskId, address member) external;

    /// @notice Accounts the DPS whose replenishment failed at the reward pool (see ReplenishmentDeferred); the next
    ///         accepted DPS task retries it anyway. Permissionless; reverts while the pool still fails.
    /// @return amountDps DPS accounted.
    function flushReplenishment() external returns (uint256 amountDps);
}
