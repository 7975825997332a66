// BigDecimal golden vectors, run through graph-ts and the host. graph-node keeps 34 significant digits using
// the `bigdecimal` crate 0.1.2: positive values round half up, negative values truncate toward zero, division
// is computed to 100 digits first; toString never uses an exponent. Under real `graph test` these same
// vectors check graph-node itself, i.e. the fidelity of subgraph/test-runner/bigdecimal.mjs.
import { BigDecimal, BigInt } from "@graphprotocol/graph-ts";
import { assert, describe, test } from "matchstick-as/assembly/index";

function bd(s: string): BigDecimal {
  return BigDecimal.fromString(s);
}

describe("BigDecimal (graph-node semantics)", () => {
  test("long quotients round half up at 34 significant digits", () => {
    assert.stringEquals(bd("1").div(bd("3")).toString(), "0.3333333333333333333333333333333333");
    assert.stringEquals(bd("2").div(bd("3")).toString(), "0.6666666666666666666666666666666667");
    assert.stringEquals(bd("1").div(bd("7")).toString(), "0.1428571428571428571428571428571429");
    assert.stringEquals(bd("-1").div(bd("-3")).toString(), "0.3333333333333333333333333333333333");
    assert.stringEquals(bd("10").div(bd("4")).toString(), "2.5");
    assert.stringEquals(bd("1").div(bd("8")).toString(), "0.125");
  });

  test("negative results truncate toward zero", () => {
    assert.stringEquals(bd("-2").div(bd("3")).toString(), "-0.6666666666666666666666666666666666");
    assert.stringEquals(bd("2").div(bd("-3")).toString(), "-0.6666666666666666666666666666666666");
    assert.stringEquals(bd("-12345678901234567890123456789012345").toString(), "-12345678901234567890123456789012340");
  });

  test("more than 34 digits are rounded when parsed and multiplied", () => {
    assert.stringEquals(bd("12345678901234567890123456789012345").toString(), "12345678901234567890123456789012350");
    assert.stringEquals(bd("0.99999999999999999999999999999999995").toString(), "1");
    assert.stringEquals(
      bd("1234567890.1234567890").times(bd("1234567890.1234567890")).toString(),
      "1524157875323883675.019051998750191", // exact ...750190521: 37 digits, "521" dropped, rounded up
    );
    assert.stringEquals(
      bd("-1234567890.1234567890").times(bd("1234567890.1234567890")).toString(),
      "-1524157875323883675.01905199875019", // truncated to ...750190, trailing zero stripped
    );
  });

  test("exponents are printed positionally and trailing zeros stripped", () => {
    assert.stringEquals(bd("1.5e-40").toString(), "0.00000000000000000000000000000000000000015");
    assert.stringEquals(bd("1e40").toString(), "10000000000000000000000000000000000000000");
    assert.stringEquals(bd("1.000").toString(), "1");
    assert.stringEquals(bd("-0.0").toString(), "0");
    assert.stringEquals(bd("0.1").plus(bd("0.2")).toString(), "0.3");
    assert.stringEquals(bd("0.1").times(bd("0.1")).toString(), "0.01");
    assert.stringEquals(bd("5").minus(bd("7.25")).toString(), "-2.25");
  });

  test("BigInt to BigDecimal conversions", () => {
    assert.stringEquals(BigInt.fromI32(10).divDecimal(bd("4")).toString(), "2.5");
    assert.stringEquals(BigInt.fromString("1000000000000000000").toBigDecimal().div(bd("1e18")).toString(), "1");
    assert.assertTrue(bd("1.0").equals(bd("1")));
  });
});
