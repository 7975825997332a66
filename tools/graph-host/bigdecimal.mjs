// graph-node's BigDecimal (graph/src/data/store/scalar/bigdecimal.rs), which wraps the `bigdecimal` crate
// pinned at 0.1.2 for determinism. Value = digits * 10^exp. Every result goes through `normalized()`:
//   with_prec(34) then strip trailing zeros.
// Rounding rules of bigdecimal 0.1.2 reproduced here (they are what a deployed subgraph computes):
//   * with_prec(34) on a POSITIVE value rounds half up on the dropped digits; on a NEGATIVE value it
//     truncates toward zero (its `p < 10 * r` test is never true for a negative remainder);
//   * division works on magnitudes to 100 significant digits, rounds the 100th digit half up on the next
//     digit, re-applies the sign, and is then normalised (so negative quotients truncate at 34 digits);
//   * Display is plain positional notation, never an exponent.
// The golden tests in test/run.mjs pin each rule.
export const MAX_DIGITS = 34;
const DIV_PRECISION = 100;
const abs = (n) => (n < 0n ? -n : n);
const ndigits = (n) => (n === 0n ? 1 : abs(n).toString().length);
const ZERO = Object.freeze({ digits: 0n, exp: 0n });

// bigdecimal 0.1.2 get_rounding_term: 1 when the remainder is at least half of the next power of ten.
function roundingTerm(r) {
  if (r === 0n) return 0n;
  const d = BigInt(ndigits(r));
  return r * 2n >= 10n ** d ? 1n : 0n;
}

function withPrec(digits, exp, prec) {
  const nd = ndigits(digits);
  if (nd <= prec) return { digits, exp };
  const diff = BigInt(nd - prec);
  const p = 10n ** diff;
  let q = digits / p; // truncates toward zero (num-bigint div_rem)
  const r = digits % p;
  if (p < 10n * r) q += roundingTerm(r); // never true for r < 0: negative values truncate
  return { digits: q, exp: exp + diff };
}

export function normalize({ digits, exp }) {
  digits = BigInt(digits);
  exp = BigInt(exp);
  if (digits === 0n) return ZERO;
  ({ digits, exp } = withPrec(digits, exp, MAX_DIGITS));
  if (digits === 0n) return ZERO;
  while (digits % 10n === 0n) {
    digits /= 10n;
    exp += 1n;
  }
  return { digits, exp };
}

function align(a, b) {
  const e = a.exp < b.exp ? a.exp : b.exp;
  return [a.digits * 10n ** (a.exp - e), b.digits * 10n ** (b.exp - e), e];
}

export const plus = (a, b) => {
  const [x, y, e] = align(a, b);
  return normalize({ digits: x + y, exp: e });
};
export const minus = (a, b) => {
  const [x, y, e] = align(a, b);
  return normalize({ digits: x - y, exp: e });
};
export const times = (a, b) => normalize({ digits: a.digits * b.digits, exp: a.exp + b.exp });

// bigdecimal 0.1.2 impl_division on magnitudes (scale = -exp).
function divideMagnitudes(num, den, scale) {
  while (num < den) {
    scale += 1n;
    num *= 10n;
  }
  let quotient = num / den;
  let remainder = num % den;
  if (remainder === 0n) return { digits: quotient, exp: -scale };
  let precision = ndigits(quotient);
  remainder *= 10n;
  while (remainder !== 0n && precision < DIV_PRECISION) {
    quotient = quotient * 10n + remainder / den;
    remainder = (remainder % den) * 10n;
    precision += 1;
    scale += 1n;
  }
  if (remainder !== 0n) quotient += roundingTerm(remainder / den);
  return { digits: quotient, exp: -scale };
}

export function dividedBy(a, b) {
  if (b.digits === 0n) throw new Error("Cannot divide by zero-valued `BigDecimal`!");
  if (a.digits === 0n) return ZERO;
  const scale = -a.exp + b.exp; // self.scale - other.scale
  if (b.digits === 1n && b.exp === 0n) return normalize(a);
  if (a.digits === b.digits) return normalize({ digits: 1n, exp: -scale });
  const neg = a.digits < 0n !== b.digits < 0n;
  const q = divideMagnitudes(abs(a.digits), abs(b.digits), scale);
  return normalize({ digits: neg ? -q.digits : q.digits, exp: q.exp });
}

export const equals = (a, b) => {
  const x = normalize(a);
  const y = normalize(b);
  return x.digits === y.digits && x.exp === y.exp;
};

// bigdecimal 0.1.2 FromStr: [sign] digits [. digits] [e|E [sign] digits]; "1." and ".5" are accepted.
export function fromString(s) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) throw new Error(`invalid BigDecimal string: '${s}'`);
  const frac = m[3] ?? "";
  let digits = BigInt((m[2] || "0") + frac);
  if (m[1] === "-") digits = -digits;
  return normalize({ digits, exp: BigInt(m[4] ?? 0) - BigInt(frac.length) });
}

export function toString({ digits, exp }) {
  const neg = digits < 0n;
  const d = abs(digits).toString();
  let out;
  if (exp >= 0n) out = d === "0" ? "0" : d + "0".repeat(Number(exp));
  else {
    const scale = Number(-exp);
    out =
      d.length > scale
        ? d.slice(0, d.length - scale) + "." + d.slice(d.length - scale)
        : "0." + "0".repeat(scale - d.length) + d;
  }
  return (neg ? "-" : "") + out;
}
