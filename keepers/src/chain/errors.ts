/** Revert decoding for the keeper: the SDK's decoder over the merged CHX error ABI (every contract, every mock). */
export { ErrorDecoder, formatError, revertData, shortMessage, type DecodedError } from "@chx/sdk";
