/**
 * Decode a revert: the merged error ABI names every CHX (and OpenZeppelin) custom error with its arguments. Here an
 * account asks to withdraw more margin than it has; the simulation reverts and the SDK says why.
 */
import { decodeRevert, describeError, errorDecoder, parseUsdc } from "@chx/sdk";
import { check, exampleEnv, run } from "./_env.js";

run("decode-revert", async () => {
  const env = await exampleEnv();
  const me = env.as(11);
  let decoded;
  try {
    await me.clearingHouse.withdraw.staticCall(parseUsdc("1"), env.account(11).address);
    throw new Error("the withdrawal should have reverted");
  } catch (e) {
    decoded = errorDecoder().decode(e);
    console.log(describeError(e));
  }
  check(decoded.name === "ClearingInsufficientCollateral", `decoded ${decoded.text}`);
  check(decoded.args?.requestedUsdc === 1_000_000n, "with its arguments");
  // raw revert data decodes the same way (e.g. from a wallet's or an explorer's error field)
  check(decodeRevert(decoded.data!).text === decoded.text, "raw data decodes the same");
});
