import { expect } from "chai";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { erc7201Slot } from "../../scripts/erc7201.mjs";
import { Roles } from "@chx/sdk";

function solidityFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? solidityFiles(p) : p.endsWith(".sol") ? [p] : [];
  });
}

describe("ERC-7201 namespaces and role table", function () {
  const files = solidityFiles("contracts");

  it("every @custom:storage-location constant equals keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~0xff (SEC-02)", function () {
    let checked = 0;
    for (const file of files) {
      const src = readFileSync(file, "utf8");
      for (const m of src.matchAll(/@custom:storage-location erc7201:([\w.]+)/g)) {
        const id = m[1]!;
        // the constant that follows the struct, commented with the formula for this id
        const re = new RegExp(
          `keccak256\\("${id.replace(/\./g, "\\.")}"\\)\\) - 1\\)\\) & ~bytes32\\(uint256\\(0xff\\)\\)\\s*\\n\\s*bytes32 (?:private|internal) constant \\w+\\s*=\\s*(0x[0-9a-fA-F]{64})`,
        );
        const c = re.exec(src);
        expect(c, `${file}: no slot constant with the formula comment for ${id}`).to.not.equal(null);
        expect(c![1]!.toLowerCase(), `${file}: ${id}`).to.equal(erc7201Slot(id));
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(3);
  });

  it("namespaces are unique across core contracts", function () {
    const seen = new Map<string, string>();
    for (const file of files.filter((f) => !f.includes(`${path.sep}mocks${path.sep}`))) {
      for (const m of readFileSync(file, "utf8").matchAll(/@custom:storage-location erc7201:([\w.]+)/g)) {
        expect(seen.has(m[1]!), `${m[1]} declared in ${seen.get(m[1]!)} and ${file}`).to.equal(false);
        seen.set(m[1]!, file);
      }
    }
  });

  it("the SDK's Roles (generated from the AST) mirror contracts/core/governance/Roles.sol", function () {
    const src = readFileSync("contracts/core/governance/Roles.sol", "utf8");
    const sol = new Map<string, bigint>();
    for (const m of src.matchAll(/uint64 internal constant (\w+) = ([^;]+);/g)) {
      sol.set(m[1]!, m[2]!.trim() === "type(uint64).max" ? 2n ** 64n - 1n : BigInt(m[2]!.trim()));
    }
    expect(Object.fromEntries(sol)).to.deep.equal({ ...Roles });
  });
});
