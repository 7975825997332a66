// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistry} from "../tasks/ITaskRegistry.sol";

/// @title IDeliveryOrders
/// @notice Physical delivery that is compute (issue 19 item 1, docs/futures.md "Delivery as compute"). A futures
///         long that elected delivery ends expiry holding a delivery order instead of bare CH: the CH the shorts
///         delivered, held here for the long, of the order's workload class and minimum performance grade, to be
///         consumed within a delivery window. The protocol assigns the order to a provider with outstanding CH
///         liability through ProviderMatcher's Delivery mode (`assign`), reserving that liability and locking the
///         provider's minimum stake in the ProviderRegistry until the order is consumed or closed. The long consumes
///         the order as batch tasks (`submitTask`: the TaskRegistry's CH-paid redemption path, the CH taken from the
///         order, no new payment); a task executor that fails is slashed by the ProviderRegistry (stake to the
///         client, failed count and slash count up) and `reportFailure` forwards that compensation to the long. What
///         the window leaves unconsumed goes back to the long as CH (`close`).
/// @dev Metering: one CH is one hour of the class's reference system (ComputeStandard); `meter` converts an order
///      into PFLOP-hours and into hours of its assigned provider at its W_i-corrected rate. Order ids are
///      `seriesId << 160 | owner` (one order per long and series).
interface IDeliveryOrders {
    /// @notice Order status.
    enum Status {
        None,
        Open,
        Closed
    }

    /// @notice A delivery order.
    /// @param owner The long it belongs to (not transferable).
    /// @param windowEnd End of the delivery window (tasks must be submitted before it).
    /// @param workloadClass Workload class of the compute.
    /// @param minGrade Worst ComputeStandard performance grade the assigned provider may have (0 A … 3 D).
    /// @param status Open or Closed.
    /// @param availableCh CH held for the long, not in a task.
    /// @param inTasksCh CH escrowed in the long's running tasks.
    /// @param provider Assigned provider (0: not assigned yet).
    /// @param assignmentId Its ProviderRegistry assignment (the reservation of `availableCh`; 0: none open).
    /// @param consumedCh CH paid to executors of accepted tasks (burned against their liability).
    /// @param compensatedDps DPS slashed from failing executors and forwarded to the long.
    struct Order {
        address owner;
        uint40 windowEnd;
        uint16 workloadClass;
        uint8 minGrade;
        Status status;
        uint128 availableCh;
        uint128 inTasksCh;
        address provider;
        uint64 assignmentId;
        uint128 consumedCh;
        uint128 compensatedDps;
    }

    /// @notice Delivery specification for new orders.
    /// @param workloadClass Workload class of the compute delivered.
    /// @param minGrade Worst performance grade accepted (0 A … 3 D).
    /// @param windowSec Delivery window length.
    struct Spec {
        uint16 workloadClass;
        uint8 minGrade;
        uint32 windowSec;
    }

    /// @notice Running totals (the demo report's delivery keys; orders created are counted from DeliveryOrderCreated).
    /// @param tasksCompleted Tasks of orders accepted.
    /// @param chDelivered CH consumed by accepted tasks.
    /// @param slashedDps DPS slashed from failing executors and forwarded to longs.
    struct Stats {
        uint64 tasksCompleted;
        uint96 chDelivered;
        uint96 slashedDps;
    }

    /// @notice Thrown when the caller is not the futures market.
    /// @param caller The caller.
    error DeliveryOnlyMarket(address caller);
    /// @notice Thrown when the caller is not the order's owner.
    /// @param orderId The order.
    /// @param caller The caller.
    error DeliveryNotOwner(uint256 orderId, address caller);
    /// @notice Thrown when an order is not open (unknown or closed).
    /// @param orderId The order.
    error DeliveryOrderNotOpen(uint256 orderId);
    /// @notice Thrown when an order already exists for (series, owner).
    /// @param orderId The order.
    error DeliveryOrderExists(uint256 orderId);
    /// @notice Thrown when the order's delivery window is over (or, for `close` by others, not over yet).
    /// @param orderId The order.
    /// @param windowEnd End of its window.
    error DeliveryWindow(uint256 orderId, uint256 windowEnd);
    /// @notice Thrown when the order is already assigned.
    /// @param orderId The order.
    /// @param provider Its provider.
    error DeliveryAlreadyAssigned(uint256 orderId, address provider);
    /// @notice Thrown when a task is submitted before the order is assigned.
    /// @param orderId The order.
    error DeliveryNotAssigned(uint256 orderId);
    /// @notice Thrown when no candidate of the page qualifies (liability, class, grade).
    /// @param orderId The order.
    error DeliveryNoProvider(uint256 orderId);
    /// @notice Thrown when a task asks more CH than the order holds.
    /// @param orderId The order.
    /// @param askedCh Asked.
    /// @param availableCh Held.
    error DeliveryInsufficientCh(uint256 orderId, uint256 askedCh, uint256 availableCh);
    /// @notice Thrown when task terms do not match the order (currency CH, the order's class).
    /// @param orderId The order.
    error DeliveryTermsMismatch(uint256 orderId);
    /// @notice Thrown when a task is not one of an order's, or was already claimed.
    /// @param taskId The task.
    error DeliveryUnknownTask(uint256 taskId);
    /// @notice Thrown when a task has not ended yet.
    /// @param taskId The task.
    /// @param status Its status.
    error DeliveryTaskNotEnded(uint256 taskId, ITaskRegistry.Status status);
    /// @notice Thrown on an invalid spec (window 0, grade > 3) or zero amount.
    error DeliveryInvalidParams();

    /// @notice Emitted when a settled electing long's CH becomes a delivery order.
    /// @param orderId The order.
    /// @param owner The long.
    /// @param seriesId The futures series.
    /// @param chAmount CH delivered by the shorts and held for the long.
    /// @param settlementPriceWad Price the long paid per CH.
    /// @param workloadClass Class.
    /// @param minGrade Worst grade accepted.
    /// @param windowEnd End of the delivery window.
    event DeliveryOrderCreated(
        uint256 indexed orderId,
        address indexed owner,
        uint256 indexed seriesId,
        uint256 chAmount,
        uint256 settlementPriceWad,
        uint16 workloadClass,
        uint8 minGrade,
        uint40 windowEnd
    );
    /// @notice Emitted when an order is assigned (ProviderMatcher Delivery mode) and its CH reserved.
    /// @param orderId The order.
    /// @param provider The provider.
    /// @param assignmentId Its ProviderRegistry assignment.
    /// @param reservedCh CH of its liability reserved.
    /// @param by The caller.
    event DeliveryOrderAssigned(
        uint256 indexed orderId,
        address indexed provider,
        uint256 assignmentId,
        uint256 reservedCh,
        address by
    );
    /// @notice Emitted when the long consumes part of an order as a task.
    /// @param orderId The order.
    /// @param taskId The TaskRegistry task.
    /// @param chAmount CH escrowed in the task.
    /// @param availableCh CH still held for the long after.
    /// @param assignmentId The provider's new reservation of what is left (0: none).
    event DeliveryTaskSubmitted(
        uint256 indexed orderId,
        uint256 indexed taskId,
        uint256 chAmount,
        uint256 availableCh,
        uint256 assignmentId
    );
    /// @notice Emitted when an order's task is accounted after it ended.
    /// @param orderId The order.
    /// @param taskId The task.
    /// @param status Its final status.
    /// @param consumedCh CH paid to its executor (accepted tasks).
    /// @param refundedCh CH back to the order (or to the owner once the order is closed).
    /// @param availableCh CH held for the long after.
    event DeliveryTaskSettled(
        uint256 indexed orderId,
        uint256 indexed taskId,
        ITaskRegistry.Status status,
        uint256 consumedCh,
        uint256 refundedCh,
        uint256 availableCh
    );
    /// @notice Emitted when the failure-report bounty a CH redemption task held in escrow comes back to the order
    ///         (the order reported, so no keeper took it): credited to the order, or paid to the owner once closed.
    /// @param orderId The order.
    /// @param taskId The task.
    /// @param returnedCh CH returned.
    /// @param availableCh CH held for the long after.
    event DeliveryReportBountyReturned(
        uint256 indexed orderId,
        uint256 indexed taskId,
        uint256 returnedCh,
        uint256 availableCh
    );
    /// @notice Emitted when a failing executor's slashed stake reaches the long (the first leg of making it whole).
    /// @param orderId The order.
    /// @param taskId The task.
    /// @param owner The long paid.
    /// @param compensationDps DPS forwarded.
    /// @param totalCompensatedDps The order's total after.
    event DeliveryCompensated(
        uint256 indexed orderId,
        uint256 indexed taskId,
        address indexed owner,
        uint256 compensationDps,
        uint256 totalCompensatedDps
    );
    /// @notice Emitted when an order closes: its reservation released, its unconsumed CH returned to the long.
    /// @param orderId The order.
    /// @param returnedCh CH returned.
    /// @param inTasksCh CH still in running tasks (returned as they end).
    /// @param by The caller.
    event DeliveryOrderClosed(uint256 indexed orderId, uint256 returnedCh, uint256 inTasksCh, address by);
    /// @notice Emitted when a futures short that failed its delivery assignment is a registered provider: its DPS
    ///         stake is slashed (worth the USDC penalty at the registry's DPS price; finder fee to the settler, the
    ///         rest burned) and its failed count (reputation) and slash count (the matcher's risk score) rise. The
    ///         long is made whole in USDC by the market: the short's margin, then its guarantor (liquidation).
    /// @param seriesId The series.
    /// @param short The short.
    /// @param undeliveredCh CH assigned and not delivered.
    /// @param penaltyUsdc The market's penalty on it (USDC, 6 decimals).
    /// @param slashedDps DPS slashed (0 when the short is not a provider, has no stake or the registry refused).
    /// @param finder Who settled the short (finder fee).
    event DeliveryShortSlashed(
        uint256 indexed seriesId,
        address indexed short,
        uint256 undeliveredCh,
        uint256 penaltyUsdc,
        uint256 slashedDps,
        address finder
    );
    /// @notice Emitted when governance sets the spec of new orders.
    /// @param spec The spec.
    event DeliverySpecSet(Spec spec);

    /// @notice Creates the order of a settled electing long; the market has transferred `chAmount` CH here first.
    ///         Only the futures market. The FuturesMarket itself hands over lazily (issue 19 item 6): it keeps the CH
    ///         as the long's claim and the first call that needs the order (`assign`, `submitTask`, `close`) opens it
    ///         from the claim (`IFuturesMarket.takeDelivery`, `DeliveryOrderCreated`); this push entry remains for a
    ///         market that transfers at settlement.
    /// @param seriesId The series.
    /// @param owner The long.
    /// @param chAmount CH delivered (> 0).
    /// @param settlementPriceWad Price the long paid per CH.
    /// @return orderId The order (`seriesId << 160 | owner`).
    function createOrder(
        uint256 seriesId,
        address owner,
        uint256 chAmount,
        uint256 settlementPriceWad
    ) external returns (uint256 orderId);

    /// @notice Slashes a futures short that failed its delivery assignment, when it is a registered provider
    ///         (DeliveryShortSlashed): DPS worth the penalty at the registry's DPS price, the finder fee to the
    ///         settler and the rest to the market for the series' electing longs (the first leg of making them
    ///         whole). Only the futures market; never reverts for a registry refusal.
    /// @param seriesId The series.
    /// @param short The short.
    /// @param undeliveredCh CH assigned and not delivered.
    /// @param penaltyUsdc The market's penalty (USDC, 6 decimals): the slash is worth as much in DPS.
    /// @param finder Who settled the short (zero when the short settled itself: no finder fee).
    /// @return compensationDps DPS slashed net of the finder fee, paid to the market for the series' longs.
    /// @return creditedUsdc Its value at the registry's DPS price (rounded down, ≤ `penaltyUsdc`): the part of the
    ///         penalty the slash covers; the market charges the short's margin only the rest.
    function slashFailedShort(
        uint256 seriesId,
        address short,
        uint256 undeliveredCh,
        uint256 penaltyUsdc,
        address finder
    ) external returns (uint256 compensationDps, uint256 creditedUsdc);

    /// @notice The DPS token (what `slashFailedShort` pays the market).
    function dpsToken() external view returns (address);

    /// @notice Assigns an open, unassigned order inside its window to the best candidate of a page (ProviderMatcher
    ///         Delivery mode: outstanding liability ≥ the order's CH, the order's class; then the first of the
    ///         ranking whose performance grade is at least the order's), reserving that liability. Anyone.
    /// @param orderId The order.
    /// @param candidates Providers to consider (≤ the matcher's page limit; the owner is excluded).
    /// @return provider The provider assigned.
    function assign(uint256 orderId, address[] calldata candidates) external returns (address provider);

    /// @notice Consumes `terms.maxPayment` CH of an assigned order as a TaskRegistry task paid in CH (the
    ///         TaskRegistry's submit path; this contract is the task's client). Owner only, inside the window.
    /// @param orderId The order.
    /// @param terms Task terms (currency CH, the order's workload class).
    /// @param prescription The prescription.
    /// @return taskId The task.
    function submitTask(
        uint256 orderId,
        ITaskRegistry.Terms calldata terms,
        ITaskRegistry.Prescription calldata prescription
    ) external returns (uint256 taskId);

    /// @notice Accounts an ended task of an order: what its executor was paid counts as delivered, the refund goes
    ///         back to the order (or to the owner once closed). Anyone, once.
    /// @param taskId The task.
    /// @return refundedCh CH credited back.
    function claimTask(uint256 taskId) external returns (uint256 refundedCh);

    /// @notice Reports a rejected or expired task's redemption as failed (TaskRegistry → ProviderRegistry: the
    ///         executor is slashed, its failed and slash counts rise) and forwards the slashed stake to the long.
    ///         Anyone, once the redemption deadline passed. When someone else already reported it to the TaskRegistry
    ///         directly, credits what that report paid this contract (`ITaskRegistry.reportedToClient`) instead.
    /// @param taskId The task.
    /// @return compensationDps DPS forwarded.
    function reportFailure(uint256 taskId) external returns (uint256 compensationDps);

    /// @notice Closes an order: releases the provider's reservation and returns the CH held to the owner. The owner
    ///         any time, anyone after the window.
    /// @param orderId The order.
    /// @return returnedCh CH returned.
    function close(uint256 orderId) external returns (uint256 returnedCh);

    /// @notice Sets the spec of new orders (ADMIN).
    /// @param spec The spec.
    function setSpec(Spec calldata spec) external;

    /// @notice An order. A settled long's claim not yet taken from the market shows as the Open order it opens on
    ///         first use (its CH, the current spec, a window from now, unassigned).
    /// @param orderId The order.
    /// @return The order.
    function order(uint256 orderId) external view returns (Order memory);

    /// @notice The order of a task (0: none or claimed).
    /// @param taskId The task.
    /// @return The order id.
    function orderOfTask(uint256 taskId) external view returns (uint256);

    /// @notice The id of (series, owner)'s order.
    /// @param seriesId The series.
    /// @param owner The long.
    /// @return The order id.
    function orderId(uint256 seriesId, address owner) external pure returns (uint256);

    /// @notice Meters an order with ComputeStandard: its CH held (available + in tasks) in PFLOP-hours of the
    ///         class's latest reference system (1 CH = the reference for one hour), and in wall-clock hours of the
    ///         assigned provider at its W_i-corrected CH rate (0 when unassigned).
    /// @param orderId The order.
    /// @return pflopHoursWad PFLOP-hours, WAD (rounded down).
    /// @return providerHoursWad Hours of the provider, WAD (rounded up).
    function meter(uint256 orderId) external view returns (uint256 pflopHoursWad, uint256 providerHoursWad);

    /// @notice Running totals.
    /// @return The totals.
    function stats() external view returns (Stats memory);

    /// @notice The spec of new orders.
    /// @return The spec.
    function spec() external view returns (Spec memory);
}
