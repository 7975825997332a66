// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ITaskRegistryEvents
/// @notice The events of ITaskRegistry (inherited by it; same selectors and topics). Code that reverts or emits
///         them names this interface: `ITaskRegistryEvents.X`.
interface ITaskRegistryEvents {
    /// @notice Emitted on a bid.
    /// @param taskId The task.
    /// @param provider The bidder.
    /// @param price The bid.
    /// @param bidCount Bids after.
    event BidPlaced(uint256 indexed taskId, address indexed provider, uint256 price, uint32 bidCount);
    /// @notice Emitted when a bidder withdraws its bid while bidding is open.
    /// @param taskId The task.
    /// @param provider The bidder.
    /// @param index The bid's index (its `BidPlaced.bidCount` − 1).
    event BidWithdrawn(uint256 indexed taskId, address indexed provider, uint32 index);
    /// @notice Emitted when bidding is sealed after the halting rule (or re-sealed when the seed aged out): the
    ///         executor is selected once `targetBlock` is mined, from its hash and the registry snapshot at the seal.
    /// @param taskId The task.
    /// @param targetBlock The seed block.
    /// @param candidates The draw list's length at the seal (what the council draw samples).
    event BiddingSealed(uint256 indexed taskId, uint256 targetBlock, uint256 candidates);
    /// @notice Emitted when bidding closes with an executor.
    /// @param taskId The task.
    /// @param executor The executor (lowest valid bid).
    /// @param price Its price.
    /// @param targetBlock Block whose hash seeds the council.
    /// @param assignmentId CH redemption assignment (0 unless paid in CH).
    event ExecutorSelected(
        uint256 indexed taskId,
        address indexed executor,
        uint256 price,
        uint256 targetBlock,
        uint256 assignmentId
    );
    /// @notice Emitted when a council is drawn.
    /// @param taskId The task.
    /// @param round 0 first council, 1 dispute council.
    /// @param members The members.
    /// @param quorum Votes needed.
    /// @param seed The matcher seed.
    event CouncilDrawn(uint256 indexed taskId, uint8 round, address[] members, uint256 quorum, bytes32 seed);
    /// @notice Emitted on a checkpoint commit.
    /// @param taskId The task.
    /// @param checkpoint Index (0-based).
    /// @param resultHash The committed hash.
    /// @param isFinal Whether this was the last checkpoint (verification starts).
    /// @param votingEnds End of the vote window (0 unless final).
    event ResultCommitted(
        uint256 indexed taskId,
        uint8 checkpoint,
        bytes32 resultHash,
        bool isFinal,
        uint256 votingEnds
    );
    /// @notice Emitted when a council member commits (or replaces) its salted result commitment.
    /// @param taskId The task.
    /// @param member The member.
    /// @param round The round.
    /// @param commitment keccak256(abi.encode(taskId, member, resultHash, salt)).
    event ResultCommitment(uint256 indexed taskId, address indexed member, uint8 round, bytes32 commitment);
    /// @notice Emitted when a council member reveals its result.
    /// @param taskId The task.
    /// @param member The member.
    /// @param round The round.
    /// @param resultHash The member's result.
    /// @param matchesExecutor Whether it equals the executor's result hash.
    /// @param agreeCount Reveals equal to the executor's result after this one.
    /// @param disagreeCount Reveals of other results after this one.
    event ResultRevealed(
        uint256 indexed taskId,
        address indexed member,
        uint8 round,
        bytes32 resultHash,
        bool matchesExecutor,
        uint8 agreeCount,
        uint8 disagreeCount
    );
    /// @notice Emitted when a member that did not reveal in time loses the bounded no-reveal slice of its stake.
    /// @param taskId The task.
    /// @param member The member.
    /// @param slashedDps DPS slashed.
    event SilentMemberSlashed(uint256 indexed taskId, address indexed member, uint256 slashedDps);
    /// @notice Emitted when a maintenance step credits its caller the keeper bounty out of the task's escrow (claimed
    ///         with `claimKeeperCredits`; see KeeperCreditsClaimed).
    /// @param taskId The task.
    /// @param keeper The caller credited.
    /// @param step The step's selector (closeBidding, drawCouncil, finalize, reportRedemptionFailure).
    /// @param currency The task currency (0 CH, 1 USDC, 2 DPS).
    /// @param amount Amount credited (task currency).
    /// @param escrowLeft The task's escrow after.
    event KeeperBountyPaid(
        uint256 indexed taskId,
        address indexed keeper,
        bytes4 step,
        uint8 currency,
        uint256 amount,
        uint256 escrowLeft
    );
    /// @notice Emitted when a dispute opens.
    /// @param taskId The task.
    /// @param by Who opened it.
    /// @param targetBlock Block whose hash seeds the enlarged council.
    event DisputeOpened(uint256 indexed taskId, address indexed by, uint256 targetBlock);
    /// @notice Emitted when a council member claims its fee.
    /// @param taskId The task.
    /// @param member The member.
    /// @param fee Amount paid.
    /// @param escrowLeft Fees of the task still unclaimed.
    event CouncilFeeClaimed(uint256 indexed taskId, address indexed member, uint256 fee, uint256 escrowLeft);
    /// @notice Emitted when a side is found wrong and slashed.
    /// @param taskId The task.
    /// @param provider The provider slashed.
    /// @param slashedDps DPS slashed.
    event FaultSlashed(uint256 indexed taskId, address indexed provider, uint256 slashedDps);
    /// @notice Emitted when a failed CH redemption is reported (the registry slashes and compensates the client).
    /// @param taskId The task.
    /// @param assignmentId The assignment.
    /// @param compensationDps DPS paid to the client.
    event RedemptionFailed(uint256 indexed taskId, uint256 assignmentId, uint256 compensationDps);
    /// @notice Emitted when the reward pool's `replenish` failed (paused, or Emission far behind): the DPS was
    ///         transferred to the pool and is accounted later, so the verdict is not blocked (issue 17 item 17).
    /// @param amountDps This settlement's share.
    /// @param backlogDps DPS at the pool awaiting `replenish` after this one.
    event ReplenishmentDeferred(uint256 amountDps, uint256 backlogDps);
    /// @notice Emitted when the deferred DPS is accounted (by `flushReplenishment` or the next replenishment).
    /// @param amountDps DPS accounted.
    event ReplenishmentFlushed(uint256 amountDps);
    /// @notice Emitted when the executor commits its checkpoint chain.
    /// @param taskId The task.
    /// @param root The Merkle root over the checkpoint hashes.
    /// @param n Checkpoints (a power of two; leaf n − 1 is the final result).
    event ChainCommitted(uint256 indexed taskId, bytes32 root, uint32 n);
    /// @notice Emitted when a bisection opens.
    /// @param taskId The task.
    /// @param challenger The challenger.
    /// @param challengerRoot The challenger's chain root.
    /// @param n Checkpoints.
    /// @param bond Bond posted (task currency).
    /// @param moveEnds Deadline of the executor's first move.
    event BisectionOpened(
        uint256 indexed taskId,
        address indexed challenger,
        bytes32 challengerRoot,
        uint32 n,
        uint256 bond,
        uint256 moveEnds
    );
    /// @notice Emitted on each bisection move (post-state).
    /// @param taskId The task.
    /// @param mover Who moved.
    /// @param index The midpoint answered.
    /// @param leaf The mover's leaf there.
    /// @param lo Lowest index still possible after the move.
    /// @param hi Index known to disagree after the move.
    /// @param moves Moves so far (opening included).
    /// @param moveEnds Deadline of the next move (0 once the step is isolated).
    event BisectionMoved(
        uint256 indexed taskId,
        address indexed mover,
        uint32 index,
        bytes32 leaf,
        uint32 lo,
        uint32 hi,
        uint8 moves,
        uint256 moveEnds
    );
    /// @notice Emitted when the bisection isolates the first disagreeing step; the referee council's seed is committed.
    /// @param taskId The task.
    /// @param step The step's index (its input is the leaf at step − 1, or the prescription's input for step 0).
    /// @param agreed The agreed input leaf (zero for step 0).
    /// @param executorStep The executor's output of the step.
    /// @param challengerStep The challenger's output of the step.
    /// @param moves Moves it took (opening included).
    /// @param targetBlock The referee council's seed block.
    event BisectionNarrowed(
        uint256 indexed taskId,
        uint32 step,
        bytes32 agreed,
        bytes32 executorStep,
        bytes32 challengerStep,
        uint8 moves,
        uint256 targetBlock
    );
    /// @notice Emitted when a bisection ends (post-state of the bond).
    /// @param taskId The task.
    /// @param executorRight Whether the executor won (the challenger was proven wrong or lapsed).
    /// @param byTimeout Whether a party let its move lapse (else: the referees' verdict or no verdict at all).
    /// @param bondToChallenger Bond returned to the challenger.
    /// @param bondToExecutor Bond paid to the executor.
    /// @param bondToReferees Bond reserved for the referees siding with the verdict.
    /// @param bondToKeeper Bond paid to the caller as the timeout's keeper bounty.
    event BisectionEnded(
        uint256 indexed taskId,
        bool executorRight,
        bool byTimeout,
        uint256 bondToChallenger,
        uint256 bondToExecutor,
        uint256 bondToReferees,
        uint256 bondToKeeper
    );
    /// @notice Emitted when an accepted task with a variable payment function (METERED or PROPORTIONAL) is priced, in
    ///         the settlement that pays it (post-state; the unpaid remainder is part of `TaskFinalized.refunded`).
    /// @param taskId The task.
    /// @param kind 1 METERED, 2 PROPORTIONAL.
    /// @param units The units the accepted result carries (metered work, or items of I fulfilled).
    /// @param bidPrice The executor's accepted bid (the price of the declared work).
    /// @param price The price paid for the result (before the DPS discount).
    event TaskPriced(uint256 indexed taskId, uint8 kind, uint256 units, uint256 bidPrice, uint256 price);
    /// @notice Emitted when a keeper claims its credited bounties in one currency.
    /// @param keeper The keeper (caller).
    /// @param to The recipient.
    /// @param currency The currency (0 CH, 1 USDC, 2 DPS).
    /// @param amount Amount paid.
    event KeeperCreditsClaimed(address indexed keeper, address indexed to, uint8 currency, uint256 amount);
    /// @notice Emitted when the client appeals an accepted result (issue 21 item 2): a bisection against the
    ///         executor's chain opens on the accepted task (`BisectionOpened` follows with the moves' data).
    /// @param taskId The task.
    /// @param client The client.
    /// @param bond The appeal bond (task currency; covers the referee council's fees and keeper steps).
    /// @param appealEnds End of the appeal window it came in.
    event AppealOpened(uint256 indexed taskId, address indexed client, uint256 bond, uint256 appealEnds);
    /// @notice Emitted when an appeal ends (post-state).
    /// @param taskId The task.
    /// @param executorWrong Whether the executor was proven wrong (the task is then Rejected).
    /// @param byTimeout Whether a party let its move lapse.
    /// @param slashedDps DPS slashed from the executor (net of the finder fee it went to the client).
    /// @param toClient Task currency returned to the client (its bond left over, and the forfeited council fees of the
    ///        members who accepted a result proven wrong).
    /// @param toExecutor Task currency paid to the executor out of a losing client's bond.
    /// @param refereeFees Task currency reserved in the task's escrow for the referees siding with the verdict.
    event AppealSettled(
        uint256 indexed taskId,
        bool executorWrong,
        bool byTimeout,
        uint256 slashedDps,
        uint256 toClient,
        uint256 toExecutor,
        uint256 refereeFees
    );
    /// @notice Emitted when an accepted task's appeal window is closed and the executor's duty lock released.
    /// @param taskId The task.
    /// @param executor The executor.
    event AppealWindowClosed(uint256 indexed taskId, address indexed executor);
}
