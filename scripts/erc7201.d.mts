/** ERC-7201 slot of a namespace id: keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~bytes32(uint256(0xff)). */
export declare function erc7201Slot(id: string): string;
