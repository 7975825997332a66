// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Deployers} from "../utils/Deployers.sol";
import {DPSToken} from "../../contracts/core/token/DPSToken.sol";
import {CHToken} from "../../contracts/core/token/CHToken.sol";
import {GFLToken} from "../../contracts/core/token/GFLToken.sol";
import {MockERC20} from "../../contracts/mocks/MockERC20.sol";

/// @notice Fixture of the token, emission and oracle suites: the governance and token layers from Deployers, kept
///         in the concrete types those suites drive them through. No deploy code of its own.
abstract contract ChxSolBase is Deployers {
    DPSToken internal dps;
    CHToken internal ch;
    GFLToken internal gfl;
    MockERC20 internal usdc;

    /// @dev AccessManager, DPS (genesis to this contract), CH, GFL with the tokens module's roles, mock USDC.
    function _deployBase() internal {
        _deployAccessManager();
        dps = DPSToken(_deployDps(GENESIS_DPS, true));
        ch = CHToken(_deployCh());
        gfl = GFLToken(_deployGfl());
        usdc = MockERC20(_deployUsdc());
    }
}
