// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksStreamEvents} from "../../interfaces/tasks/IStreamTasksStreamEvents.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {StreamTasksStorage, StreamStorage} from "./StreamStorage.sol";

/// @title StreamSettlement
/// @notice StreamTasks' receipt settlement: the client signs cumulative EIP-712 receipts (answered count and amount)
///         off-chain; anyone settles a batch, each paying only its increase over what the provider was paid (a replayed
///         or older receipt pays nothing), at most answered × maxPrice, from the stream's deposit. Linked as an
///         external library (delegatecall: StreamTasks' storage and balances).
library StreamSettlement {
    using SafeERC20 for IERC20;

    /// @notice The EIP-712 type of a receipt.
    bytes32 internal constant RECEIPT_TYPEHASH = keccak256(
        "Receipt(uint256 streamId,address provider,uint64 answered,uint128 amount)"
    );

    /// @notice Settles `receipts` signed by their streams' clients under the entry's EIP-712 `domainSeparator`.
    function settle(
        IStreamTasks.Receipt[] calldata receipts,
        bytes[] calldata signatures,
        bytes32 domainSeparator
    ) external {
        uint256 n = receipts.length;
        if (n != signatures.length) revert IStreamTasksErrors.StreamInvalidTerms("length");
        StreamTasksStorage.Layout storage $ = StreamStorage.layout();
        for (uint256 i; i < n; ++i) _settleOne($, receipts[i], signatures[i], domainSeparator);
    }

    /// @notice The EIP-712 digest the client signs for `r` under `domainSeparator`.
    function digest(IStreamTasks.Receipt calldata r, bytes32 domainSeparator) internal pure returns (bytes32) {
        bytes32 structHash = keccak256(abi.encode(RECEIPT_TYPEHASH, r.streamId, r.provider, r.answered, r.amount));
        return MessageHashUtils.toTypedDataHash(domainSeparator, structHash);
    }

    /// @dev Pays the increase of a cumulative receipt: a replayed or older receipt pays nothing (idempotent). The
    ///      amount is the client's signed total, so what an answered request is worth never follows a later price.
    function _settleOne(
        StreamTasksStorage.Layout storage $,
        IStreamTasks.Receipt calldata r,
        bytes calldata sig,
        bytes32 domainSeparator
    ) private {
        IStreamTasks.Stream storage s = $.streams[r.streamId];
        _checkReceipt(s, r, sig, domainSeparator);
        StreamTasksStorage.Sub storage sub = $.subs[r.streamId][r.provider];
        if (sub.price == 0) revert IStreamTasksErrors.StreamNotSubscriber(r.provider);
        uint128 settled = sub.paidAmount;
        if (r.amount <= settled) return;
        uint256 amount = r.amount - settled;
        uint128 d = s.deposit;
        if (amount > d) revert IStreamTasksErrors.StreamDepositExhausted(amount, d);
        d -= uint128(amount);
        s.deposit = d;
        uint64 paid = sub.paid;
        uint64 fresh = r.answered > paid ? r.answered - paid : 0;
        if (fresh != 0) sub.paid = r.answered;
        sub.paidAmount = r.amount;
        emit IStreamTasksStreamEvents.ReceiptSettled(r.streamId, r.provider, r.answered, fresh, amount, d);
        IERC20($.tokens[s.currency]).safeTransfer(r.provider, amount);
    }

    /// @dev The stream still settles, the client signed, and the amount is at most answered × maxPrice.
    function _checkReceipt(
        IStreamTasks.Stream storage s,
        IStreamTasks.Receipt calldata r,
        bytes calldata sig,
        bytes32 domainSeparator
    ) private view {
        if (s.status == IStreamTasks.Status.Closed && block.timestamp > s.closesAt) {
            revert IStreamTasksErrors.StreamWrongStatus(r.streamId, s.status);
        }
        (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecoverCalldata(digest(r, domainSeparator), sig);
        if (err != ECDSA.RecoverError.NoError || signer != s.client)
            revert IStreamTasksErrors.StreamBadSignature(signer);
        uint256 cap = uint256(r.answered) * s.maxPrice;
        if (r.amount > cap) revert IStreamTasksErrors.StreamReceiptAboveMaxPrice(r.amount, cap);
    }
}
