// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {ERC20PermitUpgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/extensions/ERC20PermitUpgradeable.sol";
import {ERC20VotesUpgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/extensions/ERC20VotesUpgradeable.sol";
import {NoncesUpgradeable} from "@openzeppelin/contracts-upgradeable/utils/NoncesUpgradeable.sol";
import {Time} from "@openzeppelin/contracts/utils/types/Time.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IDPSToken} from "../../interfaces/tokens/IDPSToken.sol";

/// @title DPSToken
/// @notice The reward, payment and governance token of CHX.
/// @dev Votes use a timestamp clock (ERC-6372) so governance periods are in seconds on every chain.
contract DPSToken is ChxUpgradeable, ERC20PermitUpgradeable, ERC20VotesUpgradeable, IDPSToken {
    /// @custom:storage-location erc7201:chx.storage.DPSToken
    struct DPSTokenStorage {
        uint256 totalEmitted;
        uint256 totalBurned;
        uint256 genesisSupply;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.DPSToken")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant DPS_TOKEN_STORAGE_LOCATION =
        0x75f1f5082035a9930a3cfff1bc6d42e3f1ab22967ecf60781ddc8102649bfb00;

    function _getDPSTokenStorage() private pure returns (DPSTokenStorage storage $) {
        assembly {
            $.slot := DPS_TOKEN_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param genesisRecipient Receives the genesis allocation (treasury / initial governance).
    /// @param genesisAmount DPS minted at genesis.
    function initialize(address authority, address genesisRecipient, uint256 genesisAmount) external initializer {
        __ChxUpgradeable_init(authority);
        __ERC20_init("CHX Reward Share", "DPS");
        __ERC20Permit_init("CHX Reward Share");
        __ERC20Votes_init();
        if (genesisAmount > 0) {
            if (genesisRecipient == address(0)) revert ChxZeroAddress();
            _getDPSTokenStorage().genesisSupply = genesisAmount;
            _mint(genesisRecipient, genesisAmount);
        }
    }

    /// @inheritdoc IDPSToken
    function mint(address to, uint256 amount) external restricted {
        DPSTokenStorage storage $ = _getDPSTokenStorage();
        uint256 emitted = $.totalEmitted + amount;
        $.totalEmitted = emitted;
        _mint(to, amount);
        emit DPSEmitted(to, amount, emitted, totalSupply());
    }

    /// @inheritdoc IDPSToken
    function burn(uint256 amount) external {
        _burnAndRecord(msg.sender, amount);
    }

    /// @inheritdoc IDPSToken
    function burnFrom(address account, uint256 amount) external {
        _spendAllowance(account, msg.sender, amount);
        _burnAndRecord(account, amount);
    }

    function _burnAndRecord(address from, uint256 amount) private {
        DPSTokenStorage storage $ = _getDPSTokenStorage();
        uint256 burned = $.totalBurned + amount;
        $.totalBurned = burned;
        _burn(from, amount);
        emit DPSBurned(from, amount, burned, totalSupply());
    }

    /// @inheritdoc IDPSToken
    function totalEmitted() external view returns (uint256) {
        return _getDPSTokenStorage().totalEmitted;
    }

    /// @inheritdoc IDPSToken
    function totalBurned() external view returns (uint256) {
        return _getDPSTokenStorage().totalBurned;
    }

    /// @inheritdoc IDPSToken
    function genesisSupply() external view returns (uint256) {
        return _getDPSTokenStorage().genesisSupply;
    }

    /// @notice ERC-6372 clock: block timestamp.
    /// @return The current timestamp as uint48.
    function clock() public view override returns (uint48) {
        return Time.timestamp();
    }

    /// @notice ERC-6372 clock mode.
    /// @return The machine-readable clock description.
    // solhint-disable-next-line func-name-mixedcase
    function CLOCK_MODE() public pure override returns (string memory) {
        return "mode=timestamp";
    }

    function _update(
        address from,
        address to,
        uint256 value
    ) internal override(ERC20Upgradeable, ERC20VotesUpgradeable) {
        super._update(from, to, value);
    }

    /// @inheritdoc ERC20PermitUpgradeable
    function nonces(address owner) public view override(ERC20PermitUpgradeable, NoncesUpgradeable) returns (uint256) {
        return super.nonces(owner);
    }
}
