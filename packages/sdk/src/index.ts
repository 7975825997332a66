/**
 * @chx/sdk — the client side of the CHX protocol.
 *
 *   deployment  the deployment record: type, JSON schema, validating reader
 *   abis        every deployed contract's ABI (`as const`), the merged error ABI, lens bytecode
 *   contracts   typed handles (TypeChain) on a deployment: connectProtocol(record, runner)
 *   eip712      domains read from the contracts, typed data and signing of every signed message
 *   errors      revert decoding (custom errors by name and arguments, Error, Panic)
 *   units       USDC / CH / WAD parsing, formatting and rounding-named arithmetic
 *   quotes      what a spot or options fill costs, rounded as the contracts round
 *   enums/roles generated from the contracts' AST
 *   signer      signers from encrypted JSON keystores
 *   lens        portfolio and guarantor helpers over the AccountLens
 *   batch       many view calls in one eth_call (the deployless BatchReader)
 *   relay       the order relay's client and wire types
 */
export * from "./deployment.js";
export * from "./contracts.js";
export * from "./eip712.js";
export * from "./errors.js";
export * from "./units.js";
export * from "./quotes.js";
export * from "./roles.js";
export * from "./signer.js";
export * from "./signed-json.js";
export * from "./lens.js";
export * from "./batch.js";
export * from "./relay.js";
export * from "./generated/enums.js";
export * from "./generated/abis.js";
export * from "./generated/bytecode.js";
export * from "./generated/typed-data.js";
export * from "./generated/typechain/index.js";
export type * as contractTypes from "./generated/typechain/index.js";
