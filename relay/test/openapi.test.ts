/** The committed OpenAPI document is the one the code generates and serves. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { RELAY_ERROR_CODES } from "@chx/sdk";
import { openapiDocument } from "../src/openapi.js";
import { BACKENDS, get, relay } from "./harness.js";

describe("openapi", function () {
  it("relay/openapi.json is current (regenerate: npm run relay:openapi)", async function () {
    const committed = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "openapi.json"), "utf8")) as unknown;
    expect(committed).to.deep.equal(JSON.parse(await openapiDocument()));
  });

  it("is served at /openapi.json, documents every HTTP route (the WebSocket stream in its description) and every error code", async function () {
    const r = await relay(BACKENDS[0]!, {}, { sync: false });
    try {
      const doc = (await get(`${r.url}/openapi.json`)).body;
      expect(Object.keys(doc.paths)).to.include.members([
        "/v1/orders",
        "/v1/orders/{hash}",
        "/v1/orders/{hash}/cancel",
        "/v1/makers/{maker}/orders",
        "/v1/books",
        "/v1/books/{book}",
        "/v1/fills",
        "/v1/cancels",
        "/v1/status",
        "/health",
      ]);
      expect(doc.info.description).to.contain("/v1/stream");
      const codes =
        doc.paths["/v1/orders"].post.responses["422"].content["application/json"].schema.properties.error.properties
          .code.enum;
      expect(codes).to.deep.equal([...RELAY_ERROR_CODES]);
    } finally {
      await r.stop();
    }
  });
});
