// Event sequences shared by the clearing mapping tests (clearingHouse.test.ts, liquidationEngine.test.ts).
import { Address, BigInt } from "@graphprotocol/graph-ts";
import { handleDeficitAbsorbed, handlePositionDeleveraged } from "../src/mappings/clearingHouse";
import { ClearingHouseEvents } from "../generated/factories/ClearingHouse";
import { ALICE, BOB, wad } from "./helpers";

function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
}

/**
 * One ADL step against Alice's 50 USDC deficit at `ts`: Bob (short) buys back 30 CH at 5 (profit 150), gives up 30
 * to Alice (−50 → −20) and 0.75 to the keeper (Bob's collateral after: 179.25), then the step's layer-4
 * DeficitAbsorbed (30 paid, 20 left).
 */
export function adlStepAliceBob(house: ClearingHouseEvents, market: Address, ts: i64): void {
  handlePositionDeleveraged(
    house.PositionDeleveraged(
      ts,
      ALICE,
      BOB,
      market,
      wad(30),
      wad(5),
      usdc(150),
      usdc(30),
      BigInt.fromI32(750000),
      BigInt.zero(),
      BigInt.fromI64(179250000),
      usdc(-20),
    ),
  );
  handleDeficitAbsorbed(house.DeficitAbsorbed(ts, ALICE, 4, usdc(30), usdc(20), market));
}
