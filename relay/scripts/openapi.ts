/**
 * `npm run relay:openapi`: writes relay/openapi.json, the OpenAPI document generated from the routes' own JSON
 * schemas (the same the server validates with and serves at /openapi.json). relay/test/openapi.test.ts fails when the
 * committed file and the code disagree.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { openapiDocument } from "../src/openapi.js";

const file = path.join(import.meta.dirname, "..", "openapi.json");
writeFileSync(file, (await openapiDocument()) + "\n");
console.log(`wrote ${path.relative(process.cwd(), file)}`);
